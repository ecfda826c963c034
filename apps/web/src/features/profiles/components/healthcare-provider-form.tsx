import { useEffect } from 'react';
import { t } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useForm, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { healthcareProviderInputSchema, type HealthcareProvider } from '@kinchart/shared/profile';
import { Field } from '../../../components/ui/field';
import { familyHealthcareProviderFormSchema } from '../lib/profile-form';
import { RecordFormFrame, type RecordFormProps } from './record-form-frame';
import type { RecordSummary } from './record-list-editor';
import { CheckboxField, TextareaField } from '../../../components/ui/form-controls';
import { fieldError } from '../lib/field-error';

type ProviderFormInput = z.input<typeof healthcareProviderInputSchema>;
export type ProviderValues = z.output<typeof healthcareProviderInputSchema>;

// SPEC §5: in the family editor a provider needs name and phone.
const resolvers = {
  profile: zodResolver(healthcareProviderInputSchema),
  family: zodResolver(familyHealthcareProviderFormSchema) as unknown as Resolver<ProviderFormInput, unknown, ProviderValues>,
};

export function describeProvider(provider: HealthcareProvider): RecordSummary {
  return {
    title: provider.provider_name,
    badges: provider.is_primary ? [t`Primary care provider`] : [],
    details: [
      [t`Specialty`, provider.specialty],
      [t`Facility`, provider.facility],
      [t`Phone`, provider.phone_number],
      [t`Email`, provider.email],
      [t`Address`, provider.address],
      [t`Notes`, provider.notes],
    ],
  };
}

export type HealthcareProviderFormProps = RecordFormProps<HealthcareProvider, ProviderValues>;

/** Add or edit one healthcare provider (SPEC §3 fields). */
export function HealthcareProviderForm({ variant, item, focusOnMount, onSubmit, onCancel }: HealthcareProviderFormProps) {
  const { t } = useLingui();
  const {
    register,
    handleSubmit,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<ProviderFormInput, unknown, ProviderValues>({
    resolver: resolvers[variant],
    defaultValues: {
      provider_name: item?.provider_name ?? '',
      specialty: item?.specialty ?? '',
      facility: item?.facility ?? '',
      phone_number: item?.phone_number ?? '',
      email: item?.email ?? '',
      address: item?.address ?? '',
      is_primary: item?.is_primary ?? false,
      notes: item?.notes ?? '',
    },
  });

  useEffect(() => {
    if (focusOnMount) setFocus('provider_name');
  }, [focusOnMount, setFocus]);

  const submit = handleSubmit(async (values) => {
    await onSubmit(values);
  });

  return (
    <RecordFormFrame
      heading={item ? t`Edit Healthcare Provider` : t`Add Healthcare Provider`}
      submitLabel={item ? t`Save Provider` : t`Add Provider`}
      isSubmitting={isSubmitting}
      onSubmit={submit}
      onCancel={onCancel}
    >
      <Field
        label={t`Provider Name`}
        autoComplete="off"
        aria-required="true"
        error={fieldError(errors.provider_name)}
        {...register('provider_name')}
      />
      <Field label={t`Specialty`} autoComplete="off" error={fieldError(errors.specialty)} {...register('specialty')} />
      <Field label={t`Facility`} autoComplete="off" error={fieldError(errors.facility)} {...register('facility')} />
      <Field
        label={t`Provider Phone Number`}
        type="tel"
        dir="ltr"
        autoComplete="off"
        aria-required={variant === 'family' ? 'true' : undefined}
        error={fieldError(errors.phone_number)}
        {...register('phone_number')}
      />
      <Field label={t`Provider Email`} type="email" dir="ltr" autoComplete="off" error={fieldError(errors.email)} {...register('email')} />
      <Field label={t`Provider Address`} autoComplete="off" error={fieldError(errors.address)} {...register('address')} />
      <TextareaField label={t`Notes`} containerClassName="sm:col-span-2" error={fieldError(errors.notes)} {...register('notes')} />
      <CheckboxField label={t`Primary care provider`} {...register('is_primary')} />
    </RecordFormFrame>
  );
}
