import { z } from 'zod';
import { todayIsoDate } from './common';
import { stripInvisible } from './text';
import { personTimeZoneSchema } from './care';

// SPEC §3 Patient profile, Family member, Emergency contact, Healthcare provider, Medication.
// One schema per payload; both the forms and the server use these (STYLE habit 1).

export const BLOOD_TYPES = ['A+', 'A-', 'B+', 'B-', 'AB+', 'AB-', 'O+', 'O-'] as const;
export type BloodType = (typeof BLOOD_TYPES)[number];

/** SPEC §3: the add form's relationship values; the edit form takes free text. */
export const RELATIONSHIPS = ['spouse', 'child', 'parent', 'sibling', 'other'] as const;

// SPEC §5 Height and weight bounds: 8 ft 11 in and 1000 lbs, stored as cm and kg.
export const CM_PER_INCH = 2.54;
export const INCHES_PER_FOOT = 12;
export const LB_PER_KG = 2.20462;
export const MAX_FEET = 8;
export const MAX_INCHES = 11;
export const MAX_POUNDS = 1000;
// Rounded to 0.01 cm like feetInchesToCm, so the bound reads '271.78' in messages, not 271.78000000000003.
export const MAX_HEIGHT_CM = Math.round((MAX_FEET * INCHES_PER_FOOT + MAX_INCHES) * CM_PER_INCH * 100) / 100; // 271.78
export const MAX_WEIGHT_KG = Math.ceil((MAX_POUNDS / LB_PER_KG) * 10) / 10; // 453.6

// Wrong-type messages are written out: zod's own union message is a bare 'Invalid input', which
// would not tell the user which field is wrong (the server's 400 names the field from the path).

/** Optional text: '' and null both mean "not provided"; stored trimmed or null. */
export const optionalText = (max = 200) =>
  z
    .union([z.string().max(max, `must be at most ${max} characters`), z.null()], { error: 'must be text' })
    .optional()
    .transform((v) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null));

/** Required text: non-empty after trimming. */
export const requiredText = (label: string, max = 200) =>
  z
    .string({ error: (issue) => (issue.input == null ? `${label} is required` : `${label} must be text`) })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

/**
 * Names (people, pets, contacts, providers, medications) as they are stored and shown: without
 * invisible format characters such as bidi overrides (text.ts), trimmed. `overwrite` keeps the
 * schema a plain string for the forms that share it.
 */
export const requiredName = (label: string, max = 200) =>
  z
    .string({ error: (issue) => (issue.input == null ? `${label} is required` : `${label} must be text`) })
    .overwrite(stripInvisible)
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

/** An optional name: '' and null both mean "not provided"; stored without invisible characters, trimmed, or null. */
export const optionalName = (max = 200) =>
  z
    .union([z.string().max(max, `must be at most ${max} characters`), z.null()], { error: 'must be text' })
    .optional()
    .transform((v) => {
      const name = typeof v === 'string' ? stripInvisible(v).trim() : '';
      return name !== '' ? name : null;
    });

/** Optional email: empty means "not provided"; otherwise it must look like an address. */
export const optionalEmail = optionalText(254).refine(
  (v) => v === null || /^[^\s@]+@[^\s@]+$/.test(v),
  'Email must be a valid email address',
);

/** Flags accept booleans (and 0/1 from older clients); null or absent means false. */
export const flag = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.null()], { error: 'must be true or false' })
  .optional()
  .transform((v) => v === true || v === 1);

/** A YYYY-MM-DD calendar date, with messages that name the field. */
const calendarDate = (label: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a date as YYYY-MM-DD`)
    .refine((value) => {
      const date = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
    }, `${label} must be a real calendar date`);

/** A date that may be left empty. Accepts a full ISO instant and keeps its date part. */
export const optionalDateOf = (label: string) =>
  z
    .union([z.string(), z.null()], { error: `${label} must be a date as YYYY-MM-DD` })
    .optional()
    .transform((v) => (typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, 10) : null))
    .pipe(z.union([calendarDate(label), z.null()]));

const notInFuture = (v: string | null) => v === null || v <= todayIsoDate();
export const optionalBirthDate = optionalDateOf('Date of birth').refine(notInFuture, 'Date of birth cannot be in the future');
export const requiredBirthDate = z
  .string({ error: (issue) => (issue.input == null ? 'Date of birth is required' : 'Date of birth must be a date as YYYY-MM-DD') })
  .trim()
  .min(1, 'Date of birth is required')
  .transform((v) => v.slice(0, 10))
  .pipe(calendarDate('Date of birth'))
  .refine((v) => v <= todayIsoDate(), 'Date of birth cannot be in the future');

const optionalMeasure = (label: string, max: number) =>
  z
    .union([z.number(), z.string(), z.null()], { error: `${label} must be between 0 and ${max}` })
    .optional()
    .transform((v, ctx) => {
      if (v === null || v === undefined || v === '') return null;
      const n = typeof v === 'number' ? v : Number(v);
      if (!Number.isFinite(n) || n < 0 || n > max) {
        ctx.addIssue({ code: 'custom', message: `${label} must be between 0 and ${max}` });
        return z.NEVER;
      }
      return n;
    });

const BLOOD_TYPE_MESSAGE = `Blood type must be one of ${BLOOD_TYPES.join(', ')}`;
export const bloodTypeSchema = z
  .union([z.string(), z.null()], { error: BLOOD_TYPE_MESSAGE })
  .optional()
  .transform((v) => (typeof v === 'string' && v.trim() !== '' ? v.trim().toUpperCase() : null))
  .refine((v) => v === null || (BLOOD_TYPES as readonly string[]).includes(v), BLOOD_TYPE_MESSAGE);

// ---------- nested records ----------

/**
 * The id a client sends back with a record it got from us (`id`, or the screens' `contact_id`,
 * `provider_id`, `medication_id`). Never an error: anything but a short string is ignored. It only
 * matters when it names a record of the same profile (a list replace keeps that id; an emergency
 * contact re-posted by the edit form updates in place) — any other id is as good as none.
 */
const clientId = z
  .unknown()
  .optional()
  .transform((v) => (typeof v === 'string' && v !== '' && v.length <= 64 ? v : undefined));

/**
 * A contact as a record may hold it: only the name is certain. Imports read older exports and
 * other systems with this; everything a person saves goes through emergencyContactInputSchema.
 */
export const emergencyContactRecordSchema = z.object({
  id: clientId,
  contact_id: clientId,
  name: requiredName('Contact name'),
  relationship: optionalText(100),
  phone_number: optionalText(50),
  email: optionalEmail,
  is_primary: flag,
  has_medical_power: flag,
});

/**
 * SPEC §5 Family edit lists: a contact is added only when name and phone are both present. The
 * own profile's contacts follow the same rule: the emergency page (SPEC §2) shows them to a
 * responder, who has nothing to call without a phone number.
 */
export const emergencyContactInputSchema = emergencyContactRecordSchema.extend({
  phone_number: requiredText('Contact phone number', 50),
});
export type EmergencyContactInput = z.input<typeof emergencyContactInputSchema>;

/** The family editor's contacts: the same rule as the own profile's. */
export const familyEmergencyContactInputSchema = emergencyContactInputSchema;

export const healthcareProviderInputSchema = z.object({
  id: clientId,
  provider_id: clientId,
  provider_name: requiredName('Provider name'),
  specialty: optionalText(),
  facility: optionalText(),
  phone_number: optionalText(50),
  email: optionalEmail,
  address: optionalText(500),
  is_primary: flag,
  notes: optionalText(2000),
});
export type HealthcareProviderInput = z.input<typeof healthcareProviderInputSchema>;

/**
 * SPEC §3: the family edit form names the provider `name`; accept either. Our answers carry both
 * keys, so a form seeded from them and edited through `name` sends a stale `provider_name`:
 * a non-empty `name` wins.
 */
export const familyHealthcareProviderInputSchema = z.preprocess(
  (v) =>
    v && typeof v === 'object' && 'name' in v && typeof v.name === 'string' && v.name.trim() !== '' ? { ...v, provider_name: v.name } : v,
  healthcareProviderInputSchema.extend({ phone_number: requiredText('Provider phone number', 50) }),
);

const medicationIds = { id: clientId, medication_id: clientId };

/** SPEC §5 'Profile medication form: no required fields' — the name may be left empty here. */
export const medicationInputSchema = z
  .object({
    ...medicationIds,
    medication_name: optionalName(),
    dosage: optionalText(),
    frequency: optionalText(),
    purpose: optionalText(500),
    start_date: optionalDateOf('Start date'),
    end_date: optionalDateOf('End date'),
    is_current: z
      .union([z.boolean(), z.literal(0), z.literal(1), z.null()], { error: 'must be true or false' })
      .optional()
      .transform((v) => (v === null || v === undefined ? true : v === true || v === 1)),
  })
  .refine((m) => !m.start_date || !m.end_date || m.end_date >= m.start_date, {
    message: 'End date cannot be before the start date',
    path: ['end_date'],
  });
export type MedicationInput = z.input<typeof medicationInputSchema>;

/** SPEC §5 Family edit lists: a medication needs medication_name and dosage. */
export const familyMedicationInputSchema = z
  .object({
    ...medicationIds,
    medication_name: requiredName('Medication name'),
    dosage: requiredText('Dosage'),
    frequency: optionalText(),
    purpose: optionalText(500),
    start_date: optionalDateOf('Start date'),
    end_date: optionalDateOf('End date'),
    is_current: medicationInputSchema.shape.is_current,
  })
  .refine((m) => !m.start_date || !m.end_date || m.end_date >= m.start_date, {
    message: 'End date cannot be before the start date',
    path: ['end_date'],
  });

// ---------- the profile itself ----------

/**
 * How many of each list one person's profile holds, in every way of writing it (the full form,
 * one item at a time, an import), and the longest free-text detail.
 */
export const LIST_CAPS = { emergency_contacts: 50, healthcare_providers: 50, medications: 200 } as const;
export type CappedList = keyof typeof LIST_CAPS;
export const DETAILS_MAX = 5000;

/** "A profile can have at most 50 emergency contacts." */
export const listFullMessage = (list: CappedList): string => `A profile can have at most ${LIST_CAPS[list]} ${list.replaceAll('_', ' ')}.`;

/** Issue 30 #25, docs/decisions/0037: the letters, digits, spaces and hyphens of a pet's microchip number. */
const MICROCHIP_MESSAGE = 'Microchip number may hold only letters, digits, spaces and hyphens';

/**
 * What only a pet has (docs/decisions/0037): what it is, the number of its microchip (ISO 11784
 * chips are 15 digits; older ones 9 or 10 characters, some with letters) and its vet — a name and
 * a phone, so that whoever finds the pet or looks after it can call.
 */
export const petFieldsSchema = z.object({
  species: optionalText(100),
  breed: optionalText(100),
  microchip_number: optionalText(32).refine((v) => v === null || /^[A-Za-z0-9 -]+$/.test(v), MICROCHIP_MESSAGE),
  vet_name: optionalName(200),
  vet_phone: optionalText(50),
});
export type PetFields = z.output<typeof petFieldsSchema>;
export const PET_FIELD_NAMES = Object.keys(petFieldsSchema.shape) as (keyof PetFields)[];

const LONG = DETAILS_MAX;
export const profileFieldsSchema = z.object({
  name: optionalName(),
  date_of_birth: optionalBirthDate,
  phone_number: optionalText(50),
  address: optionalText(500),
  email: optionalEmail,
  blood_type: bloodTypeSchema,
  height: optionalMeasure('Height (cm)', MAX_HEIGHT_CM),
  weight: optionalMeasure('Weight (kg)', MAX_WEIGHT_KG),
  primary_language: optionalText(100),
  religious_restrictions: optionalText(LONG),
  organ_donor: flag,
  advance_directives: flag,
  living_will: flag,
  has_vision_impairment: flag,
  has_hearing_impairment: flag,
  has_allergies: flag,
  allergy_details: optionalText(LONG),
  has_chronic_conditions: flag,
  chronic_condition_details: optionalText(LONG),
  has_bleeding_disorders: flag,
  bleeding_disorder_details: optionalText(LONG),
  has_previous_surgeries: flag,
  surgery_details: optionalText(LONG),
  has_mobility_issues: flag,
  mobility_details: optionalText(LONG),
  had_anesthesia_reactions: flag,
  anesthesia_reaction_details: optionalText(LONG),
  ...petFieldsSchema.shape,
  /**
   * Issue 32: the person's IANA time zone; null for the account's. Left out, an update keeps the
   * stored zone (a client that does not know the field must not clear it) and a new person has none.
   */
  time_zone: personTimeZoneSchema.optional(),
});
export type ProfileFields = z.output<typeof profileFieldsSchema>;
export const PROFILE_FIELD_NAMES = Object.keys(profileFieldsSchema.shape) as (keyof ProfileFields)[];

/** SPEC §2 flag/details pairs: the details text area shows only when its flag is checked. */
export const FLAG_DETAIL_PAIRS = [
  ['has_allergies', 'allergy_details', 'Allergies'],
  ['has_chronic_conditions', 'chronic_condition_details', 'Chronic conditions'],
  ['has_bleeding_disorders', 'bleeding_disorder_details', 'Bleeding disorder'],
  ['has_previous_surgeries', 'surgery_details', 'Previous surgeries'],
  ['has_mobility_issues', 'mobility_details', 'Mobility issues'],
  ['had_anesthesia_reactions', 'anesthesia_reaction_details', 'Anesthesia reactions'],
] as const;
export type DetailField = (typeof FLAG_DETAIL_PAIRS)[number][1];
export type DetailFlag = (typeof FLAG_DETAIL_PAIRS)[number][0];

/** Each details field's flag: a details text that is set means its flag is set. */
export const FLAG_OF_DETAIL = Object.fromEntries(FLAG_DETAIL_PAIRS.map(([flagKey, detailsKey]) => [detailsKey, flagKey])) as Record<
  DetailField,
  DetailFlag
>;

/** A yes/no field of the profile. */
export type ProfileFlag = { [K in keyof ProfileFields]-?: ProfileFields[K] extends boolean ? K : never }[keyof ProfileFields];
/**
 * The profile's yes/no fields (0/1 in the database, booleans everywhere else), read off the schema:
 * the one list of them. The table's columns, the rows' answers, the emergency view, the FHIR import
 * and the profile forms derive from it.
 */
export const PROFILE_FLAGS = PROFILE_FIELD_NAMES.filter((name) => profileFieldsSchema.shape[name] === flag) as ProfileFlag[];
export const PROFILE_FLAG_FIELDS: ReadonlySet<string> = new Set(PROFILE_FLAGS);

/**
 * The fields a pet does not have (issue 30 #25): the forms hide them for a pet, the server stores
 * them empty for one, and a pet's emergency page never shows them.
 */
export const HUMAN_ONLY_FIELDS = [
  'blood_type',
  'primary_language',
  'religious_restrictions',
  'organ_donor',
  'advance_directives',
  'living_will',
] as const satisfies readonly (keyof ProfileFields)[];

/**
 * A person's or a pet's fields as they are stored (docs/decisions/0037): a pet's human-only fields
 * and a person's pet fields are empty (null, or false for a flag). Fields not in `fields` stay out.
 */
export function fieldsForKind<T extends Partial<ProfileFields>>(fields: T, isPet: boolean): T {
  const kept: Record<string, unknown> = { ...fields };
  for (const key of isPet ? HUMAN_ONLY_FIELDS : PET_FIELD_NAMES) {
    if (key in kept) kept[key] = PROFILE_FLAG_FIELDS.has(key) ? false : null;
  }
  return kept as T;
}

/** POST /api/user/profile — the 'Complete Your Profile' form. */
export const basicProfileSchema = z.object({
  username: z
    .string()
    .trim()
    .max(100, 'Username must be at most 100 characters')
    .optional()
    .transform((v) => (v ? v : undefined)),
  name: requiredName('Name'),
  date_of_birth: optionalBirthDate,
  address: optionalText(500),
  phone_number: optionalText(50),
});
export type BasicProfileInput = z.input<typeof basicProfileSchema>;

/**
 * PUT /api/user/updateProfile — the whole profile (height cm, weight kg). Nested lists, when
 * sent, replace the stored ones in the same transaction.
 */
export const profileUpdateSchema = profileFieldsSchema.extend({
  username: basicProfileSchema.shape.username,
  emergency_contacts: z.array(emergencyContactInputSchema).max(LIST_CAPS.emergency_contacts).optional(),
  healthcare_providers: z.array(healthcareProviderInputSchema).max(LIST_CAPS.healthcare_providers).optional(),
  medications: z.array(medicationInputSchema).max(LIST_CAPS.medications).optional(),
});
export type ProfileUpdateInput = z.input<typeof profileUpdateSchema>;

/** POST /api/user/family/add. */
export const familyAddSchema = petFieldsSchema.extend({
  name: requiredName('Name'),
  date_of_birth: requiredBirthDate,
  relationship: requiredText('Relationship', 100),
  is_pet: flag,
  time_zone: profileFieldsSchema.shape.time_zone,
});
export type FamilyAddInput = z.input<typeof familyAddSchema>;

/** PUT /api/user/family/members/{id} — the full edit form with its nested lists. */
export const familyUpdateSchema = profileFieldsSchema.extend({
  name: requiredName('Name'),
  date_of_birth: requiredBirthDate,
  relationship: requiredText('Relationship', 100),
  is_pet: flag,
  emergency_contacts: z.array(familyEmergencyContactInputSchema).max(LIST_CAPS.emergency_contacts).optional(),
  healthcare_providers: z.array(familyHealthcareProviderInputSchema).max(LIST_CAPS.healthcare_providers).optional(),
  medications: z.array(familyMedicationInputSchema).max(LIST_CAPS.medications).optional(),
});
export type FamilyUpdateInput = z.input<typeof familyUpdateSchema>;

// ---------- answers (the allowlist of what leaves the server) ----------

export const emergencyContactSchema = z.object({
  id: z.string(),
  contact_id: z.string(),
  name: z.string(),
  relationship: z.string().nullable(),
  phone_number: z.string().nullable(),
  email: z.string().nullable(),
  is_primary: z.boolean(),
  has_medical_power: z.boolean(),
});
export type EmergencyContact = z.infer<typeof emergencyContactSchema>;

export const healthcareProviderSchema = z.object({
  id: z.string(),
  provider_id: z.string(),
  provider_name: z.string(),
  name: z.string(),
  specialty: z.string().nullable(),
  facility: z.string().nullable(),
  phone_number: z.string().nullable(),
  email: z.string().nullable(),
  address: z.string().nullable(),
  is_primary: z.boolean(),
  notes: z.string().nullable(),
});
export type HealthcareProvider = z.infer<typeof healthcareProviderSchema>;

export const medicationSchema = z.object({
  id: z.string(),
  medication_id: z.string(),
  medication_name: z.string().nullable(),
  dosage: z.string().nullable(),
  frequency: z.string().nullable(),
  purpose: z.string().nullable(),
  start_date: z.string().nullable(),
  end_date: z.string().nullable(),
  is_current: z.boolean(),
});
export type Medication = z.infer<typeof medicationSchema>;

/** A profile's own values as they leave the server (no lists, no ids). */
export const profileValuesSchema = z.object({
  name: z.string().nullable(),
  date_of_birth: z.string().nullable(),
  phone_number: z.string().nullable(),
  address: z.string().nullable(),
  email: z.string().nullable(),
  blood_type: z.string().nullable(),
  height: z.number().nullable(),
  weight: z.number().nullable(),
  primary_language: z.string().nullable(),
  religious_restrictions: z.string().nullable(),
  organ_donor: z.boolean(),
  advance_directives: z.boolean(),
  living_will: z.boolean(),
  has_vision_impairment: z.boolean(),
  has_hearing_impairment: z.boolean(),
  has_allergies: z.boolean(),
  allergy_details: z.string().nullable(),
  has_chronic_conditions: z.boolean(),
  chronic_condition_details: z.string().nullable(),
  has_bleeding_disorders: z.boolean(),
  bleeding_disorder_details: z.string().nullable(),
  has_previous_surgeries: z.boolean(),
  surgery_details: z.string().nullable(),
  has_mobility_issues: z.boolean(),
  mobility_details: z.string().nullable(),
  had_anesthesia_reactions: z.boolean(),
  anesthesia_reaction_details: z.string().nullable(),
  species: z.string().nullable(),
  breed: z.string().nullable(),
  microchip_number: z.string().nullable(),
  vet_name: z.string().nullable(),
  vet_phone: z.string().nullable(),
  time_zone: z.string().nullable(),
});
export type ProfileValues = z.infer<typeof profileValuesSchema>;
/** Compile-time: the answer holds every profile field, each as it is stored (a field added to the profile cannot be left out of it). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type StoredFields = Omit<ProfileFields, 'time_zone'> & { time_zone: string | null };
const _answerIsTheFields: Same<ProfileValues, StoredFields> = true;

export const familyMemberSummarySchema = profileValuesSchema.extend({
  id: z.string(),
  member_id: z.string(),
  relationship: z.string().nullable(),
  is_pet: z.boolean(),
});
export type FamilyMemberSummary = z.infer<typeof familyMemberSummarySchema>;

export const familyMemberSchema = familyMemberSummarySchema.extend({
  emergency_contacts: z.array(emergencyContactSchema),
  healthcare_providers: z.array(healthcareProviderSchema),
  medications: z.array(medicationSchema),
});
export type FamilyMember = z.infer<typeof familyMemberSchema>;

/** GET /api/user/getPatientProfile. */
export const patientProfileSchema = profileValuesSchema.extend({
  id: z.string(),
  username: z.string(),
  account_email: z.string(),
  emergency_contacts: z.array(emergencyContactSchema),
  healthcare_providers: z.array(healthcareProviderSchema),
  medications: z.array(medicationSchema),
  family_members: z.array(familyMemberSummarySchema),
});
export type PatientProfile = z.infer<typeof patientProfileSchema>;

// SPEC §4 'after a successful save the lists update locally and a success message shows': the
// add/update answers carry the record itself plus the message.
const withMessage = { message: z.string() };
export const emergencyContactResponseSchema = emergencyContactSchema.extend(withMessage);
export const healthcareProviderResponseSchema = healthcareProviderSchema.extend(withMessage);
export const medicationResponseSchema = medicationSchema.extend(withMessage);
export const familyMemberResponseSchema = familyMemberSchema.extend(withMessage);

// ---------- unit conversions (SPEC §5, §9) ----------

/** Feet + inches → cm, or null when both are empty. */
export function feetInchesToCm(feet: number | null, inches: number | null): number | null {
  if (feet === null && inches === null) return null;
  const totalInches = (feet ?? 0) * INCHES_PER_FOOT + (inches ?? 0);
  return Math.round(totalInches * CM_PER_INCH * 100) / 100;
}

/** cm → whole feet + inches; rounds to the nearest inch so 5 ft 7 in stays 5 ft 7 in. */
export function cmToFeetInches(cm: number | null): { feet: number; inches: number } | null {
  if (cm === null) return null;
  const totalInches = Math.round(cm / CM_PER_INCH);
  return { feet: Math.floor(totalInches / INCHES_PER_FOOT), inches: totalInches % INCHES_PER_FOOT };
}

/** lbs → kg rounded to one decimal (SPEC §5). */
export function lbsToKg(lbs: number | null): number | null {
  if (lbs === null) return null;
  return Math.round((lbs / LB_PER_KG) * 10) / 10;
}

/**
 * kg → lbs for display. Storing kg to 0.1 loses up to 0.11 lb, so a value that close to a whole
 * pound is shown as that whole pound: 165 lbs → 74.8 kg → 165 lbs, not 164.9.
 */
export function kgToLbs(kg: number | null): number | null {
  if (kg === null) return null;
  const lbs = kg * LB_PER_KG;
  const whole = Math.round(lbs);
  return Math.abs(lbs - whole) <= 0.12 ? whole : Math.round(lbs * 10) / 10;
}
