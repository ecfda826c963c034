import { useFormContext, useWatch } from 'react-hook-form';
import { todayIsoDate } from '@kinchart/shared/common';
import { BLOOD_TYPES, MAX_FEET, MAX_INCHES, MAX_POUNDS } from '@kinchart/shared/profile';
import { Field } from '../../../components/ui/field';
import type { FamilyFormInput, ProfileFormInput } from '../lib/profile-form';
import { CheckboxField, SelectField } from '../../../components/ui/form-controls';
import { relationshipOptions } from '../lib/relationships';
import { PersonTimeZoneField } from './person-time-zone-field';
import { PetFields } from './pet-fields';

/** Name, relationship and the pet box of a family member: SPEC §5, name, date of birth and relationship are required. */
function MemberIdentityFields() {
  const {
    register,
    formState: { errors, defaultValues },
  } = useFormContext<FamilyFormInput>();
  // Issue 30 #28: the add form's list, with the stored value kept as it is (lib/relationships.ts).
  const options = relationshipOptions(defaultValues?.relationship ?? '');
  return (
    <>
      <p className="text-sm text-slate-700 sm:col-span-2">Name, date of birth and relationship are required.</p>
      <Field label="Name" autoComplete="off" aria-required="true" error={errors.name?.message} {...register('name')} />
      <SelectField label="Relationship" aria-required="true" error={errors.relationship?.message} {...register('relationship')}>
        <option value="">Select relationship</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </SelectField>
      <Field
        label="Date of Birth"
        type="date"
        max={todayIsoDate()}
        aria-required="true"
        error={errors.date_of_birth?.message}
        {...register('date_of_birth')}
      />
      <CheckboxField label="This is a pet" containerClassName="self-end" {...register('is_pet')} />
    </>
  );
}

function OwnIdentityFields() {
  const {
    register,
    formState: { errors },
  } = useFormContext<ProfileFormInput>();
  return (
    <>
      <Field label="Name" autoComplete="name" error={errors.name?.message} {...register('name')} />
      <Field
        label="Date of Birth"
        type="date"
        max={todayIsoDate()}
        autoComplete="bday"
        error={errors.date_of_birth?.message}
        {...register('date_of_birth')}
      />
    </>
  );
}

/**
 * SPEC §2 'Basic Information' tab of both editors: who the person is, how to reach them, blood type,
 * and height in feet + inches and weight in lbs (SPEC §5 bounds: 0–8 ft, 0–11 in, 0–1000 lbs). A
 * pet has its species, breed, microchip and vet instead of a blood type (docs/decisions/0037).
 */
export function BasicInfoFields({ variant }: { variant: 'profile' | 'member' }) {
  const {
    register,
    formState: { errors },
  } = useFormContext<ProfileFormInput>();
  const own = variant === 'profile';
  // Only a member's form has is_pet; the own profile's is a person's.
  const isPet = useWatch<{ is_pet?: boolean }>({ name: 'is_pet' }) === true;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {own ? <OwnIdentityFields /> : <MemberIdentityFields />}
      {isPet ? <PetFields className="sm:col-span-2" /> : null}
      <Field
        label="Phone Number"
        type="tel"
        autoComplete={own ? 'tel' : 'off'}
        error={errors.phone_number?.message}
        {...register('phone_number')}
      />
      <Field label="Email" type="email" autoComplete={own ? 'email' : 'off'} error={errors.email?.message} {...register('email')} />
      <Field
        label="Address"
        autoComplete={own ? 'street-address' : 'off'}
        containerClassName="sm:col-span-2"
        error={errors.address?.message}
        {...register('address')}
      />
      {isPet ? null : (
        <SelectField label="Blood Type" error={errors.blood_type?.message} {...register('blood_type')}>
          <option value="">Select blood type</option>
          {BLOOD_TYPES.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </SelectField>
      )}
      <Field
        label="Weight (lbs)"
        type="number"
        inputMode="decimal"
        min={0}
        max={MAX_POUNDS}
        step="any"
        error={errors.weight_lbs?.message}
        {...register('weight_lbs')}
      />
      <fieldset className="sm:col-span-2">
        <legend className="mb-1 text-sm font-medium text-slate-800">Height</legend>
        <div className="grid grid-cols-2 gap-4">
          <Field
            label="Feet"
            type="number"
            inputMode="numeric"
            min={0}
            max={MAX_FEET}
            step={1}
            error={errors.height_feet?.message}
            {...register('height_feet')}
          />
          <Field
            label="Inches"
            type="number"
            inputMode="numeric"
            min={0}
            max={MAX_INCHES}
            step={1}
            error={errors.height_inches?.message}
            {...register('height_inches')}
          />
        </div>
      </fieldset>
      <PersonTimeZoneField className="sm:col-span-2" />
    </div>
  );
}
