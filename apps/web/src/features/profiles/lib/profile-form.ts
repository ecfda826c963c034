import { z } from 'zod';
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
  MAX_INCHES,
  MAX_POUNDS,
  profileFieldsSchema,
  PROFILE_FIELD_NAMES,
  PROFILE_FLAG_FIELDS,
  PROFILE_FLAGS,
  requiredText,
  type FamilyMember,
  type FamilyUpdateInput,
  type ProfileFields,
  type ProfileValues,
} from '@kinchart/shared/profile';

/*
 * The profile forms: the shared profile schema (STYLE habit 1) with height and weight swapped for
 * what the person types — feet + inches and pounds (SPEC §2 Full profile editor, §5 bounds). The
 * values are converted to cm and kg only when the body is built, with the shared helpers.
 */

/** A number input's text: empty means "not given"; otherwise a whole number from 0 to `max`. */
const wholeNumberText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .refine((v) => v === '' || (/^\d+$/.test(v) && Number(v) <= max), `${label} must be a whole number from 0 to ${max}`)
    .transform((v) => (v === '' ? null : Number(v)));

/** As above, decimals allowed (weight). */
const decimalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .refine((v) => v === '' || (/^\d+(\.\d+)?$/.test(v) && Number(v) <= max), `${label} must be a number from 0 to ${max}`)
    .transform((v) => (v === '' ? null : Number(v)));

const measurementShape = {
  height_feet: wholeNumberText('Feet', MAX_FEET),
  height_inches: wholeNumberText('Inches', MAX_INCHES),
  weight_lbs: decimalText('Weight', MAX_POUNDS),
};

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
  phone_number: requiredText('Provider phone number', 50),
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

/** The text inputs: every profile field but the flags (checkboxes) and height and weight (typed in ft/in and lbs). */
const TEXT_KEYS = PROFILE_FIELD_NAMES.filter(
  (key): key is TextKey => !PROFILE_FLAG_FIELDS.has(key) && key !== 'height' && key !== 'weight',
);
const FLAG_KEYS: readonly FlagKey[] = PROFILE_FLAGS;

/** Form values for a stored profile: empty strings for missing text, height and weight in ft/in and lbs. */
export function toProfileFormValues(profile: ProfileValues | undefined): ProfileFormInput {
  const values: Record<string, string | boolean> = {};
  for (const key of TEXT_KEYS) values[key] = profile?.[key] ?? '';
  for (const key of FLAG_KEYS) values[key] = profile?.[key] ?? false;
  const height = cmToFeetInches(profile?.height ?? null);
  const lbs = kgToLbs(profile?.weight ?? null);
  return {
    ...(values as Omit<ProfileFormInput, 'height_feet' | 'height_inches' | 'weight_lbs'>),
    height_feet: height ? String(height.feet) : '',
    height_inches: height ? String(height.inches) : '',
    weight_lbs: lbs === null ? '' : String(lbs),
  };
}

/**
 * The body of PUT /api/user/updateProfile from validated form values: height in cm, weight in kg
 * (SPEC §5), and a details text only while its flag is checked — the text area is gone otherwise,
 * so the text would be a hidden leftover.
 */
export function toProfilePayload(values: ProfileFormOutput): ProfileFields {
  const { height_feet, height_inches, weight_lbs, ...fields } = values;
  const payload: ProfileFields = {
    ...fields,
    height: feetInchesToCm(height_feet, height_inches),
    weight: lbsToKg(weight_lbs),
  };
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
export function toFamilyPayload(values: FamilyFormOutput): FamilyUpdateInput {
  const { name, date_of_birth, relationship, is_pet, ...rest } = values;
  return {
    ...toProfilePayload({ ...rest, name, date_of_birth }),
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
