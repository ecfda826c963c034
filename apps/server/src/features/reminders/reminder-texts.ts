import { addDays } from '@kinchart/shared/care';

// What a reminder says (issue 32, DESIGN §13): the person's name and the medication or the provider
// — never a dosage or other health data — or only the person's name when the recipient asked for
// "minimal" email and push. The in-app notice (inside the signed-in app) always names the medication.

export type ReminderKind = 'dose' | 'missed' | 'refill' | 'appointment' | 'snooze';

export interface ReminderFacts {
  kind: ReminderKind;
  /** The person's display name, as the recipient sees it ("Mia Rivera"; "you" for the recipient's own profile). */
  person: string;
  /** The medication's name, or the appointment's provider. */
  subject: string | null;
  /** The local time the dose is at ("08:00"), the runs-out date, or the appointment's wording ("tomorrow at 9:30"). */
  when: string;
  late: boolean;
}

export interface ReminderText {
  title: string;
  body: string;
}

const TITLES: Record<ReminderKind, string> = {
  dose: 'Medication reminder',
  snooze: 'Medication reminder',
  missed: 'Dose not logged',
  refill: 'Refill reminder',
  appointment: 'Appointment reminder',
};

/** The words of one reminder, full (in-app, or email and push when not minimal) or minimal. */
export function reminderText(f: ReminderFacts, minimal: boolean): ReminderText {
  const subject = minimal ? null : f.subject;
  const late = f.late ? ' (late)' : '';
  const possessive = f.person === 'you' ? 'your' : `${f.person}'s`;
  // "Mia Rivera: time for …", or "Time for …" for the recipient's own profile.
  const say = (words: string) => (f.person === 'you' ? `${words.charAt(0).toUpperCase()}${words.slice(1)}` : `${f.person}: ${words}`);
  switch (f.kind) {
    case 'dose':
    case 'snooze':
      return {
        title: `${TITLES[f.kind]}${late}`,
        body: say(subject ? `time for ${subject} (${f.when}).` : `time for a dose (${f.when}).`),
      };
    case 'missed':
      return {
        title: `${TITLES.missed}${late}`,
        body: say(subject ? `${subject} at ${f.when} was not logged.` : `a dose at ${f.when} was not logged.`),
      };
    case 'refill':
      return {
        title: `${TITLES.refill}${late}`,
        body: say(subject ? `${subject} runs out around ${f.when}.` : `a medication runs out around ${f.when}.`),
      };
    case 'appointment': {
      // The notice's title before issue 32 was "Appointment tomorrow": kept for the day-before one.
      const title = f.when.startsWith('tomorrow') ? 'Appointment tomorrow' : TITLES.appointment;
      return {
        title: `${title}${late}`,
        body: subject
          ? `Reminder: ${possessive} appointment with ${subject} is ${f.when}.`
          : `Reminder: ${f.person === 'you' ? 'you have' : `${f.person} has`} an appointment ${f.when}.`,
      };
    }
  }
}

/** "9:30" for 09:30, "14:05" for 14:05 (a local wall-clock "HH:MM"). */
const clock = (hhmm: string): string => hhmm.replace(/^0(\d)/, '$1');

const DATE_FORMAT = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'long', month: 'long', day: 'numeric' });

/**
 * When an appointment is, seen from the reminder's local time `nowLocal` ("YYYY-MM-DDTHH:MM", the
 * person's zone) to its start `startLocal` (same zone), `minutesAhead` apart in real time: "in 2
 * hours", "in 30 minutes", "today at 16:00", "tomorrow at 9:30", or "on Friday, March 5 at 9:30".
 * Without a start time (`startLocal` a date only), "today", "tomorrow" or "on …".
 */
export function appointmentWhen(nowLocal: string, startLocal: string, minutesAhead: number): string {
  const today = nowLocal.slice(0, 10);
  const date = startLocal.slice(0, 10);
  const time = startLocal.length > 10 ? clock(startLocal.slice(11, 16)) : null;
  const at = time ? ` at ${time}` : '';
  if (time && minutesAhead > 0 && minutesAhead < 60) return `in ${minutesAhead} minute${minutesAhead === 1 ? '' : 's'}`;
  if (time && minutesAhead >= 60 && minutesAhead < 12 * 60 && minutesAhead % 60 === 0) {
    const hours = minutesAhead / 60;
    return `in ${hours} hour${hours === 1 ? '' : 's'}`;
  }
  if (date === today) return `today${at}`;
  if (date === addDays(today, 1)) return `tomorrow${at}`;
  return `on ${DATE_FORMAT.format(new Date(`${date}T00:00:00Z`))}${at}`;
}
