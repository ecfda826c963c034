import type { ComponentType } from 'react';
import { useFormContext, useWatch, type Path, type PathValue } from 'react-hook-form';
import type { FamilyFormInput } from '../lib/profile-form';
import { describeContact, EmergencyContactForm } from './emergency-contact-form';
import { describeProvider, HealthcareProviderForm } from './healthcare-provider-form';
import { describeMedication, MedicationForm } from './medication-form';
import type { RecordFormProps } from './record-form-frame';
import { RecordListEditor, type RecordSummary } from './record-list-editor';

/*
 * The family member editor's list tabs. SPEC §3/§7: the lists are held in form state and sent with
 * the member's update, so adding or removing here changes nothing on the server until the save.
 */

const NOTE = 'Changes here are saved together with the rest of the member when you save.';

type ListName = 'emergency_contacts' | 'healthcare_providers' | 'medications';

/** Reads one list of the form and returns a setter that marks the form dirty. */
function useFormList<N extends ListName>(name: N) {
  const { control, setValue, formState } = useFormContext<FamilyFormInput>();
  const items = (useWatch({ control, name }) ?? []) as NonNullable<PathValue<FamilyFormInput, N>>;
  const set = (next: PathValue<FamilyFormInput, Path<FamilyFormInput> & N>) =>
    setValue(name, next, { shouldDirty: true, shouldValidate: formState.isSubmitted });
  const errors = formState.errors[name];
  // An entry stored earlier may break a rule the server now checks; say which one.
  const itemError = (index: number): string | undefined => {
    const entry = Array.isArray(errors) ? (errors as unknown[])[index] : undefined;
    if (!entry || typeof entry !== 'object') return undefined;
    const first = Object.values(entry as Record<string, { message?: unknown } | undefined>).find((e) => typeof e?.message === 'string');
    return first?.message as string | undefined;
  };
  return { items, set, itemError };
}

function upsert<T>(items: readonly T[], index: number | null, value: T): T[] {
  return index === null ? [...items, value] : items.map((item, i) => (i === index ? value : item));
}

function errorStatus(itemError: (index: number) => string | undefined, count: number): string | null {
  for (let i = 0; i < count; i += 1) {
    const message = itemError(i);
    if (message) return `Entry ${i + 1}: ${message}`;
  }
  return null;
}

interface MemberRecordListProps<T extends { id?: unknown }, V> {
  heading: string;
  emptyText: string;
  list: { items: readonly T[]; set: (next: T[]) => void; itemError: (index: number) => string | undefined };
  describe: (item: T) => RecordSummary;
  form: ComponentType<RecordFormProps<T, V>>;
  /** The list entry a form's values make; `id` is the edited entry's, if any. */
  toItem: (values: V, id: unknown) => T;
}

/** One list tab of the family member editor; the three differ only in what is passed here. */
function MemberRecordList<T extends { id?: unknown }, V>({
  heading,
  emptyText,
  list: { items, set, itemError },
  describe,
  form: Form,
  toItem,
}: MemberRecordListProps<T, V>) {
  return (
    <RecordListEditor<T>
      heading={heading}
      emptyText={emptyText}
      note={NOTE}
      status={errorStatus(itemError, items.length)}
      items={items}
      getKey={(entry, i) => (typeof entry.id === 'string' ? entry.id : `new-${i}`)}
      describe={describe}
      renderForm={({ item, focusOnMount, onSaved, onCancel }) => (
        <Form
          variant="family"
          item={item}
          focusOnMount={focusOnMount}
          onCancel={onCancel}
          onSubmit={(values) => {
            const index = item ? items.indexOf(item) : -1;
            set(upsert(items, index >= 0 ? index : null, toItem(values, item?.id)));
            onSaved();
            return true;
          }}
        />
      )}
      onRemove={(_item, index) => {
        set(items.filter((_, i) => i !== index));
        return true;
      }}
    />
  );
}

export function MemberEmergencyContacts() {
  const list = useFormList('emergency_contacts');
  return (
    <MemberRecordList
      heading="Emergency Contacts"
      emptyText="No emergency contacts added"
      list={list}
      describe={describeContact}
      form={EmergencyContactForm}
      toItem={(values, id) => ({ ...values, id, phone_number: values.phone_number ?? '' })}
    />
  );
}

export function MemberHealthcareProviders() {
  const list = useFormList('healthcare_providers');
  return (
    <MemberRecordList
      heading="Healthcare Providers"
      emptyText="No healthcare providers added"
      list={list}
      describe={describeProvider}
      form={HealthcareProviderForm}
      toItem={(values, id) => ({ ...values, id, phone_number: values.phone_number ?? '' })}
    />
  );
}

export function MemberMedications() {
  const list = useFormList('medications');
  return (
    <MemberRecordList
      heading="Medications"
      emptyText="No medications added"
      list={list}
      describe={describeMedication}
      form={MedicationForm}
      toItem={(values, id) => ({ ...values, id, medication_name: values.medication_name ?? '', dosage: values.dosage ?? '' })}
    />
  );
}
