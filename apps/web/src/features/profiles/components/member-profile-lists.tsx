import type { EmergencyContact, HealthcareProvider, Medication } from '@kinchart/shared/profile';
import { useAddMemberEmergencyContact } from '../api/add-member-emergency-contact';
import { useAddMemberHealthcareProvider } from '../api/add-member-healthcare-provider';
import { useAddMemberMedication } from '../api/add-member-medication';
import { useRemoveMemberEmergencyContact } from '../api/remove-member-emergency-contact';
import { useRemoveMemberHealthcareProvider } from '../api/remove-member-healthcare-provider';
import { useRemoveMemberMedication } from '../api/remove-member-medication';
import { useUpdateMemberHealthcareProvider } from '../api/update-member-healthcare-provider';
import { useUpdateMemberMedication } from '../api/update-member-medication';
import { EmergencyContactsSection, HealthcareProvidersSection, MedicationsSection } from './profile-list-sections';

/*
 * The family member editor's list tabs, on the member's endpoints: like the own profile's, each
 * entry is saved at once, so nothing is lost by leaving without "Update Family Member".
 */

export function MemberEmergencyContacts({ memberId, contacts }: { memberId: string; contacts: EmergencyContact[] }) {
  return (
    <EmergencyContactsSection
      variant="family"
      contacts={contacts}
      add={useAddMemberEmergencyContact(memberId)}
      remove={useRemoveMemberEmergencyContact(memberId)}
    />
  );
}

export function MemberHealthcareProviders({ memberId, providers }: { memberId: string; providers: HealthcareProvider[] }) {
  return (
    <HealthcareProvidersSection
      variant="family"
      providers={providers}
      add={useAddMemberHealthcareProvider(memberId)}
      update={useUpdateMemberHealthcareProvider(memberId)}
      remove={useRemoveMemberHealthcareProvider(memberId)}
    />
  );
}

export function MemberMedications({ memberId, medications }: { memberId: string; medications: Medication[] }) {
  return (
    <MedicationsSection
      variant="family"
      personId={memberId}
      medications={medications}
      add={useAddMemberMedication(memberId)}
      update={useUpdateMemberMedication(memberId)}
      remove={useRemoveMemberMedication(memberId)}
    />
  );
}
