import { useEffect } from 'react';
import { t } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { familyMedicationInputSchema, medicationInputSchema, type Medication } from '@kinchart/shared/profile';
import { Field } from '../../../components/ui/field';
import { formatDate } from '../../../lib/format';
import { RecordFormFrame, type RecordFormProps } from './record-form-frame';
import type { RecordSummary } from './record-list-editor';
import { CheckboxField } from '../../../components/ui/form-controls';
import { fieldError } from '../lib/field-error';

type MedicationFormInput = z.input<typeof medicationInputSchema>;
export type MedicationValues = z.output<typeof medicationInputSchema>;

// SPEC §5: the profile's medication form has no required fields; the family one needs name and dosage.
const resolvers = {
  profile: zodResolver(medicationInputSchema),
  family: zodResolver(familyMedicationInputSchema) as unknown as Resolver<MedicationFormInput, unknown, MedicationValues>,
};

export function describeMedication(medication: Medication): RecordSummary {
  return {
    title: medication.medication_name || t`Unnamed medication`,
    badges: [medication.is_current ? t`Currently taking` : t({ message: 'Past', comment: 'Badge on a medication no longer taken' })],
    details: [
      [t`Dosage`, medication.dosage],
      [t`Frequency`, medication.frequency],
      [t`Purpose`, medication.purpose],
      [t`Started`, formatDate(medication.start_date)],
      [t`Ended`, formatDate(medication.end_date)],
    ],
  };
}

export type MedicationFormProps = RecordFormProps<Medication, MedicationValues>;

/** Add or edit one medication, with the 'Currently Taking' checkbox (SPEC §2). */
export function MedicationForm({ variant, item, focusOnMount, onSubmit, onCancel }: MedicationFormProps) {
  const { t } = useLingui();
  const {
    register,
    handleSubmit,
    setFocus,
    control,
    formState: { errors, isSubmitting },
  } = useForm<MedicationFormInput, unknown, MedicationValues>({
    resolver: resolvers[variant],
    defaultValues: {
      medication_name: item?.medication_name ?? '',
      dosage: item?.dosage ?? '',
      frequency: item?.frequency ?? '',
      purpose: item?.purpose ?? '',
      start_date: item?.start_date ?? '',
      end_date: item?.end_date ?? '',
      // is_current defaults to true for a new medication (SPEC §3).
      is_current: item?.is_current ?? true,
    },
  });
  const current = useWatch({ control, name: 'is_current' }) !== false;

  useEffect(() => {
    if (focusOnMount) setFocus('medication_name');
  }, [focusOnMount, setFocus]);

  const submit = handleSubmit(async (values) => {
    // A medication still being taken has no end date.
    await onSubmit(values.is_current ? { ...values, end_date: null } : values);
  });

  const required = variant === 'family';
  return (
    <RecordFormFrame
      heading={item ? t`Edit Medication` : t`Add Medication`}
      submitLabel={item ? t`Save Medication` : t`Add Medication`}
      isSubmitting={isSubmitting}
      onSubmit={submit}
      onCancel={onCancel}
    >
      <Field
        label={t`Medication Name`}
        autoComplete="off"
        aria-required={required ? 'true' : undefined}
        error={fieldError(errors.medication_name)}
        {...register('medication_name')}
      />
      <Field
        label={t`Dosage`}
        autoComplete="off"
        aria-required={required ? 'true' : undefined}
        error={fieldError(errors.dosage)}
        {...register('dosage')}
      />
      <Field label={t`Frequency`} autoComplete="off" error={fieldError(errors.frequency)} {...register('frequency')} />
      <Field label={t`Purpose`} autoComplete="off" error={fieldError(errors.purpose)} {...register('purpose')} />
      <Field label={t`Start Date`} type="date" error={fieldError(errors.start_date)} {...register('start_date')} />
      {current ? null : <Field label={t`End Date`} type="date" error={fieldError(errors.end_date)} {...register('end_date')} />}
      <CheckboxField label={t`Currently Taking`} containerClassName="sm:col-span-2" {...register('is_current')} />
    </RecordFormFrame>
  );
}
