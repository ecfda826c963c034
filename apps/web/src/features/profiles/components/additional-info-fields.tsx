import { useLingui } from '@lingui/react/macro';
import { useFormContext, useWatch } from 'react-hook-form';
import { Field } from '../../../components/ui/field';
import type { ProfileFormInput } from '../lib/profile-form';
import { CheckboxField, TextareaField } from '../../../components/ui/form-controls';
import { fieldError } from '../lib/field-error';

/**
 * Language, religious restrictions, directives and impairments (SPEC §3) — what a first responder
 * may need. A pet has only the impairments (docs/decisions/0037).
 */
export function AdditionalInfoFields() {
  const { t } = useLingui();
  const {
    register,
    formState: { errors },
  } = useFormContext<ProfileFormInput>();
  const isPet = useWatch<{ is_pet?: boolean }>({ name: 'is_pet' }) === true;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {isPet ? null : (
        <>
          <Field label={t`Primary Language`} error={fieldError(errors.primary_language)} {...register('primary_language')} />
          <TextareaField
            label={t`Religious Restrictions`}
            containerClassName="sm:col-span-2"
            error={fieldError(errors.religious_restrictions)}
            {...register('religious_restrictions')}
          />
        </>
      )}
      <fieldset className="sm:col-span-2">
        <legend className="mb-1 text-sm font-medium text-slate-800">{isPet ? t`Impairments` : t`Directives and impairments`}</legend>
        <div className="grid gap-x-4 sm:grid-cols-2">
          {isPet ? null : (
            <>
              <CheckboxField label={t`Organ donor`} {...register('organ_donor')} />
              <CheckboxField label={t`Advance directives`} {...register('advance_directives')} />
              <CheckboxField label={t`Living will`} {...register('living_will')} />
            </>
          )}
          <CheckboxField label={t`Vision impairment`} {...register('has_vision_impairment')} />
          <CheckboxField label={t`Hearing impairment`} {...register('has_hearing_impairment')} />
        </div>
      </fieldset>
    </div>
  );
}
