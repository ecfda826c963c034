import { useState } from 'react';
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
import { RecordListEditor } from './record-list-editor';

/*
 * The own profile editor's list tabs: every add, update and removal is saved at once through its
 * own endpoint (SPEC §7 Own profile) and reported with the messages of SPEC §8.
 */

const NOTE = 'Changes in this tab are saved as soon as you add, edit or remove an entry.';

export function OwnEmergencyContacts({ contacts }: { contacts: EmergencyContact[] }) {
  const add = useAddEmergencyContact();
  const remove = useRemoveEmergencyContact();
  const [status, setStatus] = useState<string | null>(null);

  return (
    <RecordListEditor
      heading="Emergency Contacts"
      emptyText="No emergency contacts added"
      note={NOTE}
      status={status}
      items={contacts}
      getKey={(c) => c.id}
      describe={describeContact}
      renderForm={({ item, focusOnMount, onSaved, onCancel }) => (
        <EmergencyContactForm
          variant="profile"
          item={item}
          focusOnMount={focusOnMount}
          onCancel={onCancel}
          onSubmit={async (values) => {
            setStatus(null);
            try {
              // SPEC §7: the contact edit save reuses the add call, carrying the contact's id.
              const answer = await add.mutateAsync(item ? { ...values, contact_id: item.contact_id } : values);
              setStatus(answer.message || 'Emergency contact added successfully!');
              onSaved();
              return true;
            } catch (error) {
              setStatus(errorMessage(error, 'Failed to add emergency contact', 'Error adding emergency contact'));
              return false;
            }
          }}
        />
      )}
      onRemove={async (contact) => {
        setStatus(null);
        try {
          await remove.mutateAsync(contact.contact_id);
          setStatus('Emergency contact removed successfully!');
          return true;
        } catch (error) {
          setStatus(errorMessage(error, 'Failed to remove emergency contact', 'Error removing emergency contact'));
          return false;
        }
      }}
    />
  );
}

export function OwnHealthcareProviders({ providers }: { providers: HealthcareProvider[] }) {
  const add = useAddHealthcareProvider();
  const update = useUpdateHealthcareProvider();
  const remove = useRemoveHealthcareProvider();
  const [status, setStatus] = useState<string | null>(null);

  return (
    <RecordListEditor
      heading="Healthcare Providers"
      emptyText="No healthcare providers added"
      note={NOTE}
      status={status}
      items={providers}
      getKey={(p) => p.id}
      describe={describeProvider}
      renderForm={({ item, focusOnMount, onSaved, onCancel }) => (
        <HealthcareProviderForm
          variant="profile"
          item={item}
          focusOnMount={focusOnMount}
          onCancel={onCancel}
          onSubmit={async (values) => {
            setStatus(null);
            try {
              if (item) {
                await update.mutateAsync({ id: item.provider_id, input: values });
                setStatus('Healthcare provider updated successfully!');
              } else {
                await add.mutateAsync(values);
                setStatus('Healthcare provider added successfully!');
              }
              onSaved();
              return true;
            } catch (error) {
              setStatus(errorMessage(error, item ? 'Error updating healthcare provider' : 'Error adding healthcare provider'));
              return false;
            }
          }}
        />
      )}
      onRemove={async (provider) => {
        setStatus(null);
        try {
          await remove.mutateAsync(provider.provider_id);
          setStatus('Healthcare provider removed successfully!');
          return true;
        } catch (error) {
          setStatus(errorMessage(error, 'Error removing healthcare provider'));
          return false;
        }
      }}
    />
  );
}

export function OwnMedications({ medications }: { medications: Medication[] }) {
  const add = useAddMedication();
  const update = useUpdateMedication();
  const remove = useRemoveMedication();
  const [status, setStatus] = useState<string | null>(null);

  return (
    <RecordListEditor
      heading="Medications"
      emptyText="No medications added"
      note={NOTE}
      status={status}
      items={medications}
      getKey={(m) => m.id}
      describe={describeMedication}
      renderForm={({ item, focusOnMount, onSaved, onCancel }) => (
        <MedicationForm
          variant="profile"
          item={item}
          focusOnMount={focusOnMount}
          onCancel={onCancel}
          onSubmit={async (values) => {
            setStatus(null);
            try {
              if (item) {
                await update.mutateAsync({ id: item.medication_id, input: values });
                setStatus('Medication updated successfully!');
              } else {
                await add.mutateAsync(values);
                setStatus('Medication added successfully!');
              }
              onSaved();
              return true;
            } catch (error) {
              setStatus(errorMessage(error, item ? 'Error updating medication' : 'Error adding medication'));
              return false;
            }
          }}
        />
      )}
      onRemove={async (medication) => {
        setStatus(null);
        try {
          await remove.mutateAsync(medication.medication_id);
          setStatus('Medication removed successfully!');
          return true;
        } catch (error) {
          setStatus(errorMessage(error, 'Error removing medication'));
          return false;
        }
      }}
    />
  );
}
