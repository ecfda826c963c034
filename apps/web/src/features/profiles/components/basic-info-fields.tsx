import { Trans, useLingui } from '@lingui/react/macro';
import { useFormContext, useWatch } from 'react-hook-form';
import { todayIsoDate } from '@kinchart/shared/common';
import { BLOOD_TYPES, MAX_FEET, MAX_HEIGHT_CM, MAX_INCHES, MAX_POUNDS, MAX_WEIGHT_KG } from '@kinchart/shared/profile';
import { Field } from '../../../components/ui/field';
import { useUnits } from '../../../i18n/language-provider';
import { fieldError } from '../lib/field-error';
import type { FamilyFormInput, ProfileFormInput } from '../lib/profile-form';
import { CheckboxField, SelectField } from '../../../components/ui/form-controls';
import { relationshipOptions } from '../lib/relationships';
import { PersonTimeZoneField } from './person-time-zone-field';
import { PetFields } from './pet-fields';

/** Name, relationship and the pet box of a family member: SPEC §5, name, date of birth and relationship are required. */
function MemberIdentityFields() {
  const { t } = useLingui();
  const {
    register,
    formState: { errors, defaultValues },
  } = useFormContext<FamilyFormInput>();
  // Issue 30 #28: the add form's list, with the stored value kept as it is (lib/relationships.ts).
  const options = relationshipOptions(defaultValues?.relationship ?? '', t);
  return (
    <>
      <p className="text-sm text-slate-700 sm:col-span-2">
        <Trans>Name, date of birth and relationship are required.</Trans>
      </p>
      <Field label={t`Name`} autoComplete="off" aria-required="true" error={fieldError(errors.name)} {...register('name')} />
      <SelectField label={t`Relationship`} aria-required="true" error={fieldError(errors.relationship)} {...register('relationship')}>
        <option value="">{t`Select relationship`}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </SelectField>
      <Field
        label={t`Date of Birth`}
        type="date"
        max={todayIsoDate()}
        aria-required="true"
        error={fieldError(errors.date_of_birth)}
        {...register('date_of_birth')}
      />
      <CheckboxField label={t`This is a pet`} containerClassName="self-end" {...register('is_pet')} />
    </>
  );
}

function OwnIdentityFields() {
  const { t } = useLingui();
  const {
    register,
    formState: { errors },
  } = useFormContext<ProfileFormInput>();
  return (
    <>
      <Field label={t`Name`} autoComplete="name" error={fieldError(errors.name)} {...register('name')} />
      <Field
        label={t`Date of Birth`}
        type="date"
        max={todayIsoDate()}
        autoComplete="bday"
        error={fieldError(errors.date_of_birth)}
        {...register('date_of_birth')}
      />
    </>
  );
}

type MeasureName = 'weight_lbs' | 'height_feet' | 'height_inches' | 'weight_kg' | 'height_cm';

/** A body measurement: a number from 0 to `max`, whole when `whole` (feet, inches), else any decimal. */
function MeasureField({ name, label, max, whole = false }: { name: MeasureName; label: string; max: number; whole?: boolean }) {
  const {
    register,
    formState: { errors },
  } = useFormContext<ProfileFormInput>();
  return (
    <Field
      label={label}
      type="number"
      inputMode={whole ? 'numeric' : 'decimal'}
      min={0}
      max={max}
      step={whole ? 1 : 'any'}
      error={fieldError(errors[name])}
      {...register(name)}
    />
  );
}

/** Height in feet + inches and weight in lbs (SPEC §5 bounds: 0–8 ft, 0–11 in, 0–1000 lbs). */
function ImperialMeasurements() {
  const { t } = useLingui();
  return (
    <>
      <MeasureField name="weight_lbs" label={t`Weight (lbs)`} max={MAX_POUNDS} />
      <fieldset className="sm:col-span-2">
        <legend className="mb-1 text-sm font-medium text-slate-800">
          <Trans>Height</Trans>
        </legend>
        <div className="grid grid-cols-2 gap-4">
          <MeasureField name="height_feet" label={t`Feet`} max={MAX_FEET} whole />
          <MeasureField name="height_inches" label={t`Inches`} max={MAX_INCHES} whole />
        </div>
      </fieldset>
    </>
  );
}

/** Issue 35: height in cm and weight in kg, stored as typed (bounds: the SPEC §5 ones converted). */
function MetricMeasurements() {
  const { t } = useLingui();
  return (
    <>
      <MeasureField name="weight_kg" label={t`Weight (kg)`} max={MAX_WEIGHT_KG} />
      <MeasureField name="height_cm" label={t`Height (cm)`} max={MAX_HEIGHT_CM} />
    </>
  );
}

/**
 * SPEC §2 'Basic Information' tab of both editors: who the person is, how to reach them, blood type,
 * height and weight in the person's units (useUnits: ft/in and lbs, or cm and kg). A pet has its
 * species, breed, microchip and vet instead of a blood type (docs/decisions/0037).
 */
export function BasicInfoFields({ variant }: { variant: 'profile' | 'member' }) {
  const { t } = useLingui();
  const units = useUnits();
  const {
    register,
    formState: { errors },
  } = useFormContext<ProfileFormInput>();
  const own = variant === 'profile';
  // Only a member's form has is_pet; the own profile's is a person's.
  const isPet = useWatch<{ is_pet?: boolean }>({ name: 'is_pet' }) === true;
  const bloodType = useWatch<{ blood_type?: string | null }>({ name: 'blood_type' });
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {own ? <OwnIdentityFields /> : <MemberIdentityFields />}
      {isPet ? <PetFields className="sm:col-span-2" /> : null}
      <Field
        label={t`Phone Number`}
        type="tel"
        dir="ltr"
        autoComplete={own ? 'tel' : 'off'}
        error={fieldError(errors.phone_number)}
        {...register('phone_number')}
      />
      <Field
        label={t`Email`}
        type="email"
        dir="ltr"
        autoComplete={own ? 'email' : 'off'}
        error={fieldError(errors.email)}
        {...register('email')}
      />
      <Field
        label={t`Address`}
        autoComplete={own ? 'street-address' : 'off'}
        containerClassName="sm:col-span-2"
        error={fieldError(errors.address)}
        {...register('address')}
      />
      {isPet ? null : (
        <SelectField
          label={t`Blood Type`}
          // A chosen type is Latin text: left to right even in Arabic, so O+ does not show as +O.
          dir={bloodType ? 'ltr' : undefined}
          error={fieldError(errors.blood_type)}
          {...register('blood_type')}
        >
          <option value="">{t`Select blood type`}</option>
          {BLOOD_TYPES.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </SelectField>
      )}
      {units === 'metric' ? <MetricMeasurements /> : <ImperialMeasurements />}
      <PersonTimeZoneField className="sm:col-span-2" />
    </div>
  );
}
