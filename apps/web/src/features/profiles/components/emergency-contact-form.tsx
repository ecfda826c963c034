import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { emergencyContactInputSchema, type EmergencyContact } from '@kinchart/shared/profile';
import { Field } from '../../../components/ui/field';
import { RecordFormFrame, type RecordFormProps } from './record-form-frame';
import type { RecordSummary } from './record-list-editor';
import { CheckboxField } from '../../../components/ui/form-controls';

type ContactFormInput = z.input<typeof emergencyContactInputSchema>;
export type ContactValues = z.output<typeof emergencyContactInputSchema>;

// SPEC §5: a contact is added only when name and phone are both present — in the family editor
// and, for the same reason (a responder must be able to call), in the own profile's.
const resolver = zodResolver(emergencyContactInputSchema);

export function describeContact(contact: EmergencyContact): RecordSummary {
  const badges: string[] = [];
  if (contact.is_primary) badges.push('Primary');
  if (contact.has_medical_power) badges.push('Medical power of attorney');
  return {
    title: contact.name,
    badges,
    details: [
      ['Relationship', contact.relationship],
      ['Phone', contact.phone_number],
      ['Email', contact.email],
    ],
  };
}

export type EmergencyContactFormProps = RecordFormProps<EmergencyContact, ContactValues>;

/** Add or edit one emergency contact (SPEC §3 fields). */
export function EmergencyContactForm({ item, focusOnMount, onSubmit, onCancel }: EmergencyContactFormProps) {
  const {
    register,
    handleSubmit,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<ContactFormInput, unknown, ContactValues>({
    resolver,
    defaultValues: {
      name: item?.name ?? '',
      relationship: item?.relationship ?? '',
      phone_number: item?.phone_number ?? '',
      email: item?.email ?? '',
      is_primary: item?.is_primary ?? false,
      has_medical_power: item?.has_medical_power ?? false,
    },
  });

  useEffect(() => {
    if (focusOnMount) setFocus('name');
  }, [focusOnMount, setFocus]);

  const submit = handleSubmit(async (values) => {
    await onSubmit(values);
  });

  return (
    <RecordFormFrame
      heading={item ? 'Edit Emergency Contact' : 'Add Emergency Contact'}
      submitLabel={item ? 'Save Contact' : 'Add Contact'}
      isSubmitting={isSubmitting}
      onSubmit={submit}
      onCancel={onCancel}
    >
      <Field label="Contact Name" autoComplete="off" aria-required="true" error={errors.name?.message} {...register('name')} />
      <Field label="Contact Relationship" autoComplete="off" error={errors.relationship?.message} {...register('relationship')} />
      <Field
        label="Contact Phone Number"
        type="tel"
        autoComplete="off"
        aria-required="true"
        error={errors.phone_number?.message}
        {...register('phone_number')}
      />
      <Field label="Contact Email" type="email" autoComplete="off" error={errors.email?.message} {...register('email')} />
      <CheckboxField label="Primary contact" {...register('is_primary')} />
      <CheckboxField label="Has medical power of attorney" {...register('has_medical_power')} />
    </RecordFormFrame>
  );
}
