import type { EmergencyContact, HealthcareProvider, Medication } from '@kinchart/shared/profile';
import { useAddMemberEmergencyContact } from '../api/add-member-emergency-contact';
import { useAddMemberHealthcareProvider } from '../api/add-member-healthcare-provider';
import { useAddMemberMedication } from '../api/add-member-medication';
import { useRemoveMemberEmergencyContact } from '../api/remove-member-emergency-contact';
import { useRemoveMemberHealthcareProvider } from '../api/remove-member-healthcare-provider';
import { useRemoveMemberMedication } from '../api/remove-member-medication';
import { useUpdateMemberHealthcareProvider } from '../api/update-member-healthcare-provider';
import { useUpdateMemberMedication } from '../api/update-member-medication';
import { errorMessage } from '../lib/format';
import { describeContact, EmergencyContactForm } from './emergency-contact-form';
import { describeProvider, HealthcareProviderForm } from './healthcare-provider-form';
import { describeMedication, MedicationForm } from './medication-form';
import { RecordListSection } from './record-list-section';

/*
 * The family member editor's list tabs. Like the own profile's (own-profile-lists.tsx), every add,
 * edit and removal is saved at once through its own call, so nothing typed into a list is lost by
 * leaving without "Update Family Member"; the forms keep the family rules of SPEC §5.
 */

const NOTE = 'Changes in this tab are saved as soon as you add, edit or remove an entry.';

export function MemberEmergencyContacts({ memberId, contacts }: { memberId: string; contacts: EmergencyContact[] }) {
  const add = useAddMemberEmergencyContact(memberId);
  const remove = useRemoveMemberEmergencyContact(memberId);
  return (
    <RecordListSection
      variant="family"
      heading="Emergency Contacts"
      emptyText="No emergency contacts added"
      note={NOTE}
      items={contacts}
      describe={describeContact}
      form={EmergencyContactForm}
      save={async (values, item) => {
        // SPEC §7: a contact is edited through the add call, carrying its id.
        const answer = await add.mutateAsync(item ? { ...values, contact_id: item.contact_id } : values);
        return answer.message || 'Emergency contact added successfully!';
      }}
      saveError={(error) => errorMessage(error, 'Failed to add emergency contact', 'Error adding emergency contact')}
      remove={async (contact) => {
        await remove.mutateAsync(contact.contact_id);
        return 'Emergency contact removed successfully!';
      }}
      removeError={(error) => errorMessage(error, 'Failed to remove emergency contact', 'Error removing emergency contact')}
    />
  );
}

export function MemberHealthcareProviders({ memberId, providers }: { memberId: string; providers: HealthcareProvider[] }) {
  const add = useAddMemberHealthcareProvider(memberId);
  const update = useUpdateMemberHealthcareProvider(memberId);
  const remove = useRemoveMemberHealthcareProvider(memberId);
  return (
    <RecordListSection
      variant="family"
      heading="Healthcare Providers"
      emptyText="No healthcare providers added"
      note={NOTE}
      items={providers}
      describe={describeProvider}
      form={HealthcareProviderForm}
      save={async (values, item) => {
        if (!item) {
          await add.mutateAsync(values);
          return 'Healthcare provider added successfully!';
        }
        await update.mutateAsync({ id: item.provider_id, input: values });
        return 'Healthcare provider updated successfully!';
      }}
      saveError={(error, item) => errorMessage(error, item ? 'Error updating healthcare provider' : 'Error adding healthcare provider')}
      remove={async (provider) => {
        await remove.mutateAsync(provider.provider_id);
        return 'Healthcare provider removed successfully!';
      }}
      removeError={(error) => errorMessage(error, 'Error removing healthcare provider')}
    />
  );
}

export function MemberMedications({ memberId, medications }: { memberId: string; medications: Medication[] }) {
  const add = useAddMemberMedication(memberId);
  const update = useUpdateMemberMedication(memberId);
  const remove = useRemoveMemberMedication(memberId);
  return (
    <RecordListSection
      variant="family"
      heading="Medications"
      emptyText="No medications added"
      note={NOTE}
      items={medications}
      describe={describeMedication}
      form={MedicationForm}
      save={async (values, item) => {
        if (!item) {
          await add.mutateAsync(values);
          return 'Medication added successfully!';
        }
        await update.mutateAsync({ id: item.medication_id, input: values });
        return 'Medication updated successfully!';
      }}
      saveError={(error, item) => errorMessage(error, item ? 'Error updating medication' : 'Error adding medication')}
      remove={async (medication) => {
        await remove.mutateAsync(medication.medication_id);
        return 'Medication removed successfully!';
      }}
      removeError={(error) => errorMessage(error, 'Error removing medication')}
    />
  );
}
