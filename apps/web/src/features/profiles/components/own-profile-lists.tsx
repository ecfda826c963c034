import type { EmergencyContact, HealthcareProvider, Medication } from '@kinchart/shared/profile';
import { useAddEmergencyContact } from '../api/add-emergency-contact';
import { useAddHealthcareProvider } from '../api/add-healthcare-provider';
import { useAddMedication } from '../api/add-medication';
import { useRemoveEmergencyContact } from '../api/remove-emergency-contact';
import { useRemoveHealthcareProvider } from '../api/remove-healthcare-provider';
import { useRemoveMedication } from '../api/remove-medication';
import { useUpdateHealthcareProvider } from '../api/update-healthcare-provider';
import { useUpdateMedication } from '../api/update-medication';
import { errorMessage } from '../lib/format';
import { describeContact, EmergencyContactForm } from './emergency-contact-form';
import { describeProvider, HealthcareProviderForm } from './healthcare-provider-form';
import { describeMedication, MedicationForm } from './medication-form';
import { RecordListSection } from './record-list-section';

/*
 * The own profile editor's list tabs: every add, update and removal is saved at once through its
 * own endpoint (SPEC §7 Own profile) and reported with the messages of SPEC §8.
 */

const NOTE = 'Changes in this tab are saved as soon as you add, edit or remove an entry.';

export function OwnEmergencyContacts({ contacts }: { contacts: EmergencyContact[] }) {
  const add = useAddEmergencyContact();
  const remove = useRemoveEmergencyContact();

  return (
    <RecordListSection
      heading="Emergency Contacts"
      emptyText="No emergency contacts added"
      note={NOTE}
      items={contacts}
      describe={describeContact}
      form={EmergencyContactForm}
      save={async (values, item) => {
        // SPEC §7: the contact edit save reuses the add call, carrying the contact's id.
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

export function OwnHealthcareProviders({ providers }: { providers: HealthcareProvider[] }) {
  const add = useAddHealthcareProvider();
  const update = useUpdateHealthcareProvider();
  const remove = useRemoveHealthcareProvider();

  return (
    <RecordListSection
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

export function OwnMedications({ medications }: { medications: Medication[] }) {
  const add = useAddMedication();
  const update = useUpdateMedication();
  const remove = useRemoveMedication();

  return (
    <RecordListSection
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
