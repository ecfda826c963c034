import { z } from 'zod';
import { stripInvisible } from './text';
import { isAcceptedMime } from './files';
import { NOTIFICATION_LEVELS } from './notifications';
import { appointmentTimeSchema, type AppointmentFieldSchemas } from './appointments';
import { isoDateSchema } from './common';
import { languageSchema, reminderMinutesSchema, scheduleInputSchema, timeZoneSchema, unitSystemSchema } from './care';
import { ALLERGY_CRITICALITIES, ALLERGY_REACTIONS_MAX, ALLERGY_SEVERITIES } from './allergies';
import {
  CLINICAL_CAP,
  codingSchema,
  conditionInputSchema,
  immunizationInputSchema,
  labResultInputSchema,
  procedureInputSchema,
} from './clinical';
import {
  DETAILS_MAX,
  LIST_CAPS,
  flag,
  optionalDateOf,
  optionalEmail,
  optionalName,
  optionalText,
  profileFieldsSchema,
  requiredName,
  requiredText,
} from './profile';

// The Kinchart export (GET /api/user/export) and import (POST /api/user/import).
// kinchart.json is documented in docs/decisions/0004-export-format.md; this schema is its
// definition: the export writes what it describes, and the import accepts nothing it does not.

export const EXPORT_FORMAT = 'kinchart-export';
/**
 * Bumped on any change an older reader could misread or silently drop; the import refuses versions
 * it does not know. Version 2 added the clinical items and the medications' codings; the allergy
 * lines' codings came later as an optional field (decision 0004: an older version 2 reader keeps the
 * allergy texts and drops only their codes). Version 3 added the medications' schedules and the
 * dose log (issue 32, decision 0046): an older reader would drop them without a word.
 */
export const EXPORT_FORMAT_VERSION = 3;
/** What this Kinchart restores: version 1 is version 2 without clinical items or codings; 2 is 3 without schedules or doses. */
export const READABLE_EXPORT_VERSIONS: readonly number[] = [1, 2, 3];

export const EXPORT_PATH = '/api/user/export';
export const IMPORT_PATH = '/api/user/import';

/** An instant as Kinchart stores it (ISO-8601 with a zone). */
const instant = z.iso.datetime({ offset: true, message: 'must be an ISO-8601 date-time' });
const id = z.string().min(1).max(64);
const position = z.number().int().min(0).max(100_000);

export const exportContactSchema = z.object({
  id,
  name: requiredName('Contact name'),
  relationship: optionalText(100),
  phone_number: optionalText(50),
  email: optionalEmail,
  is_primary: flag,
  has_medical_power: flag,
  position,
  created_at: instant,
});

export const exportProviderSchema = z.object({
  id,
  provider_name: requiredName('Provider name'),
  specialty: optionalText(),
  facility: optionalText(),
  phone_number: optionalText(50),
  email: optionalEmail,
  address: optionalText(500),
  is_primary: flag,
  notes: optionalText(2000),
  position,
  created_at: instant,
});

/**
 * Version 3: one logged dose of a medication (issue 32, decision 0046). `scheduled_local` is the
 * dose's wall-clock time in the person's zone; a scheduled dose's id is made again from it on
 * import. `logged_by` is the username of whoever logged it (informative: accounts do not travel).
 */
export const exportDoseSchema = z.object({
  id,
  scheduled_local: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'must be a local time YYYY-MM-DDTHH:MM'),
  scheduled_at: instant,
  as_needed: z.boolean(),
  status: z.enum(['taken', 'skipped']),
  taken_at: instant.nullable(),
  logged_at: instant,
  logged_by: z.string().max(200).nullable(),
  units_taken: z.number().min(0).max(100_000).nullable(),
});
/** A medication's logged doses in one export: twelve a day for over twenty years. */
export const EXPORT_DOSES_MAX = 100_000;

export const exportMedicationSchema = z.object({
  id,
  medication_name: optionalName(),
  dosage: optionalText(),
  frequency: optionalText(),
  purpose: optionalText(500),
  start_date: optionalDateOf('Start date'),
  end_date: optionalDateOf('End date'),
  is_current: z.boolean(),
  position,
  created_at: instant,
  updated_at: instant,
  /** Version 2: the codes an import brought (DESIGN §12); null or absent when it brought none. */
  codings: z.array(codingSchema).max(20).nullable().optional(),
  /** Version 3: the schedule as PUT …/schedule takes it (start_date always given); null or absent: none. */
  schedule: scheduleInputSchema.nullable().optional(),
  /** Version 3: the medication's logged doses, oldest first; absent: none. */
  doses: z.array(exportDoseSchema).max(EXPORT_DOSES_MAX).optional().default([]),
});

// Version 2: each person's clinical items (DESIGN §12), each checked by the same rules as the API's
// input, with its id (which only ties the file together) and its stamps.
const stamps = z.object({ id, created_at: instant, updated_at: instant });
export const exportImmunizationSchema = z.intersection(stamps, immunizationInputSchema);
/** Issue 34: a result read from a file names the export's file and its page (restored where that file is added). */
const labSource = z.object({
  source_file_id: id.nullable().optional(),
  source_page: z.number().int().min(1).max(100_000).nullable().optional(),
});
export const exportLabResultSchema = z.intersection(z.intersection(stamps, labSource), labResultInputSchema);
export const exportConditionSchema = z.intersection(stamps, conditionInputSchema);
export const exportProcedureSchema = z.intersection(stamps, procedureInputSchema);
/** A version 1 file has none: an empty list. */
const clinicalList = <T extends z.ZodType>(item: T) => z.array(item).max(CLINICAL_CAP).optional().default([]);

/**
 * One line of the profile's allergy details with the codes an import brought for it (DESIGN §12,
 * decision 0023): the IPS export codes the line that reads exactly `text`.
 */
export const allergyCodingSchema = z.object({
  text: z.string().trim().min(1).max(DETAILS_MAX),
  codings: z.array(codingSchema).max(20),
});
/** Each entry is a different non-empty line of a text of at most DETAILS_MAX characters. */
export const ALLERGY_CODINGS_MAX = Math.ceil(DETAILS_MAX / 2);

/**
 * Issue 34 (docs/decisions/0053): one allergy entry, in the person's order. Its line (substance —
 * reactions) is a line of the allergy details, so a reader that does not know entries keeps the text.
 */
export const exportAllergySchema = z.object({
  substance: z.string().trim().min(1).max(DETAILS_MAX),
  reactions: z.array(z.string().trim().min(1).max(DETAILS_MAX)).max(ALLERGY_REACTIONS_MAX),
  severity: z.enum(ALLERGY_SEVERITIES).nullable(),
  criticality: z.enum(ALLERGY_CRITICALITIES).nullable(),
  codings: z.array(codingSchema).max(20),
  created_at: instant,
  updated_at: instant,
});

export const exportProfileSchema = profileFieldsSchema.extend({
  id,
  is_self: z.boolean(),
  relationship: optionalText(100),
  is_pet: z.boolean(),
  created_at: instant,
  updated_at: instant,
  /** Path of this person's FHIR R4 Bundle inside the zip (informative; the import reads kinchart.json only). */
  fhir: z.string().max(300).optional(),
  emergency_contacts: z.array(exportContactSchema).max(LIST_CAPS.emergency_contacts),
  healthcare_providers: z.array(exportProviderSchema).max(LIST_CAPS.healthcare_providers),
  medications: z.array(exportMedicationSchema).max(LIST_CAPS.medications),
  /** Path of the person's FHIR collection Bundle (appointments, documents), when they have one (informative). */
  fhir_other: z.string().max(300).optional(),
  immunizations: clinicalList(exportImmunizationSchema),
  lab_results: clinicalList(exportLabResultSchema),
  conditions: clinicalList(exportConditionSchema),
  procedures: clinicalList(exportProcedureSchema),
  /** Version 2, added later (absent in older files: none): the allergy lines' codings. Read only: newer files carry `allergies`. */
  allergy_codings: z.array(allergyCodingSchema).max(ALLERGY_CODINGS_MAX).nullable().optional(),
  /** Version 3, added later (issue 34; absent in older files: the details lines become entries): the allergies as entries. */
  allergies: z.array(exportAllergySchema).max(ALLERGY_CODINGS_MAX).optional(),
});

export const exportAppointmentSchema = z.object({
  id,
  /**
   * The person the appointment belongs to (DESIGN §4); absent or null → the own profile. Added
   * with people and sharing: exports made before it have none, and a reader that does not know it
   * files every appointment under the own profile, as before.
   */
  profile_id: id.nullable().optional(),
  uid: z.string().min(1).max(200).optional(),
  ...({
    appointment_date: isoDateSchema,
    start_time: appointmentTimeSchema,
    end_time: appointmentTimeSchema,
    provider_name: requiredText('Provider name'),
    reason_for_visit: optionalText(1000),
    location: optionalText(500),
  } satisfies AppointmentFieldSchemas),
  created_at: instant,
  /** Issue 32 (absent in older files, and null: the default [1440, 120]): reminder lead times in minutes. */
  reminder_minutes: reminderMinutesSchema.nullable().optional(),
});

/** Issue 32 (absent in older files): the account's zone (null: none yet) and reminder channels. */
export const exportPreferencesSchema = z.object({
  time_zone: timeZoneSchema.nullable(),
  reminder_email: z.boolean(),
  reminder_push: z.boolean(),
  reminder_minimal: z.boolean(),
  /** Issue 35 (absent in older files): the account's language (null: never chosen) and units. */
  language: languageSchema.nullable().optional(),
  units: unitSystemSchema.nullable().optional(),
});

/**
 * Issue 32: a private calendar feed's settings, for the record only — its secret address is never
 * exported, so an import cannot bring a feed back (docs/decisions/0045); a new one is made in Settings.
 */
export const exportCalendarFeedSchema = z.object({
  id,
  person_id: id.nullable(),
  include_medications: z.boolean(),
  minimal: z.boolean(),
  created_at: instant,
  last_read_at: instant.nullable(),
});

/**
 * Issue 32: the account's own reminder choices for each of its people (who gets reminded is a
 * choice per user and person; a holder's choices for people shared with them stay with that share).
 */
export const exportReminderSettingSchema = z.object({
  person_id: id,
  dose_reminders: z.boolean(),
  missed_dose_alerts: z.boolean(),
  appointment_reminders: z.boolean(),
});

export const exportNotificationSchema = z.object({
  id,
  type: z.string().min(1).max(50),
  level: z.enum(NOTIFICATION_LEVELS),
  title: z.string().max(200),
  message: z.string().max(2000),
  is_read: z.boolean(),
  is_hidden: z.boolean(),
  created_at: instant,
});

export const exportFileSchema = z.object({
  id,
  /** The person the file belongs to, when it was filed under one; null for the account's own records. */
  profile_id: id.nullable(),
  /** Where the decrypted original is inside the zip: `files/<safe, unique name>`. */
  path: z
    .string()
    .regex(/^files\/[^/]+$/, 'must be files/<name>')
    .max(300),
  // Names are stored without invisible characters, whatever the zip says (see text.ts).
  display_name: z.string().transform(stripInvisible).pipe(z.string().trim().min(1).max(255)),
  original_name: z.string().transform(stripInvisible).pipe(z.string().trim().min(1).max(255)),
  file_type: z.string().refine(isAcceptedMime, 'is not a file type Kinchart accepts'),
  size: z.number().int().min(0),
  record_date: z.union([z.string().max(40), z.null()]),
  provider_name: optionalText(),
  visit_location: optionalText(),
  visit_reason: optionalText(1000),
  created_at: instant,
  updated_at: instant,
});

/** kinchart.json, format version 3 (and 1 and 2, which lack what came later). */
export const kinchartExportSchema = z
  .object({
    format: z.literal(EXPORT_FORMAT, { message: `format must be "${EXPORT_FORMAT}"` }),
    version: z.union([z.literal(1), z.literal(2), z.literal(EXPORT_FORMAT_VERSION)]),
    exported_at: instant,
    /** Informative only: an import never changes the signed-in account's username or email. */
    account: z.object({ username: z.string().max(100), email: z.string().max(254) }),
    profiles: z.array(exportProfileSchema).min(1).max(500),
    appointments: z.array(exportAppointmentSchema).max(20_000),
    notifications: z.array(exportNotificationSchema).max(20_000),
    files: z.array(exportFileSchema).max(20_000),
    preferences: exportPreferencesSchema.optional(),
    calendar_feeds: z.array(exportCalendarFeedSchema).max(1000).optional(),
    reminder_settings: z.array(exportReminderSettingSchema).max(1000).optional(),
  })
  .superRefine((doc, ctx) => {
    const selves = doc.profiles.filter((p) => p.is_self).length;
    if (selves !== 1) ctx.addIssue({ code: 'custom', path: ['profiles'], message: 'must hold exactly one own profile (is_self)' });
    const ids = new Set(doc.profiles.map((p) => p.id));
    if (ids.size !== doc.profiles.length) ctx.addIssue({ code: 'custom', path: ['profiles'], message: 'profile ids must be unique' });
    doc.files.forEach((f, i) => {
      if (f.profile_id !== null && !ids.has(f.profile_id)) {
        ctx.addIssue({ code: 'custom', path: ['files', i, 'profile_id'], message: 'names no profile of this export' });
      }
    });
    doc.appointments.forEach((a, i) => {
      if (a.profile_id !== undefined && a.profile_id !== null && !ids.has(a.profile_id)) {
        ctx.addIssue({ code: 'custom', path: ['appointments', i, 'profile_id'], message: 'names no profile of this export' });
      }
    });
    (doc.reminder_settings ?? []).forEach((r, i) => {
      if (!ids.has(r.person_id))
        ctx.addIssue({ code: 'custom', path: ['reminder_settings', i, 'person_id'], message: 'names no profile of this export' });
    });
    const paths = new Set(doc.files.map((f) => f.path));
    if (paths.size !== doc.files.length) ctx.addIssue({ code: 'custom', path: ['files'], message: 'file paths must be unique' });
  });
export type KinchartExport = z.input<typeof kinchartExportSchema>;
export type KinchartExportParsed = z.output<typeof kinchartExportSchema>;

// ---------- import ----------

/** Multipart field naming whose profile a FHIR Bundle goes to: 'self' (default) or a member id. */
export const IMPORT_TARGET_FIELD = 'profileId';

export const importCountsSchema = z.object({
  family_members: z.number(),
  /** FHIR: AllergyIntolerance resources added to the person's allergy (or anesthesia reaction) details. */
  allergies: z.number(),
  /**
   * FHIR: Condition resources added to the person's conditions, bleeding disorder, surgeries, …;
   * a Kinchart export: the people's conditions (DESIGN §12).
   */
  conditions: z.number(),
  immunizations: z.number(),
  lab_results: z.number(),
  procedures: z.number(),
  emergency_contacts: z.number(),
  healthcare_providers: z.number(),
  medications: z.number(),
  appointments: z.number(),
  notifications: z.number(),
  files: z.number(),
});
export type ImportCounts = z.infer<typeof importCountsSchema>;

/**
 * Records of the file that the account already held, so they were not added again
 * (docs/decisions/0012-reimport-and-quota.md): importing the same export or bundle twice adds nothing.
 */
export const alreadyPresentSchema = z.object({
  family_members: z.number(),
  emergency_contacts: z.number(),
  healthcare_providers: z.number(),
  medications: z.number(),
  immunizations: z.number(),
  lab_results: z.number(),
  conditions: z.number(),
  procedures: z.number(),
  appointments: z.number(),
  notifications: z.number(),
  files: z.number(),
});
export type AlreadyPresent = z.infer<typeof alreadyPresentSchema>;

/** The clinical items' counts (DESIGN §12), in both answers: one per table, as the tables are named. */
export const CLINICAL_COUNT_KEYS = ['immunizations', 'lab_results', 'conditions', 'procedures'] as const;
export type ClinicalCounts = Record<(typeof CLINICAL_COUNT_KEYS)[number], number>;

/** How many resources (or parts of resources) were left out for one reason. */
export const importReasonCountSchema = z.object({ reason: z.string(), count: z.number() });
export type ImportReasonCount = z.infer<typeof importReasonCountSchema>;

/**
 * What became of the resources of one type in a FHIR Bundle (DESIGN §12; decision 0022). Every
 * resource of the type is counted exactly once: `imported` (became a record of its own),
 * `merged` (read into records it belongs to: the profile's fields and details, or as part of
 * another resource — a Medication named by a statement, a Practitioner named as a performer),
 * `already_present` (what it holds was already there) or `dropped` (left out, with the reason).
 * `parts_left_out` names parts of resources otherwise kept that Kinchart could not keep (a birth
 * date without a day, a contact without a name).
 */
export const importReportRowSchema = z.object({
  resource_type: z.string(),
  imported: z.number(),
  merged: z.number(),
  already_present: z.number(),
  dropped: z.array(importReasonCountSchema),
  parts_left_out: z.array(importReasonCountSchema),
});
export type ImportReportRow = z.infer<typeof importReportRowSchema>;

export const importResultSchema = z.object({
  message: z.string(),
  format: z.enum(['kinchart', 'fhir', 'ccda']),
  imported: importCountsSchema,
  already_present: alreadyPresentSchema,
  /** What was left out and why, e.g. "2 DocumentReference without embedded data". */
  skipped: z.array(z.string()),
  /** FHIR: one row per resource type, in the order the types first appear in the bundle; a Kinchart export has none. */
  report: z.array(importReportRowSchema),
});
export type ImportResult = z.infer<typeof importResultSchema>;

/** The import accepts these; the picker's `accept` attribute is a hint only. */
export const IMPORT_ACCEPT = '.zip,application/zip,.json,application/json,application/fhir+json,.xml,application/xml,text/xml';
