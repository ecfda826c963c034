import type { Schedule, ScheduleTimes } from '@kinchart/shared/care';
import { fromFlag } from '../../lib/flags';
import type { DoseLogListed, MedicationWithSchedule, ScheduleRow } from './care.repository';
import type { DoseMedication, LoggedDose } from './dose-times';

// Stored rows → what the rules and the answers read (JSON text and 0/1 flags decoded).

/** A stored JSON list, read defensively: anything but an array of `T` is an empty list. */
function jsonList<T>(text: string, keep: (value: unknown) => value is T): T[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter(keep) : [];
  } catch {
    return [];
  }
}

export const scheduleTimesOf = (row: ScheduleRow): ScheduleTimes => ({
  times: jsonList(row.times, (v): v is string => typeof v === 'string'),
  days: jsonList(row.days, (v): v is number => typeof v === 'number'),
  start_date: row.start_date,
  end_date: row.end_date,
  as_needed: fromFlag(row.as_needed),
});

/** The stored schedule as GET and PUT answer it. */
export const scheduleAnswer = (row: ScheduleRow, runsOut: string | null): Schedule => ({
  ...scheduleTimesOf(row),
  medication_id: row.medication_id,
  person_id: row.profile_id,
  dose_units: row.dose_units,
  quantity_on_hand: row.quantity_on_hand,
  refill_remind_days: row.refill_remind_days,
  reminders: fromFlag(row.reminders),
  runs_out_on: runsOut,
  updated_at: row.updated_at,
});

export const doseMedicationOf = (m: MedicationWithSchedule): DoseMedication => ({
  id: m.id,
  name: m.medication_name,
  dosage: m.dosage,
  isCurrent: fromFlag(m.is_current),
  schedule: m.schedule ? scheduleTimesOf(m.schedule) : null,
});

export const loggedDoseOf = (row: DoseLogListed): LoggedDose => ({
  id: row.id,
  medication_id: row.medication_id,
  scheduled_local: row.scheduled_local,
  scheduled_at: row.scheduled_at,
  as_needed: fromFlag(row.as_needed),
  status: row.status,
  taken_at: row.taken_at,
  logged_at: row.logged_at,
  logged_by_name: row.logged_by_name,
});
