import { t } from '@lingui/core/macro';
import { z } from 'zod';
import type { UnitSystem } from '@kinchart/shared/i18n';
import { personTimeZoneSchema } from '@kinchart/shared/care';
import {
  cmToFeetInches,
  familyUpdateSchema,
  feetInchesToCm,
  FLAG_DETAIL_PAIRS,
  healthcareProviderInputSchema,
  kgToLbs,
  lbsToKg,
  MAX_FEET,
  MAX_HEIGHT_CM,
  MAX_INCHES,
  MAX_POUNDS,
  MAX_WEIGHT_KG,
  profileFieldsSchema,
  PROFILE_FIELD_NAMES,
  PROFILE_FLAG_FIELDS,
  PROFILE_FLAGS,
  type FamilyMember,
  type FamilyUpdateInput,
  type ProfileFields,
  type ProfileValues,
} from '@kinchart/shared/profile';

/*
 * The profile forms: the shared profile schema (STYLE habit 1) with height and weight swapped for
 * what the person types, in their units (issue 35, useUnits): feet + inches and pounds (SPEC §2
 * Full profile editor, §5 bounds), or centimetres and kilograms. Both sets are in the form, filled
 * from the stored cm and kg; the body takes the set of the person's units and converts it to cm and
 * kg only when it is built, with the shared helpers.
 */

/** A number input's text: empty means "not given"; otherwise a whole number from 0 to `max`. The message is read when shown (the reader's language). */
const wholeNumberText = (max: number, message: () => string) =>
  z
    .string()
    .trim()
    .refine((v) => v === '' || (/^\d+$/.test(v) && Number(v) <= max), { error: message })
    .transform((v) => (v === '' ? null : Number(v)));

/** As above, decimals allowed (weight, centimetres). */
const decimalText = (max: number, message: () => string) =>
  z
    .string()
    .trim()
    .refine((v) => v === '' || (/^\d+(\.\d+)?$/.test(v) && Number(v) <= max), { error: message })
    .transform((v) => (v === '' ? null : Number(v)));

// The bound is a placeholder, so every language writes its own sentence around it.
const measurementShape = {
  height_feet: wholeNumberText(MAX_FEET, () => {
    const max = MAX_FEET;
    return t`Feet must be a whole number from 0 to ${max}`;
  }),
  height_inches: wholeNumberText(MAX_INCHES, () => {
    const max = MAX_INCHES;
    return t`Inches must be a whole number from 0 to ${max}`;
  }),
  weight_lbs: decimalText(MAX_POUNDS, () => {
    const max = MAX_POUNDS;
    return t`Weight must be a number from 0 to ${max}`;
  }),
  height_cm: decimalText(MAX_HEIGHT_CM, () => {
    const max = MAX_HEIGHT_CM;
    return t`Height must be a number from 0 to ${max}`;
  }),
  weight_kg: decimalText(MAX_WEIGHT_KG, () => {
    const max = MAX_WEIGHT_KG;
    return t`Weight must be a number from 0 to ${max}`;
  }),
};
type MeasurementKey = keyof typeof measurementShape;

/** Issue 32: the time zone choice's '' is "Same as my account" (null). */
const timeZoneChoice = z
  .string()
  .transform((v) => (v === '' ? null : v))
  .pipe(personTimeZoneSchema);

/** The own profile editor's fields (everything but the lists, which its tabs save one by one). */
export const profileFormSchema = profileFieldsSchema
  .omit({ height: true, weight: true })
  .extend({ ...measurementShape, time_zone: timeZoneChoice });
export type ProfileFormInput = z.input<typeof profileFormSchema>;
export type ProfileFormOutput = z.output<typeof profileFormSchema>;

/** SPEC §5 Family edit lists: a provider needs name and phone (the family form calls the name `name`). */
export const familyHealthcareProviderFormSchema = healthcareProviderInputSchema.extend({
  phone_number: z
    .string({ error: () => t`Provider phone number is required` })
    .trim()
    .min(1, { error: () => t`Provider phone number is required` })
    .max(50, { error: () => t`Provider phone number must be at most 50 characters` }),
});

/**
 * The family member editor: the same fields plus the member's required name, date of birth and
 * relationship (chosen from the add form's list, the stored value kept: issue 30 #28) and is_pet. Its lists are saved entry by entry, as the own
 * profile's are, so they are not part of this form.
 */
export const familyFormSchema = profileFormSchema.extend({
  name: familyUpdateSchema.shape.name,
  date_of_birth: familyUpdateSchema.shape.date_of_birth,
  relationship: familyUpdateSchema.shape.relationship,
  is_pet: familyUpdateSchema.shape.is_pet,
});
export type FamilyFormInput = z.input<typeof familyFormSchema>;
export type FamilyFormOutput = z.output<typeof familyFormSchema>;

type TextKey = {
  [K in keyof ProfileValues]: ProfileValues[K] extends boolean ? never : K extends 'height' | 'weight' ? never : K;
}[keyof ProfileValues];
type FlagKey = { [K in keyof ProfileValues]: ProfileValues[K] extends boolean ? K : never }[keyof ProfileValues];

/** The text inputs: every profile field but the flags (checkboxes) and height and weight (typed in the person's units). */
const TEXT_KEYS = PROFILE_FIELD_NAMES.filter(
  (key): key is TextKey => !PROFILE_FLAG_FIELDS.has(key) && key !== 'height' && key !== 'weight',
);
const FLAG_KEYS: readonly FlagKey[] = PROFILE_FLAGS;

type Measured = Pick<ProfileValues, 'height' | 'weight'>;

/** Stored cm and kg as both sets of inputs: ft/in and lbs rounded as SPEC §5 says; cm and kg exactly as stored. */
function measurementTexts(stored: Measured | undefined): Record<MeasurementKey, string> {
  const height = cmToFeetInches(stored?.height ?? null);
  const lbs = kgToLbs(stored?.weight ?? null);
  const text = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value));
  return {
    height_feet: height ? String(height.feet) : '',
    height_inches: height ? String(height.inches) : '',
    weight_lbs: text(lbs),
    height_cm: text(stored?.height),
    weight_kg: text(stored?.weight),
  };
}

/** Form values for a stored profile: empty strings for missing text, height and weight in both unit systems. */
export function toProfileFormValues(profile: ProfileValues | undefined): ProfileFormInput {
  const values: Record<string, string | boolean> = {};
  for (const key of TEXT_KEYS) values[key] = profile?.[key] ?? '';
  for (const key of FLAG_KEYS) values[key] = profile?.[key] ?? false;
  return { ...(values as Omit<ProfileFormInput, MeasurementKey>), ...measurementTexts(profile) };
}

/**
 * Height in cm and weight in kg from the inputs of `units`. Metric is sent as typed; a stored value
 * shows as itself, so a save without a change keeps it. Feet, inches and pounds are converted
 * (SPEC §5 rounding), except that inputs left as the stored value showed them send that value back
 * unchanged, so opening and saving never drifts it.
 */
function measurements(values: ProfileFormOutput, units: UnitSystem, stored: Measured | undefined): Measured {
  if (units === 'metric') return { height: values.height_cm, weight: values.weight_kg };
  const shown = cmToFeetInches(stored?.height ?? null);
  const sameHeight = stored?.height != null && shown !== null && values.height_feet === shown.feet && values.height_inches === shown.inches;
  const sameWeight = stored?.weight != null && values.weight_lbs === kgToLbs(stored.weight);
  return {
    height: sameHeight ? stored.height : feetInchesToCm(values.height_feet, values.height_inches),
    weight: sameWeight ? stored.weight : lbsToKg(values.weight_lbs),
  };
}

/**
 * The body of PUT /api/user/updateProfile from validated form values: height in cm, weight in kg
 * (SPEC §5) from the inputs of the person's `units`, and a details text only while its flag is
 * checked — the text area is gone otherwise, so the text would be a hidden leftover. `stored`: the
 * height and weight the form was filled from.
 */
export function toProfilePayload(values: ProfileFormOutput, units: UnitSystem = 'imperial', stored?: Measured): ProfileFields {
  const { height_feet: _feet, height_inches: _inches, weight_lbs: _lbs, height_cm: _cm, weight_kg: _kg, ...fields } = values;
  const payload: ProfileFields = { ...fields, ...measurements(values, units, stored) };
  for (const [flagKey, detailsKey] of FLAG_DETAIL_PAIRS) {
    if (!payload[flagKey]) payload[detailsKey] = null;
  }
  return payload;
}

/** Form values for a stored family member (the lists are edited entry by entry, not here). */
export function toFamilyFormValues(member: FamilyMember): FamilyFormInput {
  return {
    ...toProfileFormValues(member),
    name: member.name ?? '',
    date_of_birth: member.date_of_birth ?? '',
    relationship: member.relationship ?? '',
    is_pet: member.is_pet,
  };
}

/**
 * The body of PUT /api/user/family/members/{id}: every field of the member. The lists are left
 * out, which keeps them as stored: each entry was saved when it was made, and a copy sent here
 * could only be older than what the server holds.
 */
export function toFamilyPayload(values: FamilyFormOutput, units: UnitSystem = 'imperial', stored?: Measured): FamilyUpdateInput {
  const { name, date_of_birth, relationship, is_pet, ...rest } = values;
  return {
    ...toProfilePayload({ ...rest, name, date_of_birth }, units, stored),
    name,
    date_of_birth,
    relationship,
    is_pet,
  };
}

export type ProfileTab = 'basic' | 'medical' | 'additional' | 'contacts' | 'providers' | 'medications';

const MEDICAL_KEYS = new Set<string>(FLAG_DETAIL_PAIRS.flat());
/** The Additional tab: language, religious restrictions, and the flags without a details text (directives, impairments). */
const ADDITIONAL_KEYS = new Set<string>([
  'primary_language',
  'religious_restrictions',
  ...PROFILE_FLAGS.filter((flag) => !MEDICAL_KEYS.has(flag)),
]);

/** Which tab holds a field, so a failed save can show the person where to look. */
export function tabOfField(field: string): ProfileTab {
  if (MEDICAL_KEYS.has(field)) return 'medical';
  if (ADDITIONAL_KEYS.has(field)) return 'additional';
  if (field.startsWith('emergency_contacts')) return 'contacts';
  if (field.startsWith('healthcare_providers')) return 'providers';
  if (field.startsWith('medications')) return 'medications';
  return 'basic';
}
