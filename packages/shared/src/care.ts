import { z } from 'zod';
import { DOCUMENT_LANGUAGES, documentLanguagesSchema } from './search';
import type { DocumentLanguage } from './search';
import { isoDateSchema } from './common';
import { LANGUAGES, UNIT_SYSTEMS } from './i18n';

// Issue 32, DESIGN §13: time zones, medication schedules, the dose log, reminder settings, push
// subscriptions and calendar feeds — the API's payloads, and the pure rules both sides need
// (which local times a schedule has, and how a scheduled dose is named).

// ---------- time zones ----------

/**
 * Intl also takes a bare UTC offset ("+05:00", "-0500", even with U+2212) as a zone; that is no
 * IANA zone (it knows no daylight saving), so a name must start with a letter.
 */
export const looksLikeZoneName = (value: string): boolean => /^[A-Za-z]/.test(value);

/** An IANA zone the runtime knows (Intl carries the zone database; none ships with us). */
export function isTimeZone(value: string): boolean {
  if (value.length === 0 || value.length > 64 || !looksLikeZoneName(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/**
 * A known zone in the database's own spelling: Intl accepts any case ("europe/madrid"), which would
 * otherwise be stored and shown as typed and match no choice in a list. Only the case is changed;
 * a link (US/Eastern) stays the name the user chose.
 */
export function canonicalTimeZone(value: string): string {
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
    return resolved.toLowerCase() === value.toLowerCase() ? resolved : value;
  } catch {
    return value;
  }
}

export const TIME_ZONE_MESSAGE = 'must be an IANA time zone such as Europe/Madrid';
export const timeZoneSchema = z
  .string({ error: TIME_ZONE_MESSAGE })
  .trim()
  .refine(isTimeZone, TIME_ZONE_MESSAGE)
  .transform(canonicalTimeZone);
/** A person's zone in a body: a zone, or null for the account's. */
export const personTimeZoneSchema = z.union([timeZoneSchema, z.null()], { error: TIME_ZONE_MESSAGE });

// ---------- preferences ----------

/** Issue 35: the account's language and units (packages/shared/src/i18n.ts). */
export const languageSchema = z.enum(LANGUAGES, { error: `must be one of ${LANGUAGES.join(', ')}` });
export const unitSystemSchema = z.enum(UNIT_SYSTEMS, { error: 'must be imperial or metric' });

/** GET /api/user/preferences. */
export const preferencesSchema = z.object({
  /** The account's zone; 'UTC' when it has none yet. */
  time_zone: z.string(),
  /**
   * False while the account has no zone of its own (made before zones, or by single sign-on): the
   * web app then sets the browser's once (docs/decisions/0045).
   */
  time_zone_set: z.boolean(),
  reminder_email: z.boolean(),
  reminder_push: z.boolean(),
  /** "minimal" email and push: the person's name only, no medication or provider. */
  reminder_minimal: z.boolean(),
  /** Issue 33: the languages the account's scanned documents are read in (OCR). */
  document_languages: z.array(z.enum(DOCUMENT_LANGUAGES.map((l) => l.code) as [DocumentLanguage, ...DocumentLanguage[]])),
  /** False until the account chose (or the web app set the browser's languages once, as with the zone). */
  document_languages_set: z.boolean(),
  /** Issue 35: the language of the account's screens, emails, push and PDFs ('en' until chosen). */
  language: languageSchema,
  /** False while the account has no language of its own (made before languages): the web app sets the browser's once. */
  language_set: z.boolean(),
  /** Height and weight entry and display: ft/in and lbs, or cm and kg (storage stays cm and kg). */
  units: unitSystemSchema,
});
export type Preferences = z.infer<typeof preferencesSchema>;

/** PUT /api/user/preferences: any of the fields; those left out keep their value. */
export const preferencesInputSchema = z
  .object({
    time_zone: timeZoneSchema.optional(),
    reminder_email: z.boolean({ error: 'must be true or false' }).optional(),
    reminder_push: z.boolean({ error: 'must be true or false' }).optional(),
    reminder_minimal: z.boolean({ error: 'must be true or false' }).optional(),
    document_languages: documentLanguagesSchema.optional(),
    language: languageSchema.optional(),
    units: unitSystemSchema.optional(),
    // The answer's own flags: preferences read, changed and sent back whole are not refused for
    // them. They are ignored (each follows from whether its value was ever set).
    time_zone_set: z.unknown().optional(),
    document_languages_set: z.unknown().optional(),
    language_set: z.unknown().optional(),
  })
  .strict()
  .transform(({ time_zone_set: _zone, document_languages_set: _languages, language_set: _language, ...input }) => input);
export type PreferencesInput = z.infer<typeof preferencesInputSchema>;

// ---------- medication schedules ----------

export const MAX_TIMES_A_DAY = 12;
export const EVERY_DAY = [1, 2, 3, 4, 5, 6, 7] as const;

const hhmm = z.string({ error: 'must be times as HH:MM' }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be times as HH:MM (00:00 to 23:59)');

/** PUT …/medications/{medicationId}/schedule. `start_date` left out: today in the person's zone. */
export const scheduleInputSchema = z
  .object({
    times: z
      .array(hhmm, { error: 'must be a list of times as HH:MM' })
      .max(MAX_TIMES_A_DAY, `must be at most ${MAX_TIMES_A_DAY} times a day`)
      .default([])
      .transform((times) => [...new Set(times)].sort()),
    days: z
      .array(
        z
          .number({ error: 'must be ISO weekdays 1 to 7' })
          .int('must be ISO weekdays 1 to 7')
          .min(1, 'must be ISO weekdays 1 to 7')
          .max(7, 'must be ISO weekdays 1 to 7'),
        {
          error: 'must be a list of ISO weekdays 1 to 7',
        },
      )
      .min(1, 'must name at least one day')
      .default([...EVERY_DAY])
      .transform((days) => [...new Set(days)].sort((a, b) => a - b)),
    /** Null is the same as left out. */
    start_date: z.union([isoDateSchema, z.null()]).optional(),
    end_date: z.union([isoDateSchema, z.null()]).default(null),
    as_needed: z.boolean({ error: 'must be true or false' }).default(false),
    dose_units: z.number({ error: 'must be a number' }).positive('must be more than 0').max(1000, 'must be at most 1000').default(1),
    quantity_on_hand: z
      .union([z.number({ error: 'must be a number or null' }).min(0, 'must be 0 or more').max(100_000, 'must be at most 100000'), z.null()])
      .default(null),
    refill_remind_days: z
      .union([z.number().int('must be whole days').min(0, 'must be 0 or more').max(90, 'must be at most 90'), z.null()], {
        error: 'must be whole days or null',
      })
      .default(null),
    reminders: z.boolean({ error: 'must be true or false' }).default(true),
    // The answer's own fields: a client that reads a schedule, changes it and sends it back is not
    // refused for them. They are ignored (the path names the medication; the server computes the rest).
    medication_id: z.unknown().optional(),
    person_id: z.unknown().optional(),
    runs_out_on: z.unknown().optional(),
    updated_at: z.unknown().optional(),
  })
  .strict()
  .superRefine((s, ctx) => {
    if (!s.as_needed && s.times.length === 0)
      ctx.addIssue({ code: 'custom', path: ['times'], message: 'must list 1 to 12 times a day (or set as_needed)' });
    if (s.start_date && s.end_date && s.end_date < s.start_date)
      ctx.addIssue({ code: 'custom', path: ['end_date'], message: 'must not be before start_date' });
  })
  .transform(({ medication_id: _medication, person_id: _person, runs_out_on: _runsOut, updated_at: _updated, ...input }) => input);
export type ScheduleInput = z.infer<typeof scheduleInputSchema>;

/** The stored schedule, as GET and PUT answer it. */
export const scheduleSchema = z.object({
  medication_id: z.string(),
  person_id: z.string(),
  times: z.array(z.string()),
  days: z.array(z.number()),
  start_date: z.string(),
  end_date: z.string().nullable(),
  as_needed: z.boolean(),
  dose_units: z.number(),
  quantity_on_hand: z.number().nullable(),
  refill_remind_days: z.number().nullable(),
  reminders: z.boolean(),
  /** When the quantity on hand runs out at this schedule (YYYY-MM-DD), or null when not tracked. */
  runs_out_on: z.string().nullable(),
  updated_at: z.string(),
});
export type Schedule = z.infer<typeof scheduleSchema>;
/** GET /api/user/people/{personId}/schedules: every schedule of the person's medications. */
export const schedulesSchema = z.object({ schedules: z.array(scheduleSchema) });

/** What decides a schedule's local dose times. */
export type ScheduleTimes = Pick<Schedule, 'times' | 'days' | 'start_date' | 'end_date' | 'as_needed'>;

/** ISO weekday (1 Monday … 7 Sunday) of a YYYY-MM-DD date. */
export function isoWeekday(date: string): number {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
}

/** The date `days` after a YYYY-MM-DD date. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The schedule's local dose times ("YYYY-MM-DDTHH:MM", wall clock of the person's zone) on the
 * dates from `from` to `to`, both included, in order. An as-needed schedule has none.
 */
export function localDoseTimes(schedule: ScheduleTimes, from: string, to: string): string[] {
  if (schedule.as_needed) return [];
  const first = from > schedule.start_date ? from : schedule.start_date;
  const last = schedule.end_date && schedule.end_date < to ? schedule.end_date : to;
  const out: string[] = [];
  for (let date = first; date <= last; date = addDays(date, 1)) {
    if (!schedule.days.includes(isoWeekday(date))) continue;
    for (const time of schedule.times) out.push(`${date}T${time}`);
  }
  return out;
}

/** A scheduled dose's id: its medication and local time ("<medication id>.202611270800"). */
export const doseIdOf = (medicationId: string, local: string): string => `${medicationId}.${local.replace(/[-:T]/g, '')}`;

/** The medication and local time a scheduled dose's id names, or null when it names none. */
export function parseDoseId(doseId: string): { medicationId: string; local: string } | null {
  const dot = doseId.lastIndexOf('.');
  if (dot <= 0) return null;
  const digits = doseId.slice(dot + 1);
  if (!/^\d{12}$/.test(digits)) return null;
  const local = `${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6, 8)}T${digits.slice(8, 10)}:${digits.slice(10, 12)}`;
  return { medicationId: doseId.slice(0, dot), local };
}

// ---------- the dose log ----------

export const DOSE_STATUSES = ['upcoming', 'due', 'taken', 'skipped', 'missed'] as const;
export type DoseStatus = (typeof DOSE_STATUSES)[number];
/** A dose is due from its time until this many minutes after, then missed if nobody logged it. */
export const DUE_MINUTES = 60;
export const MAX_DOSE_RANGE_DAYS = 92;

export const doseSchema = z.object({
  dose_id: z.string(),
  medication_id: z.string(),
  medication_name: z.string().nullable(),
  dosage: z.string().nullable(),
  /** ISO 8601 with the person's UTC offset: "2026-11-27T08:00:00+01:00". */
  scheduled_at: z.string(),
  status: z.enum(DOSE_STATUSES),
  as_needed: z.boolean(),
  taken_at: z.string().nullable(),
  logged_at: z.string().nullable(),
  logged_by: z.string().nullable(),
});
export type Dose = z.infer<typeof doseSchema>;
export const dosesSchema = z.object({ doses: z.array(doseSchema) });

/** A date in a query: left out or empty, the same 400 as a malformed one, naming the field. */
const queryDate = z.string({ error: 'must be a date as YYYY-MM-DD' }).pipe(isoDateSchema);
export const dosesQuerySchema = z.object({ from: queryDate, to: queryDate });

const instant = z
  .string({ error: 'must be a date and time (ISO 8601)' })
  .refine((v) => v.length <= 40 && !Number.isNaN(Date.parse(v)), 'must be a date and time (ISO 8601)');

/** PUT …/doses/{doseId}. */
export const doseLogInputSchema = z
  .object({
    status: z.enum(['taken', 'skipped'], { error: 'must be "taken" or "skipped"' }),
    taken_at: instant.optional(),
  })
  .strict();
export type DoseLogInput = z.infer<typeof doseLogInputSchema>;

/** POST …/doses: an as-needed dose taken. */
export const asNeededDoseInputSchema = z
  .object({
    medication_id: z.string({ error: 'is required' }).min(1, 'is required').max(64, 'must be at most 64 characters'),
    taken_at: instant.optional(),
  })
  .strict();

export const adherenceQuerySchema = z.object({
  days: z.coerce
    .number({ error: 'must be a whole number of days' })
    .int('must be a whole number of days')
    .min(1, 'must be 1 to 92')
    .max(MAX_DOSE_RANGE_DAYS, 'must be 1 to 92')
    .default(30),
});

export const adherenceItemSchema = z.object({
  medication_id: z.string(),
  medication_name: z.string().nullable(),
  scheduled: z.number(),
  taken: z.number(),
  skipped: z.number(),
  missed: z.number(),
  /** Taken of the doses whose time is past (due ones not yet counted), 0–100; null when none. */
  percent: z.number().nullable(),
});
export const adherenceSchema = z.object({ days: z.number(), adherence: z.array(adherenceItemSchema) });
export type Adherence = z.infer<typeof adherenceSchema>;

// ---------- reminders ----------

/** GET/PUT /api/user/people/{personId}/reminder-settings: this user's choice for this person. */
export const reminderSettingsSchema = z.object({
  dose_reminders: z.boolean(),
  missed_dose_alerts: z.boolean(),
  appointment_reminders: z.boolean(),
});
export type ReminderSettings = z.infer<typeof reminderSettingsSchema>;
export const reminderSettingsInputSchema = z
  .object({
    dose_reminders: z.boolean({ error: 'must be true or false' }).optional(),
    missed_dose_alerts: z.boolean({ error: 'must be true or false' }).optional(),
    appointment_reminders: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .strict();
export const OWNER_REMINDER_DEFAULTS: ReminderSettings = { dose_reminders: true, missed_dose_alerts: false, appointment_reminders: true };
export const HOLDER_REMINDER_DEFAULTS: ReminderSettings = {
  dose_reminders: false,
  missed_dose_alerts: false,
  appointment_reminders: false,
};

/** An appointment's reminder lead times, minutes before its start. */
export const DEFAULT_REMINDER_MINUTES = [1440, 120];
export const reminderMinutesSchema = z
  .array(
    z
      .number({ error: 'must be minutes' })
      .int('must be whole minutes')
      .min(0, 'must be 0 or more')
      .max(40_320, 'must be at most 40320 (28 days)'),
    {
      error: 'must be a list of minutes',
    },
  )
  .max(5, 'must be at most 5 reminders')
  .transform((m) => [...new Set(m)].sort((a, b) => b - a));

/** POST /api/user/push-subscriptions: the browser's PushSubscription.toJSON(). */
export const pushSubscriptionInputSchema = z.object({
  endpoint: z.string({ error: 'endpoint is required' }).max(2048, 'must be at most 2048 characters').url('must be an https URL'),
  expirationTime: z.union([z.number(), z.null()]).optional(),
  keys: z.object(
    {
      p256dh: z
        .string({ error: 'keys.p256dh is required' })
        .max(200, 'must be at most 200 characters')
        .regex(/^[\w-]+={0,2}$/, 'must be base64url'),
      auth: z
        .string({ error: 'keys.auth is required' })
        .max(100, 'must be at most 100 characters')
        .regex(/^[\w-]+={0,2}$/, 'must be base64url'),
    },
    { error: 'keys must be { p256dh, auth }' },
  ),
});
/**
 * GET /api/user/push-subscriptions: one browser that receives reminders. Never its endpoint URL
 * (a capability); `label` is the browser in plain words ("Chrome on Android", describe-device.ts);
 * `this_session`: it was subscribed (or last re-subscribed) in the session asking.
 */
export const pushSubscriptionSchema = z.object({
  id: z.string(),
  endpoint_host: z.string(),
  label: z.string(),
  created_at: z.string(),
  this_session: z.boolean(),
});
export type PushSubscriptionInfo = z.infer<typeof pushSubscriptionSchema>;
export const pushSubscriptionsSchema = z.object({ subscriptions: z.array(pushSubscriptionSchema) });

// ---------- calendar feeds ----------

export const calendarFeedInputSchema = z
  .object({
    person_id: z
      .union([z.string().min(1, 'must be a person id or null').max(64, 'must be a person id or null'), z.null()], {
        error: 'must be a person id or null',
      })
      .default(null),
    include_medications: z.boolean({ error: 'must be true or false' }).default(false),
    minimal: z.boolean({ error: 'must be true or false' }).default(false),
  })
  .strict();
export const calendarFeedCreatedSchema = z.object({ id: z.string(), url: z.string(), webcal_url: z.string() });
export const calendarFeedSchema = z.object({
  id: z.string(),
  person_id: z.string().nullable(),
  person_name: z.string().nullable(),
  include_medications: z.boolean(),
  minimal: z.boolean(),
  created_at: z.string(),
  last_read_at: z.string().nullable(),
  /** Restored by an import: it has no address anyone knows until it is renewed (POST …/renew); false for a feed made here. */
  restored: z.boolean(),
});
export const calendarFeedsSchema = z.object({ feeds: z.array(calendarFeedSchema) });

// ---------- push actions ----------

/** The actions a dose reminder's push notification offers (the service worker posts them). */
export const PUSH_ACTIONS = ['taken', 'snooze'] as const;
export type PushAction = (typeof PUSH_ACTIONS)[number];
/** POST /api/push-actions: the single-use token a push carried, and the button pressed. */
export const pushActionInputSchema = z
  .object({
    token: z.string({ error: 'token is required' }).regex(/^[\w-]{43}$/, 'must be the token the notification carried'),
    action: z.enum(PUSH_ACTIONS, { error: 'must be "taken" or "snooze"' }),
  })
  .strict();
/** Minutes a snoozed reminder waits. */
export const SNOOZE_MINUTES = 10;
