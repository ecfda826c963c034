import { Trans, useLingui } from '@lingui/react/macro';
import { useFormContext } from 'react-hook-form';
import type { z } from 'zod';
import type { petFieldsSchema } from '@kinchart/shared/profile';
import { Field } from '../../../components/ui/field';
import { fieldError } from '../lib/field-error';

type PetFieldsInput = z.input<typeof petFieldsSchema>;

/**
 * What only a pet has (issue 30 #25, docs/decisions/0037): species, breed, microchip number and
 * the vet to call. Shown in place of the human-only fields while "This is a pet" is checked.
 */
export function PetFields({ className = '' }: { className?: string }) {
  const { t } = useLingui();
  const {
    register,
    formState: { errors },
  } = useFormContext<PetFieldsInput>();
  return (
    <fieldset className={className}>
      <legend className="mb-1 text-sm font-medium text-slate-800">
        <Trans>Pet details</Trans>
      </legend>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label={t`Species`}
          autoComplete="off"
          hint={t`For example dog, cat or rabbit.`}
          error={fieldError(errors.species)}
          {...register('species')}
        />
        <Field label={t`Breed`} autoComplete="off" error={fieldError(errors.breed)} {...register('breed')} />
        <Field
          label={t`Microchip Number`}
          autoComplete="off"
          spellCheck={false}
          containerClassName="sm:col-span-2"
          error={fieldError(errors.microchip_number)}
          {...register('microchip_number')}
        />
        <Field
          label={t`Vet Name`}
          autoComplete="off"
          hint={t`The vet or clinic to call about this pet.`}
          error={fieldError(errors.vet_name)}
          {...register('vet_name')}
        />
        <Field
          label={t`Vet Phone`}
          type="tel"
          dir="ltr"
          autoComplete="off"
          error={fieldError(errors.vet_phone)}
          {...register('vet_phone')}
        />
      </div>
    </fieldset>
  );
}
