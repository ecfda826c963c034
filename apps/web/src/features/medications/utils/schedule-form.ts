import { EVERY_DAY, MAX_TIMES_A_DAY, scheduleInputSchema, type Schedule, type ScheduleInput } from '@kinchart/shared/care';
import { translateMessageText } from '../../../i18n/message-text';
import { ApiError, isRecord, serverMessage } from '../../../lib/api-client';

/*
 * The schedule editor's values as the inputs hold them (text), the body they make, and the
 * messages of the shared schema at the fields they belong to — the same rules the server applies
 * (packages/shared/src/care.ts), so the server's 400 is shown at the same place.
 */

export interface ScheduleFormValues {
  times: string[];
  days: number[];
  start_date: string;
  end_date: string;
  as_needed: boolean;
  dose_units: string;
  quantity_on_hand: string;
  refill_remind_days: string;
  reminders: boolean;
}

export type ScheduleField = Exclude<keyof ScheduleFormValues, 'times'>;

/** Errors by field; `times` by the index of the input (-1: the list as a whole). */
export interface ScheduleFormErrors {
  fields: Partial<Record<ScheduleField, string>>;
  times: Record<number, string>;
  /** A refusal that names no field of the form. */
  form?: string;
}

export const NO_ERRORS: ScheduleFormErrors = { fields: {}, times: {} };

export const hasErrors = (errors: ScheduleFormErrors): boolean =>
  Object.values(errors.fields).some(Boolean) || Object.keys(errors.times).length > 0 || errors.form !== undefined;

const text = (value: number | null | undefined): string => (value === null || value === undefined ? '' : String(value));

/** The form for a stored schedule, or a new one: one time at 08:00, every day. */
export function toScheduleFormValues(schedule: Schedule | null): ScheduleFormValues {
  return {
    times: schedule ? (schedule.as_needed && schedule.times.length === 0 ? ['08:00'] : [...schedule.times]) : ['08:00'],
    days: schedule ? [...schedule.days] : [...EVERY_DAY],
    start_date: schedule?.start_date ?? '',
    end_date: schedule?.end_date ?? '',
    as_needed: schedule?.as_needed ?? false,
    dose_units: text(schedule?.dose_units ?? 1),
    quantity_on_hand: text(schedule?.quantity_on_hand),
    refill_remind_days: text(schedule?.refill_remind_days),
    reminders: schedule?.reminders ?? true,
  };
}

/** A number field: empty is `empty`; text that is no number goes as it is, for the schema to refuse. */
function numberOf<T>(value: string, empty: T): number | string | T {
  const trimmed = value.trim();
  if (trimmed === '') return empty;
  const n = Number(trimmed);
  return Number.isNaN(n) ? trimmed : n;
}

/** The PUT body the form makes (before validation). */
export function toScheduleBody(values: ScheduleFormValues): Record<string, unknown> {
  return {
    times: values.as_needed ? [] : values.times.map((t) => t.trim()),
    days: values.days,
    ...(values.start_date ? { start_date: values.start_date } : {}),
    end_date: values.end_date || null,
    as_needed: values.as_needed,
    dose_units: numberOf(values.dose_units, 1),
    quantity_on_hand: numberOf(values.quantity_on_hand, null),
    refill_remind_days: numberOf(values.refill_remind_days, null),
    reminders: values.reminders,
  };
}

const FIELDS: readonly string[] = [
  'days',
  'start_date',
  'end_date',
  'as_needed',
  'dose_units',
  'quantity_on_hand',
  'refill_remind_days',
  'reminders',
];

/**
 * A shared schema's message in the reader's language, with the field names inside it read as words
 * ("must not be before start_date" → "… start date") when it stays English.
 */
const readable = (message: string) =>
  translateMessageText(message).replace(/\b(start_date|end_date|as_needed)\b/g, (m) => m.replace('_', ' '));

/** Puts one message at its field: `path` as zod gives it, or read from the server's "field.0: message". */
function place(errors: ScheduleFormErrors, path: readonly PropertyKey[], message: string): ScheduleFormErrors {
  const [field, index] = path;
  if (field === 'times') {
    const at = typeof index === 'number' ? index : -1;
    return at in errors.times ? errors : { ...errors, times: { ...errors.times, [at]: readable(message) } };
  }
  if (typeof field === 'string' && FIELDS.includes(field)) {
    const key = field as ScheduleField;
    return errors.fields[key] ? errors : { ...errors, fields: { ...errors.fields, [key]: readable(message) } };
  }
  return errors.form ? errors : { ...errors, form: translateMessageText(message) };
}

/** Validates the form with the shared schema: the body to send, or the messages by field. */
export function validateSchedule(values: ScheduleFormValues): { input: ScheduleInput } | { errors: ScheduleFormErrors } {
  const result = scheduleInputSchema.safeParse(toScheduleBody(values));
  if (result.success) return { input: result.data };
  let errors = NO_ERRORS;
  for (const issue of result.error.issues) errors = place(errors, issue.path, issue.message);
  return { errors };
}

/**
 * The server's 400 ("times.0: must be times as HH:MM", "end_date: must not be before start_date") at
 * its field. The field is read from the English `message` the API keeps; the words shown are the
 * reader's.
 */
export function serverScheduleErrors(error: unknown, fallback: string): ScheduleFormErrors {
  const message = serverMessage(error);
  if (!(error instanceof ApiError) || error.status !== 400 || !message) return { ...NO_ERRORS, form: message ?? fallback };
  const english = isRecord(error.body) && typeof error.body.message === 'string' ? error.body.message : '';
  const match = /^([a-z_]+)(?:\.(\d+))?: (.+)$/.exec(english);
  if (!match?.[1] || !match[3]) return { ...NO_ERRORS, form: message };
  return place(NO_ERRORS, match[2] === undefined ? [match[1]] : [match[1], Number(match[2])], match[3]);
}

export const canAddTime = (values: ScheduleFormValues): boolean => values.times.length < MAX_TIMES_A_DAY;
