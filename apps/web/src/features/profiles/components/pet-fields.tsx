import { useFormContext } from 'react-hook-form';
import type { z } from 'zod';
import type { petFieldsSchema } from '@kinchart/shared/profile';
import { Field } from '../../../components/ui/field';

type PetFieldsInput = z.input<typeof petFieldsSchema>;

/**
 * What only a pet has (issue 30 #25, docs/decisions/0037): species, breed, microchip number and
 * the vet to call. Shown in place of the human-only fields while "This is a pet" is checked.
 */
export function PetFields({ className = '' }: { className?: string }) {
  const {
    register,
    formState: { errors },
  } = useFormContext<PetFieldsInput>();
  return (
    <fieldset className={className}>
      <legend className="mb-1 text-sm font-medium text-slate-800">Pet details</legend>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Species"
          autoComplete="off"
          hint="For example dog, cat or rabbit."
          error={errors.species?.message}
          {...register('species')}
        />
        <Field label="Breed" autoComplete="off" error={errors.breed?.message} {...register('breed')} />
        <Field
          label="Microchip Number"
          autoComplete="off"
          spellCheck={false}
          containerClassName="sm:col-span-2"
          error={errors.microchip_number?.message}
          {...register('microchip_number')}
        />
        <Field
          label="Vet Name"
          autoComplete="off"
          hint="The vet or clinic to call about this pet."
          error={errors.vet_name?.message}
          {...register('vet_name')}
        />
        <Field label="Vet Phone" type="tel" autoComplete="off" error={errors.vet_phone?.message} {...register('vet_phone')} />
      </div>
    </fieldset>
  );
}
