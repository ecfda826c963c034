import { addDays } from '@kinchart/shared/care';
import { inTime, localDay, wallClock, weekdayDate } from '../../i18n/formats';
import { translator, type Translator } from '../../i18n/translator';

// What a reminder says (issue 32, DESIGN §13): the person's name and the medication or the provider
// — never a dosage or other health data — or only the person's name when the recipient asked for
// "minimal" email and push. The in-app notice (inside the signed-in app) always names the medication.
// Issue 35: in the recipient's language (the server catalog's `reminder.*`), times and dates through Intl.

export type ReminderKind = 'dose' | 'missed' | 'refill' | 'appointment' | 'snooze';

/** When, as facts: a dose's local "HH:MM", a runs-out date, or an appointment seen from the reminder's local minute. */
export type ReminderWhen =
  | { at: 'clock'; time: string }
  | { at: 'date'; date: string }
  | { at: 'appointment'; nowLocal: string; startLocal: string; minutesAhead: number };

export interface ReminderFacts {
  kind: ReminderKind;
  /** The person's display name as the recipient sees it; null for the recipient's own profile ("you"). */
  person: string | null;
  /** The medication's name, or the appointment's provider. */
  subject: string | null;
  when: ReminderWhen;
  late: boolean;
}

export interface ReminderText {
  title: string;
  body: string;
}

const TITLES: Record<ReminderKind, string> = {
  dose: 'reminder.title.dose',
  snooze: 'reminder.title.dose',
  missed: 'reminder.title.missed',
  refill: 'reminder.title.refill',
  appointment: 'reminder.title.appointment',
};

const BODIES: Record<ReminderKind, string> = {
  dose: 'reminder.dose',
  snooze: 'reminder.dose',
  missed: 'reminder.missed',
  refill: 'reminder.refill',
  appointment: 'reminder.appointment',
};

/** The words of one reminder in `tr`'s language, full (in-app, or email and push when not minimal) or minimal. */
export function reminderText(f: ReminderFacts, minimal: boolean, tr: Translator = translator('en')): ReminderText {
  const subject = minimal ? null : f.subject;
  const moment = f.when.at === 'appointment' ? appointmentMoment(f.when.nowLocal, f.when.startLocal, f.when.minutesAhead) : undefined;
  // The notice's title before issue 32 was "Appointment tomorrow": kept for the day-before one.
  const titleId = moment?.day === 'tomorrow' ? 'reminder.title.appointment_tomorrow' : TITLES[f.kind];
  const title = tr.t(titleId);
  const when = whenText(f.when, tr);
  const own = f.person === null;
  const id = `${BODIES[f.kind]}.${own ? 'own' : 'other'}${subject ? '' : '_minimal'}`;
  const body = tr.t(id, { person: f.person ?? '', subject: subject ?? '', when });
  return {
    title: f.late ? tr.t('reminder.title.late', { title }) : title,
    // "Time for …" for one's own profile; a medication's name that starts the sentence starts with a capital.
    body: own ? `${body.charAt(0).toUpperCase()}${body.slice(1)}` : body,
  };
}

/** The words of `when` in `tr`'s language. */
export function whenText(when: ReminderWhen, tr: Translator): string {
  switch (when.at) {
    case 'clock':
      return wallClock(when.time, tr.language);
    case 'date':
      return localDay(when.date, tr.language);
    case 'appointment':
      return appointmentWhen(when.nowLocal, when.startLocal, when.minutesAhead, tr);
  }
}

type Moment =
  { day: 'in'; value: number; unit: 'minute' | 'hour' } | { day: 'today' | 'tomorrow' | 'on'; date: string; time: string | null };

/** When an appointment is, as facts (see appointmentWhen). */
export function appointmentMoment(nowLocal: string, startLocal: string, minutesAhead: number): Moment {
  const today = nowLocal.slice(0, 10);
  const date = startLocal.slice(0, 10);
  const time = startLocal.length > 10 ? startLocal.slice(11, 16) : null;
  if (time && minutesAhead > 0 && minutesAhead < 60) return { day: 'in', value: minutesAhead, unit: 'minute' };
  if (time && minutesAhead >= 60 && minutesAhead < 12 * 60 && minutesAhead % 60 === 0)
    return { day: 'in', value: minutesAhead / 60, unit: 'hour' };
  if (date === today) return { day: 'today', date, time };
  if (date === addDays(today, 1)) return { day: 'tomorrow', date, time };
  return { day: 'on', date, time };
}

/**
 * When an appointment is, seen from the reminder's local time `nowLocal` ("YYYY-MM-DDTHH:MM", the
 * person's zone) to its start `startLocal` (same zone), `minutesAhead` apart in real time: "in 2
 * hours", "in 30 minutes", "today at 16:00", "tomorrow at 9:30", or "on Friday, March 5 at 9:30"
 * in English; the same in `tr`'s language (Intl.RelativeTimeFormat and DateTimeFormat).
 * Without a start time (`startLocal` a date only), "today", "tomorrow" or "on …".
 */
export function appointmentWhen(nowLocal: string, startLocal: string, minutesAhead: number, tr: Translator = translator('en')): string {
  const m = appointmentMoment(nowLocal, startLocal, minutesAhead);
  if (m.day === 'in') return inTime(m.value, m.unit, tr.language);
  const time = m.time ? wallClock(m.time, tr.language, 'clock') : null;
  if (m.day === 'on') {
    const date = weekdayDate(m.date, tr.language);
    return time ? tr.t('reminder.when.on_at', { date, time }) : tr.t('reminder.when.on', { date });
  }
  return time ? tr.t(`reminder.when.${m.day}_at`, { time }) : tr.t(`reminder.when.${m.day}`);
}
