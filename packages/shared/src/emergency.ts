import { z } from 'zod';
import { profileValuesSchema } from './profile';
import { ALLERGY_CRITICALITIES, ALLERGY_SEVERITIES } from './allergies';

// SPEC §3 QR configuration / Emergency response, §5 PIN; DESIGN §7.
export const PIN_LENGTH = 4;
export const PIN_FORMAT_MESSAGE = 'PIN must be 4 digits';
export const WEAK_PIN_MESSAGE = 'This PIN is too easy to guess. Please choose a less predictable 4-digit PIN.';
export const MASKED_PIN = '••••';
export const MAX_PIN_STREAK = 5;
export const MAX_PIN_TOTAL = 10;
export const PIN_LOCK_MINUTES = 15;

/** All one digit (1111), straight runs up or down (1234, 9876, 7890, 3210) and ABAB (1212). */
export function isWeakPin(pin: string): boolean {
  const d = [...pin].map(Number);
  if (d.length !== PIN_LENGTH) return false;
  const [a, b, c, e] = d as [number, number, number, number];
  if (a === b && b === c && c === e) return true;
  const step = (b - a + 10) % 10;
  if ((step === 1 || step === 9) && (c - b + 10) % 10 === step && (e - c + 10) % 10 === step) return true;
  return a === c && b === e;
}

export const pinSchema = z
  .string({ message: PIN_FORMAT_MESSAGE })
  .regex(/^\d{4}$/, PIN_FORMAT_MESSAGE)
  .refine((pin) => !isWeakPin(pin), WEAK_PIN_MESSAGE);

export const pinBodySchema = z.object({ pin: pinSchema });

/**
 * POST set-up (`/api/user/wearable-qr`, `/api/user/family/members/{id}/qr`): the PIN, and the
 * owner's answer to "show the essentials without the PIN?" asked in the set-up form (issue 30).
 * Without the answer the code keeps its current choice (off for a new code).
 */
export const qrSetupBodySchema = z.object({ pin: pinSchema, essentials_without_pin: z.boolean().optional() });
export type QrSetupBody = z.infer<typeof qrSetupBodySchema>;

/** PUT /api/user/wearable-qr/toggle: the desired new state; absent means "flip". */
export const toggleBodySchema = z
  .union([z.object({ is_active: z.boolean().optional() }), z.null(), z.undefined()])
  .transform((b) => b ?? {});

export const qrConfigSchema = z.object({
  exists: z.boolean(),
  is_active: z.boolean(),
  /** Masked — the owner never gets the PIN back (it is stored as a hash). */
  access_pin: z.string().nullable(),
  qr_data: z.string().nullable(),
  share_id: z.string().nullable(),
  /** True when the code was switched off after too many wrong PINs. */
  is_disabled: z.boolean(),
  /** DESIGN §7: show the essentials without the PIN (the owner's choice, default off). */
  essentials_without_pin: z.boolean(),
  /** The PIN's state: `locked` for 15 minutes after 5 wrong in a row, `disabled` after 10 (DESIGN §7). */
  pin_status: z.enum(['ok', 'locked', 'disabled']),
});
export type QrConfig = z.infer<typeof qrConfigSchema>;

/** GET before set-up (SPEC §4): the answer for a person with no code yet. The server sends it; the web shows it after a 404. */
export const QR_NOT_CONFIGURED: Readonly<QrConfig> = Object.freeze({
  exists: false,
  is_active: false,
  access_pin: null,
  qr_data: null,
  share_id: null,
  is_disabled: false,
  essentials_without_pin: false,
  pin_status: 'ok',
});

export const qrConfigWithMessageSchema = qrConfigSchema.extend({ message: z.string() });

export const emergencyQuerySchema = z.object({ pin: z.string().max(64).optional() });

const contactSchema = z.object({
  name: z.string(),
  relationship: z.string().nullable(),
  phone_number: z.string().nullable(),
  email: z.string().nullable(),
  is_primary: z.boolean(),
  has_medical_power: z.boolean(),
});

const providerSchema = z.object({
  provider_name: z.string(),
  specialty: z.string().nullable(),
  facility: z.string().nullable(),
  phone_number: z.string().nullable(),
  is_primary: z.boolean(),
});

const currentMedicationSchema = z.object({
  medication_name: z.string().nullable(),
  dosage: z.string().nullable(),
  frequency: z.string().nullable(),
  purpose: z.string().nullable(),
});

/**
 * Issue 34 (docs/decisions/0053): the allergies as entries, high criticality first, then the
 * person's order — only when the page shows the allergy details (flag set, text present, lines that
 * say none are known left out), so a responder never sees more than `allergy_details` says.
 */
const emergencyAllergySchema = z
  .object({
    substance: z.string(),
    reactions: z.array(z.string()),
    severity: z.enum(ALLERGY_SEVERITIES).nullable(),
    criticality: z.enum(ALLERGY_CRITICALITIES).nullable(),
  })
  .strict();
export type EmergencyAllergy = z.infer<typeof emergencyAllergySchema>;

/** The fields a person's and a pet's PIN answers share (the emergency sections of SPEC §2). */
const emergencyInfoShared = profileValuesSchema
  .omit({
    phone_number: true,
    address: true,
    email: true,
    blood_type: true,
    primary_language: true,
    religious_restrictions: true,
    organ_donor: true,
    advance_directives: true,
    living_will: true,
    species: true,
    breed: true,
    microchip_number: true,
    vet_name: true,
    vet_phone: true,
    time_zone: true,
  })
  .extend({
    requirePin: z.literal(false),
    relationship: z.string().nullable(),
    medications: z.array(currentMedicationSchema),
    emergency_contacts: z.array(contactSchema),
    healthcare_providers: z.array(providerSchema),
    allergy_entries: z.array(emergencyAllergySchema),
    /**
     * When this emergency information last changed (ISO instant): the latest of the profile's and
     * its lists' time stamps, so a responder can judge how fresh it is (DESIGN §7). Null when unknown.
     */
    updated_at: z.string().nullable(),
  });

/** A person's: with the human-only fields (blood type, language, directives). */
export const personEmergencyInfoSchema = emergencyInfoShared.extend({
  is_pet: z.literal(false),
  ...profileValuesSchema.pick({
    blood_type: true,
    primary_language: true,
    religious_restrictions: true,
    organ_donor: true,
    advance_directives: true,
    living_will: true,
  }).shape,
});

/**
 * A pet's (issue 30 #25, docs/decisions/0037): none of the human-only fields, but what it is, its
 * microchip, its vet and whom it belongs to — the name and phone of the account holder's own
 * profile (null when that profile has neither), so whoever has the pet can call.
 */
export const petEmergencyInfoSchema = emergencyInfoShared.extend({
  is_pet: z.literal(true),
  ...profileValuesSchema.pick({ species: true, breed: true, microchip_number: true, vet_name: true, vet_phone: true }).shape,
  owner: z.object({ name: z.string().nullable(), phone_number: z.string().nullable() }).strict().nullable(),
});

/**
 * What a first responder sees with the right PIN: the emergency sections of SPEC §2 and nothing
 * else — no files, appointments, notifications, address or account data (DESIGN §7). A pet's answer
 * has no human-only fields at all (not even "organ donor: no").
 */
export const emergencyInfoSchema = z.discriminatedUnion('is_pet', [personEmergencyInfoSchema, petEmergencyInfoSchema]);
export type PetEmergencyInfo = z.infer<typeof petEmergencyInfoSchema>;
export type EmergencyInfo = z.infer<typeof emergencyInfoSchema>;

/**
 * What an opted-in code shows without the PIN (`essentials_without_pin`, DESIGN §7), like a
 * phone's "show when locked": only these fields, null or empty where unknown. `allergies`,
 * `conditions` and `bleeding_disorder` carry the details text when the flag is set (or a plain
 * "Yes" when set without details), null when not set. `age` is whole years from date_of_birth.
 * `is_pet` and a pet's `species` (null for a person) let the page show a pet without a blood type
 * (docs/decisions/0037); the breed, microchip, vet and owner stay behind the PIN.
 */
export const emergencyEssentialsSchema = z
  .object({
    name: z.string().nullable(),
    age: z.number().int().min(0).nullable(),
    is_pet: z.boolean(),
    species: z.string().nullable(),
    blood_type: z.string().nullable(),
    allergies: z.string().nullable(),
    /** The entries behind `allergies`, as the PIN answer has them (empty when `allergies` is null or a bare "Yes"). */
    allergy_entries: z.array(emergencyAllergySchema),
    conditions: z.string().nullable(),
    bleeding_disorder: z.string().nullable(),
    medications: z.array(z.string()),
    primary_contact: z.object({ name: z.string(), phone_number: z.string().nullable() }).strict().nullable(),
    /** When the person's emergency information last changed (ISO instant). */
    updated_at: z.string().nullable(),
  })
  .strict();
export type EmergencyEssentials = z.infer<typeof emergencyEssentialsSchema>;

/** PUT …/qr/settings (own and member). */
export const qrSettingsBodySchema = z.object({ essentials_without_pin: z.boolean() }).strict();
export type QrSettingsBody = z.infer<typeof qrSettingsBodySchema>;

/**
 * Without a PIN: `{ requirePin: true }`, plus `essentials` when the owner opted in — and nothing
 * else. The PIN's state (`ok`, `locked`, `disabled`) travels in the `Kinchart-Pin-Status` header
 * of an opted-in answer, so the page can tell a responder what happened without the body growing.
 */
export const requirePinSchema = z.object({ requirePin: z.literal(true), essentials: emergencyEssentialsSchema.optional() }).strict();
export const PIN_STATUS_HEADER = 'kinchart-pin-status';
/** A PIN attempt on an opted-in code whose PIN was turned off after 10 wrong tries (423, DESIGN §7). */
export const PIN_DISABLED_MESSAGE =
  'The PIN for this code was turned off after too many wrong tries. Use the information shown here and call your local emergency number.';
export const PIN_STATUSES = ['ok', 'locked', 'disabled'] as const;
export type PinStatus = (typeof PIN_STATUSES)[number];
export const emergencyResponseSchema = z.union([requirePinSchema, emergencyInfoSchema]);
export type EmergencyResponse = z.infer<typeof emergencyResponseSchema>;

export const wrongPinSchema = z.object({ message: z.string(), remainingAttempts: z.number().int().min(0) });

/**
 * One person's emergency card for the owner's own device (DESIGN §7: "the owner's cards can be
 * kept offline on their own device"): what the emergency page shows with the right PIN, and the
 * link the person's QR code encodes while the code is active (null otherwise).
 */
export const emergencyCardSchema = z
  .object({
    profile_id: z.string(),
    /** The account holder's own card; the others are family members and pets. */
    is_self: z.boolean(),
    info: emergencyInfoSchema,
    qr_data: z.string().nullable(),
  })
  .strict();
export type EmergencyCard = z.infer<typeof emergencyCardSchema>;

/** GET /api/user/emergency-cards: the signed-in owner's own card first, then each member's. */
export const emergencyCardsSchema = z.object({ cards: z.array(emergencyCardSchema) }).strict();
