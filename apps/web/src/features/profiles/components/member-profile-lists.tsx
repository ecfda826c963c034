import { useFormContext, useWatch, type Path, type PathValue } from 'react-hook-form';
import type { FamilyFormInput } from '../lib/profile-form';
import { describeContact, EmergencyContactForm, type ContactItem } from './emergency-contact-form';
import { describeProvider, HealthcareProviderForm, type ProviderItem } from './healthcare-provider-form';
import { describeMedication, MedicationForm, type MedicationItem } from './medication-form';
import { RecordListEditor } from './record-list-editor';

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

export function MemberEmergencyContacts() {
  const { items, set, itemError } = useFormList('emergency_contacts');
  return (
    <RecordListEditor<ContactItem>
      heading="Emergency Contacts"
      emptyText="No emergency contacts added"
      note={NOTE}
      status={errorStatus(itemError, items.length)}
      items={items}
      getKey={(c, i) => (typeof c.id === 'string' ? c.id : `new-${i}`)}
      describe={describeContact}
      renderForm={({ item, focusOnMount, onSaved, onCancel }) => (
        <EmergencyContactForm
          variant="family"
          item={item}
          focusOnMount={focusOnMount}
          onCancel={onCancel}
          onSubmit={(values) => {
            const index = item ? items.indexOf(item as (typeof items)[number]) : -1;
            set(upsert(items, index >= 0 ? index : null, { ...values, id: item?.id, phone_number: values.phone_number ?? '' }));
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

export function MemberHealthcareProviders() {
  const { items, set, itemError } = useFormList('healthcare_providers');
  return (
    <RecordListEditor<ProviderItem>
      heading="Healthcare Providers"
      emptyText="No healthcare providers added"
      note={NOTE}
      status={errorStatus(itemError, items.length)}
      items={items}
      getKey={(p, i) => (typeof p.id === 'string' ? p.id : `new-${i}`)}
      describe={describeProvider}
      renderForm={({ item, focusOnMount, onSaved, onCancel }) => (
        <HealthcareProviderForm
          variant="family"
          item={item}
          focusOnMount={focusOnMount}
          onCancel={onCancel}
          onSubmit={(values) => {
            const index = item ? items.indexOf(item as (typeof items)[number]) : -1;
            set(upsert(items, index >= 0 ? index : null, { ...values, id: item?.id, phone_number: values.phone_number ?? '' }));
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

export function MemberMedications() {
  const { items, set, itemError } = useFormList('medications');
  return (
    <RecordListEditor<MedicationItem>
      heading="Medications"
      emptyText="No medications added"
      note={NOTE}
      status={errorStatus(itemError, items.length)}
      items={items}
      getKey={(m, i) => (typeof m.id === 'string' ? m.id : `new-${i}`)}
      describe={describeMedication}
      renderForm={({ item, focusOnMount, onSaved, onCancel }) => (
        <MedicationForm
          variant="family"
          item={item}
          focusOnMount={focusOnMount}
          onCancel={onCancel}
          onSubmit={(values) => {
            const index = item ? items.indexOf(item as (typeof items)[number]) : -1;
            set(
              upsert(items, index >= 0 ? index : null, {
                ...values,
                id: item?.id,
                medication_name: values.medication_name ?? '',
                dosage: values.dosage ?? '',
              }),
            );
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
