import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/database';
import { lockAccount } from '../../db/account-lock.repository';
import type { DoseLogTable, MedicationSchedulesTable } from '../../db/schema';

// The only place that speaks SQL for medication schedules and the dose log (issue 32, DESIGN §13).
// Every statement carries the person's owner (user_id) and the person (profile_id), or the id of a
// row the service has already tied to a person it checked with the one access function (DESIGN §11).

export type ScheduleRow = Selectable<MedicationSchedulesTable>;
export type DoseLogRow = Selectable<DoseLogTable>;
export type DoseLogInsert = Insertable<DoseLogTable>;
/** A dose log row and the username of whoever logged it. */
export type DoseLogListed = DoseLogRow & { logged_by_name: string | null };

/** A medication of the person, with its schedule's columns when it has one (schedule_* null otherwise). */
export interface MedicationWithSchedule {
  id: string;
  user_id: string;
  profile_id: string;
  medication_name: string | null;
  dosage: string | null;
  is_current: number;
  schedule: ScheduleRow | null;
}

/** The schedule's columns as written by PUT …/schedule (ids and stamps come from the caller). */
export type ScheduleValues = Omit<ScheduleRow, 'created_at'>;

export function careQueries(db: Db) {
  const medicationColumns = [
    'medications.id',
    'medications.user_id',
    'medications.profile_id',
    'medications.medication_name',
    'medications.dosage',
    'medications.is_current',
  ] as const;

  const listedLog = () =>
    db
      .selectFrom('dose_log')
      .leftJoin('users', 'users.id', 'dose_log.logged_by')
      .selectAll('dose_log')
      .select('users.username as logged_by_name');

  return {
    /** One medication of the person (owner and person both match), or undefined. */
    medication(ownerId: string, profileId: string, medicationId: string) {
      return db
        .selectFrom('medications')
        .select(medicationColumns)
        .where('id', '=', medicationId)
        .where('user_id', '=', ownerId)
        .where('profile_id', '=', profileId)
        .executeTakeFirst();
    },

    /** A medication by its id alone, with its person's name: what a scheduled dose's id names. */
    medicationById(medicationId: string) {
      return db
        .selectFrom('medications')
        .innerJoin('profiles', 'profiles.id', 'medications.profile_id')
        .select([...medicationColumns, 'profiles.name as person_name'])
        .where('medications.id', '=', medicationId)
        .whereRef('profiles.user_id', '=', 'medications.user_id')
        .executeTakeFirst();
    },

    /** The account that owns a person, or undefined when there is no such person. */
    async ownerOf(profileId: string): Promise<string | undefined> {
      const row = await db.selectFrom('profiles').select('user_id').where('id', '=', profileId).executeTakeFirst();
      return row?.user_id;
    },

    schedule(ownerId: string, profileId: string, medicationId: string): Promise<ScheduleRow | undefined> {
      return db
        .selectFrom('medication_schedules')
        .selectAll()
        .where('medication_id', '=', medicationId)
        .where('user_id', '=', ownerId)
        .where('profile_id', '=', profileId)
        .executeTakeFirst();
    },

    /** Every medication of the person with its schedule, if any (left join). */
    async medicationsWithSchedules(ownerId: string, profileId: string): Promise<MedicationWithSchedule[]> {
      const [medications, schedules] = await Promise.all([
        db
          .selectFrom('medications')
          .select(medicationColumns)
          .where('user_id', '=', ownerId)
          .where('profile_id', '=', profileId)
          .orderBy('position')
          .orderBy('created_at')
          .orderBy('id')
          .execute(),
        db.selectFrom('medication_schedules').selectAll().where('user_id', '=', ownerId).where('profile_id', '=', profileId).execute(),
      ]);
      const byMedication = new Map(schedules.map((s) => [s.medication_id, s]));
      return medications.map((m) => ({ ...m, schedule: byMedication.get(m.id) ?? null }));
    },

    /** Writes the schedule (one per medication): inserted, or replaced in place. */
    async upsertSchedule(values: ScheduleValues, createdAt: string): Promise<ScheduleRow> {
      const { medication_id: _id, user_id: _user, profile_id: _profile, ...changes } = values;
      return db
        .insertInto('medication_schedules')
        .values({ ...values, created_at: createdAt })
        .onConflict((oc) => oc.column('medication_id').doUpdateSet(changes))
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    async deleteSchedule(ownerId: string, profileId: string, medicationId: string): Promise<boolean> {
      const result = await db
        .deleteFrom('medication_schedules')
        .where('medication_id', '=', medicationId)
        .where('user_id', '=', ownerId)
        .where('profile_id', '=', profileId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** The quantity on hand after taking or giving back (the service computed it). */
    async setQuantity(ownerId: string, medicationId: string, quantity: number, updatedAt: string): Promise<void> {
      await db
        .updateTable('medication_schedules')
        .set({ quantity_on_hand: quantity, updated_at: updatedAt })
        .where('medication_id', '=', medicationId)
        .where('user_id', '=', ownerId)
        .execute();
    },

    /** The person's logged doses whose local time falls on the dates from `from` to `to` (both included). */
    logOfPerson(ownerId: string, profileId: string, from: string, to: string): Promise<DoseLogListed[]> {
      return listedLog()
        .where('dose_log.user_id', '=', ownerId)
        .where('dose_log.profile_id', '=', profileId)
        .where('dose_log.scheduled_local', '>=', `${from}T00:00`)
        .where('dose_log.scheduled_local', '<=', `${to}T23:59`)
        .execute();
    },

    /** One logged dose of the person, or undefined. */
    loggedDose(ownerId: string, profileId: string, doseId: string): Promise<DoseLogListed | undefined> {
      return listedLog()
        .where('dose_log.id', '=', doseId)
        .where('dose_log.user_id', '=', ownerId)
        .where('dose_log.profile_id', '=', profileId)
        .executeTakeFirst();
    },

    /** A logged dose by its id alone (what a reminder's dose id names). */
    loggedDoseById(doseId: string): Promise<DoseLogListed | undefined> {
      return listedLog().where('dose_log.id', '=', doseId).executeTakeFirst();
    },

    /** The local times of one medication's logged doses on a date ("YYYY-MM-DDTHH:MM"). */
    async loggedTimesOn(ownerId: string, medicationId: string, date: string): Promise<string[]> {
      const rows = await db
        .selectFrom('dose_log')
        .select('scheduled_local')
        .where('user_id', '=', ownerId)
        .where('medication_id', '=', medicationId)
        .where('scheduled_local', '>=', `${date}T00:00`)
        .where('scheduled_local', '<=', `${date}T23:59`)
        .execute();
      return rows.map((r) => r.scheduled_local);
    },

    async insertLog(row: DoseLogInsert): Promise<void> {
      await db.insertInto('dose_log').values(row).execute();
    },

    async updateLog(
      ownerId: string,
      doseId: string,
      changes: Pick<DoseLogRow, 'status' | 'taken_at' | 'logged_at' | 'logged_by' | 'units_taken'>,
    ): Promise<void> {
      await db.updateTable('dose_log').set(changes).where('id', '=', doseId).where('user_id', '=', ownerId).execute();
    },

    async deleteLog(ownerId: string, doseId: string): Promise<boolean> {
      const result = await db.deleteFrom('dose_log').where('id', '=', doseId).where('user_id', '=', ownerId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

export type CareQueries = ReturnType<typeof careQueries>;

export function createCareRepository(db: Db) {
  return {
    ...careQueries(db),
    /**
     * Runs `work` in one transaction holding the owner's account lock, so that a dose's log row and
     * the quantity on hand change together and parallel logs of one dose see each other.
     */
    transaction<T>(ownerId: string, work: (q: CareQueries, trx: Db) => Promise<T>): Promise<T> {
      return db.transaction().execute(async (trx) => {
        await lockAccount(trx, ownerId);
        return work(careQueries(trx), trx);
      });
    },
  };
}

// ---------- the export's and the import's share (care-transfer.ts, on their own connection or transaction) ----------

/** Every schedule and logged dose the account holds, the log with its loggers' usernames. */
export async function accountCare(db: Db, ownerId: string): Promise<{ schedules: ScheduleRow[]; log: DoseLogListed[] }> {
  const [schedules, log] = await Promise.all([
    db.selectFrom('medication_schedules').selectAll().where('user_id', '=', ownerId).orderBy('medication_id').execute(),
    db
      .selectFrom('dose_log')
      .leftJoin('users', 'users.id', 'dose_log.logged_by')
      .selectAll('dose_log')
      .select('users.username as logged_by_name')
      .where('dose_log.user_id', '=', ownerId)
      .orderBy('dose_log.scheduled_local')
      .orderBy('dose_log.id')
      .execute(),
  ]);
  return { schedules, log };
}

/** The instants of the account's as-needed doses of these medications ("medication id|ISO instant"). */
export async function asNeededInstants(db: Db, ownerId: string, medicationIds: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < medicationIds.length; i += 500) {
    const rows = await db
      .selectFrom('dose_log')
      .select(['medication_id', 'scheduled_at'])
      .where('user_id', '=', ownerId)
      .where('as_needed', '=', 1)
      .where('medication_id', 'in', medicationIds.slice(i, i + 500))
      .execute();
    for (const r of rows) found.add(`${r.medication_id}|${r.scheduled_at}`);
  }
  return found;
}

/** Writes restored schedules and log rows; a medication's schedule or a dose already there stays as it is. */
export async function insertCare(db: Db, schedules: readonly ScheduleRow[], log: readonly DoseLogRow[]): Promise<void> {
  // In slices: PostgreSQL takes at most 65,535 parameters in one statement (up to 14 a row here).
  const SLICE = 1000;
  for (let i = 0; i < schedules.length; i += SLICE) {
    await db
      .insertInto('medication_schedules')
      .values(schedules.slice(i, i + SLICE))
      .onConflict((oc) => oc.column('medication_id').doNothing())
      .execute();
  }
  for (let i = 0; i < log.length; i += SLICE) {
    await db
      .insertInto('dose_log')
      .values(log.slice(i, i + SLICE))
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  }
}
