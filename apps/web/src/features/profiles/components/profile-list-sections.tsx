import { useLingui } from '@lingui/react/macro';
import type {
  EmergencyContact,
  EmergencyContactInput,
  HealthcareProvider,
  HealthcareProviderInput,
  Medication,
  MedicationInput,
} from '@kinchart/shared/profile';
import { errorMessage } from '../../../lib/api-client';
import { translateMessageText } from '../../../i18n/message-text';
import { MedicationSchedule } from '../../medications/components/medication-schedule';
import { describeContact, EmergencyContactForm } from './emergency-contact-form';
import { describeProvider, HealthcareProviderForm } from './healthcare-provider-form';
import { describeMedication, MedicationForm } from './medication-form';
import { RecordListSection } from './record-list-section';

/*
 * The list tabs of both profile editors — the own profile's and a family member's — written once
 * (STYLE: one path for two surfaces). Every add, edit and removal is saved at once through its own
 * call, so nothing typed into a list is lost by leaving the editor, and each is reported with the
 * messages of SPEC §8. The callers pass the mutations of their own endpoints (SPEC §7).
 */

/** What a section needs of a TanStack mutation. */
interface Mutation<Input, Answer = unknown> {
  mutateAsync: (input: Input) => Promise<Answer>;
}
type Update<Input> = Mutation<{ id: string; input: Input }>;

interface Common {
  /** SPEC §5: the family editor's forms keep the family rules. */
  variant?: 'profile' | 'family';
}

export function EmergencyContactsSection({
  contacts,
  add,
  remove,
  variant,
}: Common & { contacts: EmergencyContact[]; add: Mutation<EmergencyContactInput, { message?: string }>; remove: Mutation<string> }) {
  const { t } = useLingui();
  return (
    <RecordListSection
      variant={variant}
      heading={t`Emergency Contacts`}
      anchor={(contact) => `contact-${contact.id}`}
      emptyText={t`No emergency contacts added`}
      note={t`Changes in this tab are saved as soon as you add, edit or remove an entry.`}
      items={contacts}
      describe={describeContact}
      form={EmergencyContactForm}
      save={async (values, item) => {
        // SPEC §7: the contact edit save reuses the add call, carrying the contact's id.
        const answer = await add.mutateAsync(item ? { ...values, contact_id: item.contact_id } : values);
        return answer.message ? translateMessageText(answer.message) : t`Emergency contact added successfully!`;
      }}
      saveError={(error) => errorMessage(error, t`Failed to add emergency contact`, t`Error adding emergency contact`)}
      remove={async (contact) => {
        await remove.mutateAsync(contact.contact_id);
        return t`Emergency contact removed successfully!`;
      }}
      removeError={(error) => errorMessage(error, t`Failed to remove emergency contact`, t`Error removing emergency contact`)}
    />
  );
}

export function HealthcareProvidersSection({
  providers,
  add,
  update,
  remove,
  variant,
}: Common & {
  providers: HealthcareProvider[];
  add: Mutation<HealthcareProviderInput>;
  update: Update<HealthcareProviderInput>;
  remove: Mutation<string>;
}) {
  const { t } = useLingui();
  return (
    <RecordListSection
      variant={variant}
      heading={t`Healthcare Providers`}
      anchor={(provider) => `provider-${provider.id}`}
      emptyText={t`No healthcare providers added`}
      note={t`Changes in this tab are saved as soon as you add, edit or remove an entry.`}
      items={providers}
      describe={describeProvider}
      form={HealthcareProviderForm}
      save={async (values, item) => {
        if (!item) {
          await add.mutateAsync(values);
          return t`Healthcare provider added successfully!`;
        }
        await update.mutateAsync({ id: item.provider_id, input: values });
        return t`Healthcare provider updated successfully!`;
      }}
      saveError={(error, item) => errorMessage(error, item ? t`Error updating healthcare provider` : t`Error adding healthcare provider`)}
      remove={async (provider) => {
        await remove.mutateAsync(provider.provider_id);
        return t`Healthcare provider removed successfully!`;
      }}
      removeError={(error) => errorMessage(error, t`Error removing healthcare provider`)}
    />
  );
}

export function MedicationsSection({
  personId,
  medications,
  add,
  update,
  remove,
  variant,
}: Common & {
  /** Whose medications: each current one shows its schedule (issue 32); null while not known. */
  personId: string | null;
  medications: Medication[];
  add: Mutation<MedicationInput>;
  update: Update<MedicationInput>;
  remove: Mutation<string>;
}) {
  const { t } = useLingui();
  return (
    <RecordListSection
      variant={variant}
      heading={t`Medications`}
      emptyText={t`No medications added`}
      note={t`Changes in this tab are saved as soon as you add, edit or remove an entry.`}
      items={medications}
      describe={describeMedication}
      form={MedicationForm}
      extra={(medication) =>
        medication.is_current ? (
          <MedicationSchedule
            personId={personId}
            medicationId={medication.id}
            name={medication.medication_name?.trim() || t`Unnamed medication`}
          />
        ) : null
      }
      save={async (values, item) => {
        if (!item) {
          await add.mutateAsync(values);
          return t`Medication added successfully!`;
        }
        await update.mutateAsync({ id: item.medication_id, input: values });
        return t`Medication updated successfully!`;
      }}
      saveError={(error, item) => errorMessage(error, item ? t`Error updating medication` : t`Error adding medication`)}
      remove={async (medication) => {
        await remove.mutateAsync(medication.medication_id);
        return t`Medication removed successfully!`;
      }}
      removeError={(error) => errorMessage(error, t`Error removing medication`)}
    />
  );
}
