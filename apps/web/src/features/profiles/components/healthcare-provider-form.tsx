import { useEffect } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { healthcareProviderInputSchema, type HealthcareProvider } from '@kinchart/shared/profile';
import { Field } from '../../../components/ui/field';
import { familyHealthcareProviderFormSchema } from '../lib/profile-form';
import { RecordFormFrame, type RecordFormProps } from './record-form-frame';
import type { RecordSummary } from './record-list-editor';
import { CheckboxField, TextareaField } from '../../../components/ui/form-controls';

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
    badges: provider.is_primary ? ['Primary care provider'] : [],
    details: [
      ['Specialty', provider.specialty],
      ['Facility', provider.facility],
      ['Phone', provider.phone_number],
      ['Email', provider.email],
      ['Address', provider.address],
      ['Notes', provider.notes],
    ],
  };
}

export type HealthcareProviderFormProps = RecordFormProps<HealthcareProvider, ProviderValues>;

/** Add or edit one healthcare provider (SPEC §3 fields). */
export function HealthcareProviderForm({ variant, item, focusOnMount, onSubmit, onCancel }: HealthcareProviderFormProps) {
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
      heading={item ? 'Edit Healthcare Provider' : 'Add Healthcare Provider'}
      submitLabel={item ? 'Save Provider' : 'Add Provider'}
      isSubmitting={isSubmitting}
      onSubmit={submit}
      onCancel={onCancel}
    >
      <Field
        label="Provider Name"
        autoComplete="off"
        aria-required="true"
        error={errors.provider_name?.message}
        {...register('provider_name')}
      />
      <Field label="Specialty" autoComplete="off" error={errors.specialty?.message} {...register('specialty')} />
      <Field label="Facility" autoComplete="off" error={errors.facility?.message} {...register('facility')} />
      <Field
        label="Provider Phone Number"
        type="tel"
        autoComplete="off"
        aria-required={variant === 'family' ? 'true' : undefined}
        error={errors.phone_number?.message}
        {...register('phone_number')}
      />
      <Field label="Provider Email" type="email" autoComplete="off" error={errors.email?.message} {...register('email')} />
      <Field label="Provider Address" autoComplete="off" error={errors.address?.message} {...register('address')} />
      <TextareaField label="Notes" containerClassName="sm:col-span-2" error={errors.notes?.message} {...register('notes')} />
      <CheckboxField label="Primary care provider" {...register('is_primary')} />
    </RecordFormFrame>
  );
}
