import { useEffect } from 'react';
import { t } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { emergencyContactInputSchema, type EmergencyContact } from '@kinchart/shared/profile';
import { Field } from '../../../components/ui/field';
import { RecordFormFrame, type RecordFormProps } from './record-form-frame';
import type { RecordSummary } from './record-list-editor';
import { CheckboxField } from '../../../components/ui/form-controls';
import { fieldError } from '../lib/field-error';

type ContactFormInput = z.input<typeof emergencyContactInputSchema>;
export type ContactValues = z.output<typeof emergencyContactInputSchema>;

// SPEC §5: a contact is added only when name and phone are both present — in the family editor
// and, for the same reason (a responder must be able to call), in the own profile's.
const resolver = zodResolver(emergencyContactInputSchema);

export function describeContact(contact: EmergencyContact): RecordSummary {
  const badges: string[] = [];
  if (contact.is_primary) badges.push(t({ message: 'Primary', comment: 'Badge on the primary emergency contact' }));
  if (contact.has_medical_power) badges.push(t`Medical power of attorney`);
  return {
    title: contact.name,
    badges,
    details: [
      [t`Relationship`, contact.relationship],
      [t`Phone`, contact.phone_number],
      [t`Email`, contact.email],
    ],
  };
}

export type EmergencyContactFormProps = RecordFormProps<EmergencyContact, ContactValues>;

/** Add or edit one emergency contact (SPEC §3 fields). */
export function EmergencyContactForm({ item, focusOnMount, onSubmit, onCancel }: EmergencyContactFormProps) {
  const { t } = useLingui();
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
      heading={item ? t`Edit Emergency Contact` : t`Add Emergency Contact`}
      submitLabel={item ? t`Save Contact` : t`Add Contact`}
      isSubmitting={isSubmitting}
      onSubmit={submit}
      onCancel={onCancel}
    >
      <Field label={t`Contact Name`} autoComplete="off" aria-required="true" error={fieldError(errors.name)} {...register('name')} />
      <Field label={t`Contact Relationship`} autoComplete="off" error={fieldError(errors.relationship)} {...register('relationship')} />
      <Field
        label={t`Contact Phone Number`}
        type="tel"
        dir="ltr"
        autoComplete="off"
        aria-required="true"
        error={fieldError(errors.phone_number)}
        {...register('phone_number')}
      />
      <Field label={t`Contact Email`} type="email" dir="ltr" autoComplete="off" error={fieldError(errors.email)} {...register('email')} />
      <CheckboxField label={t`Primary contact`} {...register('is_primary')} />
      <CheckboxField label={t`Has medical power of attorney`} {...register('has_medical_power')} />
    </RecordFormFrame>
  );
}
