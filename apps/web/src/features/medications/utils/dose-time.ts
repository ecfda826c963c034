import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { addDays, DUE_MINUTES, EVERY_DAY, type Dose, type DoseStatus, type Schedule } from '@kinchart/shared/care';
import { intlLocale, isAppLanguage } from '../../../i18n/languages';
import { formatDate } from '../../../lib/format';

/*
 * Issue 32, DESIGN §13: a dose's `scheduled_at` is written with the person's UTC offset at that
 * moment ("2026-11-27T08:00:00+01:00"), so its first ten characters are the person's local date and
 * the next five the local time — in the person's zone, whatever the browser's. "Today" for a
 * person is the date their offset gives to the present instant.
 */

/** The person's local date of a dose (YYYY-MM-DD). */
export const localDateOf = (dose: Pick<Dose, 'scheduled_at'>): string => dose.scheduled_at.slice(0, 10);

/** The person's local time of a dose (HH:MM). */
export const localTimeOf = (dose: Pick<Dose, 'scheduled_at'>): string => dose.scheduled_at.slice(11, 16);

/** The UTC offset, in minutes, an ISO 8601 instant is written with (0 for "Z" or none). */
export function offsetMinutesOf(instant: string): number {
  const match = /([+-])(\d{2}):?(\d{2})$/.exec(instant);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

/** The date at `now` on a clock `offset` minutes from UTC. */
export function dateAtOffset(now: Date, offset: number): string {
  return new Date(now.getTime() + offset * 60_000).toISOString().slice(0, 10);
}

/** Whether the dose falls on the person's today (read with the dose's own offset). */
export function isOnPersonsToday(dose: Pick<Dose, 'scheduled_at'>, now: Date): boolean {
  return localDateOf(dose) === dateAtOffset(now, offsetMinutesOf(dose.scheduled_at));
}

/** The person's today, from the offset of their latest dose; the browser's date when none is known. */
export function personsToday(doses: readonly Pick<Dose, 'scheduled_at'>[], now: Date): string {
  const last = doses.at(-1);
  if (last) return dateAtOffset(now, offsetMinutesOf(last.scheduled_at));
  return dateAtOffset(now, -now.getTimezoneOffset());
}

/**
 * The dates (UTC) to ask for so that every zone's today is inside: yesterday to tomorrow. Zones run
 * from UTC−12 to UTC+14, so a person's today is always one of these three days.
 */
export function todayWindow(now: Date): { from: string; to: string } {
  const today = now.toISOString().slice(0, 10);
  return { from: addDays(today, -1), to: addDays(today, 1) };
}

/** The last `days` days up to the browser's today, with a day's margin on each side for any zone. */
export function recentWindow(now: Date, days: number): { from: string; to: string } {
  const today = now.toISOString().slice(0, 10);
  return { from: addDays(today, -days), to: addDays(today, 1) };
}

/** What an unlogged dose is at `now`: upcoming before its time, due for DUE_MINUTES, then missed. */
export function statusAt(dose: Pick<Dose, 'scheduled_at'>, now: Date): DoseStatus {
  const at = Date.parse(dose.scheduled_at);
  if (now.getTime() < at) return 'upcoming';
  return now.getTime() < at + DUE_MINUTES * 60_000 ? 'due' : 'missed';
}

export const STATUS_LABELS: Record<DoseStatus, MessageDescriptor> = {
  upcoming: msg({ message: 'Upcoming', context: 'dose status' }),
  due: msg({ message: 'Due', context: 'dose status' }),
  taken: msg({ message: 'Taken', context: 'dose status' }),
  skipped: msg({ message: 'Skipped', context: 'dose status' }),
  missed: msg({ message: 'Missed', context: 'dose status' }),
};

/** A dose status in the reader's language; a status this version does not know, as the server wrote it. */
export function statusLabel(status: string): string {
  const label = (STATUS_LABELS as Partial<Record<string, MessageDescriptor>>)[status];
  return label ? i18n._(label) : status;
}

/** The locale dates, weekdays and numbers are written in (the pseudo-locale formats as English). */
export function activeIntlLocale(): string {
  return intlLocale(isAppLanguage(i18n.locale) ? i18n.locale : 'en');
}

/** Not yet logged: Take all and Taken/Skip apply. */
export const isOpen = (dose: Pick<Dose, 'status'>): boolean =>
  dose.status === 'upcoming' || dose.status === 'due' || dose.status === 'missed';

/**
 * An ISO weekday (1 Monday … 7 Sunday) named in the reader's language: 'short' ("Mon") or 'long'
 * ("Monday"). 2024-01-01 was a Monday; read in UTC, so the browser's zone cannot shift the day.
 */
export function weekdayName(day: number, width: 'short' | 'long', locale = activeIntlLocale()): string {
  return new Intl.DateTimeFormat(locale, { weekday: width, timeZone: 'UTC' }).format(new Date(Date.UTC(2024, 0, day)));
}

/** A short list ("Mon, Wed, Fri", "08:00, 20:00") with the reader's separators, and no "and". */
const shortList = (items: string[]) => new Intl.ListFormat(activeIntlLocale(), { type: 'unit', style: 'short' }).format(items);

/** The days of a schedule in words: "every day", "weekdays", "weekends" or "Mon, Wed, Fri". */
export function describeDays(days: readonly number[]): string {
  const set = [...new Set(days)].sort((a, b) => a - b);
  if (set.length === EVERY_DAY.length) return t({ message: 'every day', comment: 'When a medication is taken: 08:00, 20:00 · every day' });
  if (set.join() === '1,2,3,4,5') return t({ message: 'weekdays', comment: 'When a medication is taken: Monday to Friday' });
  if (set.join() === '6,7') return t({ message: 'weekends', comment: 'When a medication is taken: Saturday and Sunday' });
  return shortList(set.map((d) => (d >= 1 && d <= 7 ? weekdayName(d, 'short') : String(d))));
}

/** A schedule in words, as the medication item shows it: "08:00, 20:00 · every day". */
export function describeSchedule(schedule: Pick<Schedule, 'times' | 'days' | 'as_needed' | 'end_date' | 'reminders'>): string {
  const parts = schedule.as_needed
    ? [t({ message: 'As needed', comment: 'A medication taken when needed, without fixed times' })]
    : [shortList(schedule.times), describeDays(schedule.days)];
  if (schedule.end_date) {
    const date = formatDate(schedule.end_date);
    parts.push(t({ message: `until ${date}`, comment: 'The last day of a medication schedule: 08:00 · every day · until Mar 4, 2026' }));
  }
  if (!schedule.reminders) parts.push(t({ message: 'no reminders', comment: 'A medication schedule that sends no reminders' }));
  return parts.join(' · ');
}

/** What one day of a medication's strip shows. */
export type DayOutcome = 'all-taken' | 'missed' | 'to-come' | 'none';

export const OUTCOME_LABELS: Record<DayOutcome, MessageDescriptor> = {
  'all-taken': msg({ message: 'all taken', comment: "One day of a medication's last 30 days: every dose was taken" }),
  missed: msg({ message: 'some missed or skipped', comment: "One day of a medication's last 30 days" }),
  'to-come': msg({ message: 'still to come', comment: "One day of a medication's last 30 days: doses not yet due" }),
  none: msg({ message: 'none scheduled', comment: "One day of a medication's last 30 days: no dose was scheduled" }),
};

/** A day's outcome from its scheduled doses: any missed or skipped wins, then any still open. */
export function dayOutcome(doses: readonly Pick<Dose, 'status'>[]): DayOutcome {
  if (doses.length === 0) return 'none';
  if (doses.some((d) => d.status === 'missed' || d.status === 'skipped')) return 'missed';
  if (doses.every((d) => d.status === 'taken')) return 'all-taken';
  return 'to-come';
}
