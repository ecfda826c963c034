import type { EmergencyContact, HealthcareProvider, Medication } from '@kinchart/shared/profile';
import { useAddEmergencyContact } from '../api/add-emergency-contact';
import { useAddHealthcareProvider } from '../api/add-healthcare-provider';
import { useAddMedication } from '../api/add-medication';
import { useRemoveEmergencyContact } from '../api/remove-emergency-contact';
import { useRemoveHealthcareProvider } from '../api/remove-healthcare-provider';
import { useRemoveMedication } from '../api/remove-medication';
import { useUpdateHealthcareProvider } from '../api/update-healthcare-provider';
import { useUpdateMedication } from '../api/update-medication';
import { ownPerson } from '../../../lib/person-choice';
import { usePeople } from '../../../lib/queries/people';
import { EmergencyContactsSection, HealthcareProvidersSection, MedicationsSection } from './profile-list-sections';

/* The own profile editor's list tabs, on the own-profile endpoints (SPEC §7 Own profile). */

export function OwnEmergencyContacts({ contacts }: { contacts: EmergencyContact[] }) {
  return <EmergencyContactsSection contacts={contacts} add={useAddEmergencyContact()} remove={useRemoveEmergencyContact()} />;
}

export function OwnHealthcareProviders({ providers }: { providers: HealthcareProvider[] }) {
  return (
    <HealthcareProvidersSection
      providers={providers}
      add={useAddHealthcareProvider()}
      update={useUpdateHealthcareProvider()}
      remove={useRemoveHealthcareProvider()}
    />
  );
}

export function OwnMedications({ medications }: { medications: Medication[] }) {
  // The own profile as the people list has it: the person whose schedules these are.
  const self = ownPerson(usePeople().data ?? []);
  return (
    <MedicationsSection
      personId={self?.id ?? null}
      medications={medications}
      add={useAddMedication()}
      update={useUpdateMedication()}
      remove={useRemoveMedication()}
    />
  );
}
