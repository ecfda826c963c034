import { createHash } from 'node:crypto';
import type { ScheduleInput } from '@kinchart/shared/care';
import { doseIdOf } from '@kinchart/shared/care';
import type { Db } from '../../db/database';
import { fromFlag, toFlag } from '../../lib/flags';
import { nowIso } from '../../lib/ids';
import type { DoseLogRow, ScheduleRow } from './care.repository';
import { accountCare, asNeededInstants, insertCare } from './care.repository';
import { scheduleTimesOf } from './care-rows';

// What the export and the import (decision 0004, 0046) read and write of schedules and the dose log,
// on their own connection or open transaction. The caller has decided whose rows they are.

/** A schedule as kinchart.json carries it: what PUT …/schedule takes, with its start. */
export type ScheduleExport = Required<ScheduleInput>;

/** A logged dose as kinchart.json carries it. */
export interface DoseExport {
  id: string;
  scheduled_local: string;
  scheduled_at: string;
  as_needed: boolean;
  status: 'taken' | 'skipped';
  taken_at: string | null;
  logged_at: string;
  /** The username of whoever logged it. */
  logged_by: string | null;
  units_taken: number | null;
}

/** An account's schedules and logged doses, by medication id. */
export interface AccountCare {
  schedules: Map<string, ScheduleExport>;
  doses: Map<string, DoseExport[]>;
}

/** One medication's restored schedule and doses, under the account's id for the medication. */
export interface CareRestore {
  profileId: string;
  medicationId: string;
  schedule: ScheduleInput | null;
  doses: readonly DoseExport[];
}

const scheduleExport = (row: ScheduleRow): ScheduleExport => ({
  ...scheduleTimesOf(row),
  dose_units: row.dose_units,
  quantity_on_hand: row.quantity_on_hand,
  refill_remind_days: row.refill_remind_days,
  reminders: fromFlag(row.reminders),
});

/**
 * A restored as-needed dose's id: new, and made of what the dose is — its medication and time — so
 * restoring it again adds nothing (decision 0012: records are recognised by what they say).
 */
const asNeededId = (medicationId: string, instant: string): string =>
  createHash('sha256').update(`${medicationId}|${instant}`).digest('hex').slice(0, 32);

export function careTransfer(db: Db) {
  return {
    /** Every schedule and logged dose the account holds (what the export writes). */
    async items(ownerId: string): Promise<AccountCare> {
      const { schedules, log } = await accountCare(db, ownerId);
      const doses = new Map<string, DoseExport[]>();
      for (const row of log) {
        const list = doses.get(row.medication_id) ?? [];
        list.push({
          id: row.id,
          scheduled_local: row.scheduled_local,
          scheduled_at: row.scheduled_at,
          as_needed: fromFlag(row.as_needed),
          status: row.status,
          taken_at: row.taken_at,
          logged_at: row.logged_at,
          logged_by: row.logged_by_name,
          units_taken: row.units_taken,
        });
        doses.set(row.medication_id, list);
      }
      return { schedules: new Map(schedules.map((s) => [s.medication_id, scheduleExport(s)])), doses };
    },

    /**
     * Restores schedules and doses for the account's medications. A medication that has a schedule
     * keeps it, and a dose already logged stays as it is: nothing the account holds is replaced,
     * and importing an export twice adds nothing. A dose logged by the export's own account is the
     * importing account's (`self`); anyone else's is logged by nobody known.
     */
    async restore(ownerId: string, self: { userId: string; exportUsername: string }, items: readonly CareRestore[]): Promise<void> {
      const now = nowIso();
      const schedules: ScheduleRow[] = items.flatMap(({ profileId, medicationId, schedule: s }) =>
        s
          ? [
              {
                medication_id: medicationId,
                user_id: ownerId,
                profile_id: profileId,
                times: JSON.stringify(s.as_needed ? [] : s.times),
                days: JSON.stringify(s.days),
                start_date: s.start_date ?? now.slice(0, 10),
                end_date: s.end_date,
                as_needed: toFlag(s.as_needed),
                dose_units: s.dose_units,
                quantity_on_hand: s.quantity_on_hand,
                refill_remind_days: s.refill_remind_days,
                reminders: toFlag(s.reminders),
                created_at: now,
                updated_at: now,
              },
            ]
          : [],
      );
      // An as-needed dose the account already holds (same medication, same time) is not added again.
      const held = await asNeededInstants(
        db,
        ownerId,
        items.map((i) => i.medicationId),
      );
      const fresh = (medicationId: string, d: DoseExport) =>
        !d.as_needed || !held.has(`${medicationId}|${new Date(d.scheduled_at).toISOString()}`);
      const log: DoseLogRow[] = items.flatMap(({ profileId, medicationId, doses }) =>
        doses
          .filter((d) => fresh(medicationId, d))
          .map((d) => ({
            id: d.as_needed ? asNeededId(medicationId, new Date(d.scheduled_at).toISOString()) : doseIdOf(medicationId, d.scheduled_local),
            user_id: ownerId,
            profile_id: profileId,
            medication_id: medicationId,
            scheduled_local: d.scheduled_local,
            scheduled_at: new Date(d.scheduled_at).toISOString(),
            as_needed: toFlag(d.as_needed),
            status: d.status,
            taken_at: d.taken_at === null ? null : new Date(d.taken_at).toISOString(),
            logged_at: new Date(d.logged_at).toISOString(),
            logged_by: d.logged_by !== null && d.logged_by === self.exportUsername ? self.userId : null,
            units_taken: d.units_taken,
          })),
      );
      await insertCare(db, schedules, log);
    },
  };
}
