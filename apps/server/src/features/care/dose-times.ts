import type { Dose, DoseStatus, ScheduleTimes } from '@kinchart/shared/care';
import { DUE_MINUTES, addDays, doseIdOf, isoWeekday, localDoseTimes } from '@kinchart/shared/care';
import { toInstant, withOffset } from '../../lib/time-zone';

// The rules that turn schedules (local wall-clock times of the person's zone, DESIGN §13) and the
// dose log into the doses a person sees, at a given moment. No I/O: the services feed them rows.

const MINUTE = 60_000;
const MAX_WEEKS = 20_000;

/** The wall clock of `zone` at `now`: "YYYY-MM-DDTHH:MM". */
export const localClock = (now: Date, zone: string): string => withOffset(now, zone).slice(0, 16);

/** A dose nobody logged, at `now`: upcoming before its time, due for DUE_MINUTES after, then missed. */
export function unloggedStatus(instant: Date, now: Date): Exclude<DoseStatus, 'taken' | 'skipped'> {
  if (now.getTime() < instant.getTime()) return 'upcoming';
  if (now.getTime() < instant.getTime() + DUE_MINUTES * MINUTE) return 'due';
  return 'missed';
}

/**
 * Local wall-clock times → instants in one zone, remembered: a list over many days and
 * medications asks for the same times again and again, and each answer costs a few Intl calls.
 */
export function instantsIn(zone: string): (local: string) => Date {
  const seen = new Map<string, Date>();
  return (local) => {
    let instant = seen.get(local);
    if (!instant) {
      // RFC 5545 §3.3.5 (lib/time-zone.ts): in a spring-forward gap the time moves on by the gap;
      // a fall-back hour's time is its first occurrence.
      instant = toInstant(`${local}:00`, zone);
      seen.set(local, instant);
    }
    return instant;
  };
}

/** A medication as the dose list needs it, with its schedule when it has one. */
export interface DoseMedication {
  id: string;
  name: string | null;
  dosage: string | null;
  isCurrent: boolean;
  /** The schedule's times, or null when the medication has none. */
  schedule: ScheduleTimes | null;
}

/** A logged dose as the dose list needs it. */
export interface LoggedDose {
  id: string;
  medication_id: string;
  scheduled_local: string;
  scheduled_at: string;
  as_needed: boolean;
  status: 'taken' | 'skipped';
  taken_at: string | null;
  logged_at: string;
  logged_by_name: string | null;
}

/** A logged dose as the API answers it; `medication` is undefined when it is gone. */
export function loggedDoseAnswer(row: LoggedDose, medication: Pick<DoseMedication, 'name' | 'dosage'> | undefined, zone: string): Dose {
  return {
    dose_id: row.id,
    medication_id: row.medication_id,
    medication_name: medication?.name ?? null,
    dosage: medication?.dosage ?? null,
    scheduled_at: withOffset(new Date(row.scheduled_at), zone),
    status: row.status,
    as_needed: row.as_needed,
    taken_at: row.taken_at ? withOffset(new Date(row.taken_at), zone) : null,
    logged_at: withOffset(new Date(row.logged_at), zone),
    logged_by: row.logged_by_name,
  };
}

/** A dose with the instant it is ordered by. */
type Placed = Dose & { at: number };

/**
 * Every dose of the person on the local dates `from`–`to`: each scheduled time of each medication
 * with a schedule, merged with the log (a logged dose keeps its row even after its schedule
 * changed; an as-needed dose is a logged row only). A medication that is no longer current has no
 * unlogged doses. Ordered by time, then medication name, then id.
 */
export function dosesOf(
  medications: readonly DoseMedication[],
  log: readonly LoggedDose[],
  range: { from: string; to: string },
  zone: string,
  now: Date,
): Dose[] {
  const byId = new Map(medications.map((m) => [m.id, m]));
  const logged = new Map(log.map((row) => [row.id, row]));
  const instant = instantsIn(zone);
  const doses: Placed[] = [];

  for (const row of log) {
    const dose = loggedDoseAnswer(row, byId.get(row.medication_id), zone);
    doses.push({ ...dose, at: new Date(row.scheduled_at).getTime() });
  }

  for (const medication of medications) {
    if (!medication.schedule || !medication.isCurrent) continue;
    for (const local of localDoseTimes(medication.schedule, range.from, range.to)) {
      const doseId = doseIdOf(medication.id, local);
      if (logged.has(doseId)) continue;
      const at = instant(local);
      doses.push({
        dose_id: doseId,
        medication_id: medication.id,
        medication_name: medication.name,
        dosage: medication.dosage,
        scheduled_at: withOffset(at, zone),
        status: unloggedStatus(at, now),
        as_needed: false,
        taken_at: null,
        logged_at: null,
        logged_by: null,
        at: at.getTime(),
      });
    }
  }

  doses.sort(
    (a, b) =>
      a.at - b.at ||
      (a.medication_name ?? '').localeCompare(b.medication_name ?? '') ||
      (a.dose_id < b.dose_id ? -1 : a.dose_id > b.dose_id ? 1 : 0),
  );
  return doses.map(({ at: _at, ...dose }) => dose);
}

/** Whether `local` is one of the schedule's dose times (a scheduled dose's id must name one). */
export const isScheduledTime = (schedule: ScheduleTimes, local: string): boolean =>
  localDoseTimes(schedule, local.slice(0, 10), local.slice(0, 10)).includes(local);

/**
 * The date the quantity on hand runs out at `doseUnits` a dose: the date of the last dose it still
 * covers, counting `pendingToday` doses still to take today and then the schedule's days and times
 * from tomorrow (its start and end respected). Today when it covers none; null when the schedule
 * ends (or has no doses left) before it runs out. Whole weeks are counted, not walked, so a large
 * quantity costs no more than a small one.
 */
export function runsOutOn(
  schedule: ScheduleTimes,
  quantity: number,
  doseUnits: number,
  today: string,
  pendingToday: number,
): string | null {
  if (schedule.as_needed || doseUnits <= 0) return null;
  if (schedule.end_date && schedule.end_date < today) return null;
  // A tiny tolerance: 0.3 / 0.1 is 2.9999999999999996 in floating point, and covers 3 doses.
  let left = Math.floor(quantity / doseUnits + 1e-9);
  if (left <= pendingToday) return today;
  left -= pendingToday;
  const perWeek = schedule.times.length * schedule.days.length;
  if (perWeek === 0) return null;
  const tomorrow = addDays(today, 1);
  let date = schedule.start_date > tomorrow ? schedule.start_date : tomorrow;
  const weeks = Math.floor((left - 1) / perWeek);
  // Beyond a couple of centuries "runs out" means nothing (and dates past year 9999 do not print).
  if (weeks > MAX_WEEKS) return null;
  date = addDays(date, weeks * 7);
  left -= weeks * perWeek;
  for (let i = 0; i < 7; i += 1, date = addDays(date, 1)) {
    if (!schedule.days.includes(isoWeekday(date))) continue;
    left -= schedule.times.length;
    if (left <= 0) break;
  }
  return schedule.end_date && date > schedule.end_date ? null : date;
}
