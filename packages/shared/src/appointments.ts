import { z } from 'zod';
import { isoDateSchema } from './common';
import { reminderMinutesSchema } from './care';

// SPEC §3 Appointment, §5 Appointment form, §7 Appointments.

const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;
const ZONED_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * start_time / end_time: the spec's `date + 'T' + time` (a wall-clock time, kept as the user
 * typed it, seconds added), a full ISO instant with a zone (normalised to UTC), or null.
 */
export const appointmentTimeSchema = z
  .union([z.string(), z.null()])
  .optional()
  .transform((v, ctx) => {
    if (v === null || v === undefined || v.trim() === '') return null;
    const value = v.trim();
    if (ZONED_TIME.test(value) && !Number.isNaN(Date.parse(value))) return new Date(value).toISOString();
    if (LOCAL_TIME.test(value) && !Number.isNaN(Date.parse(value))) {
      const [date, time = ''] = value.split('T');
      const hms = time.length === 5 ? `${time}:00` : time.slice(0, 8);
      const [h, m, s] = hms.split(':').map(Number);
      if ((h ?? 99) < 24 && (m ?? 99) < 60 && (s ?? 99) < 60) return `${date}T${hms}`;
    }
    ctx.addIssue({ code: 'custom', message: 'must be a date and time like 2026-05-01T14:30' });
    return z.NEVER;
  });

/** Milliseconds for ordering two times of the same kind (wall-clock times compare as if UTC). */
export const timeOrder = (t: string): number => Date.parse(/[Z+-]\d{0,2}:?\d{0,2}$/.test(t.slice(19)) ? t : `${t}Z`);

/**
 * SPEC §3 Appointment: what an appointment is, without whose it is or its bookkeeping — the one
 * list of its fields. The table's columns (server db/schema.ts), the repository's select, the
 * import's rows, the FHIR collection and plan, the export's entry and the forms derive from it.
 */
export const appointmentValuesSchema = z.object({
  appointment_date: z.string(),
  start_time: z.string().nullable(),
  end_time: z.string().nullable(),
  provider_name: z.string(),
  reason_for_visit: z.string().nullable(),
  location: z.string().nullable(),
});
export type AppointmentValues = z.infer<typeof appointmentValuesSchema>;
export type AppointmentField = keyof AppointmentValues;
export const APPOINTMENT_FIELDS = Object.keys(appointmentValuesSchema.shape) as AppointmentField[];

/** The appointment fields of any row, answer, plan or export entry that holds them (and nothing else). */
export const appointmentValuesOf = (a: AppointmentValues): AppointmentValues =>
  Object.fromEntries(APPOINTMENT_FIELDS.map((field) => [field, a[field]])) as AppointmentValues;

/**
 * A schema for each appointment field, whose output is that field's value: a shape written with it
 * can neither miss a field nor carry one that is not an appointment's.
 */
export type AppointmentFieldSchemas = { [K in AppointmentField]: z.ZodType<AppointmentValues[K], unknown> };

/** What a form or a client sends, field by field: every appointment field, each with its rule and message. */
const appointmentInputFields = {
  appointment_date: z.string({ message: 'Appointment date is required' }).trim().min(1, 'Appointment date is required').pipe(isoDateSchema),
  start_time: appointmentTimeSchema,
  end_time: appointmentTimeSchema,
  provider_name: z
    .string({ message: 'Provider name is required' })
    .trim()
    .min(1, 'Provider name is required')
    .max(200, 'Provider name must be at most 200 characters'),
  reason_for_visit: z
    .union([z.string().max(1000, 'Reason for visit must be at most 1000 characters'), z.null()])
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : null)),
  location: z
    .union([z.string().max(500, 'Location must be at most 500 characters'), z.null()])
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : null)),
} satisfies AppointmentFieldSchemas;

export const appointmentInputSchema = z
  .object({
    ...appointmentInputFields,
    /** DESIGN §11: the person the appointment is for (the form's "For"); absent → your own profile. */
    person_id: z
      .union([z.string().max(100, 'person_id must be at most 100 characters'), z.null()])
      .optional()
      .transform((v) => (v?.trim() ? v.trim() : undefined)),
    /**
     * Issue 32: reminder lead times in minutes before the start. Left out: [1440, 120] on create,
     * unchanged on update.
     */
    reminder_minutes: reminderMinutesSchema.optional(),
  })
  .refine((a) => !a.start_time || !a.end_time || timeOrder(a.end_time) >= timeOrder(a.start_time), {
    message: 'End time cannot be before the start time',
    path: ['end_time'],
  });
export type AppointmentInput = z.input<typeof appointmentInputSchema>;
/** An appointment's fields after validation: what the server stores. */
export type AppointmentFields = z.output<typeof appointmentInputSchema>;

export const appointmentSchema = z.object({
  appointment_id: z.string(),
  id: z.string(),
  ...appointmentValuesSchema.shape,
  created_at: z.string(),
  /** DESIGN §4, §11: the person the appointment belongs to, and that person's name. */
  person_id: z.string(),
  person_name: z.string().nullable(),
  /** Issue 32: the reminder lead times in minutes before the start, longest first. */
  reminder_minutes: z.array(z.number()),
});
export type Appointment = z.infer<typeof appointmentSchema>;

/** POST (201) and PUT (200) /api/user/appointments…: the stored appointment and a message. */
export const appointmentResponseSchema = appointmentSchema.extend({ message: z.string() });

/**
 * SPEC §3: the calendar event spans start_time..end_time; a missing start is 00:00:00 and a
 * missing end 23:59:59 of the appointment date. Returns wall-clock strings or ISO instants.
 */
export function appointmentSpan(a: Pick<Appointment, 'appointment_date' | 'start_time' | 'end_time'>): { start: string; end: string } {
  return {
    start: a.start_time ?? `${a.appointment_date}T00:00:00`,
    end: a.end_time ?? `${a.appointment_date}T23:59:59`,
  };
}

/** SPEC §3: the calendar event title is the provider name plus the reason. */
export const appointmentTitle = (a: Pick<Appointment, 'provider_name' | 'reason_for_visit'>): string =>
  a.reason_for_visit ? `${a.provider_name} - ${a.reason_for_visit}` : a.provider_name;

/**
 * A calendar title that says whose appointment it is: SPEC §3's title for your own, and the
 * person's name before it for anyone else's ("Mia: Dr Lee - Check-up"; DESIGN §11).
 */
export function personAppointmentTitle(
  a: Pick<Appointment, 'provider_name' | 'reason_for_visit'>,
  person: { name: string | null; own: boolean },
): string {
  const title = appointmentTitle(a);
  if (person.own) return title;
  return `${person.name?.trim() || 'Family member'}: ${title}`;
}
