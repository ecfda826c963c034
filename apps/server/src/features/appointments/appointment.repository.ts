import type { Selectable } from 'kysely';
import type { AppointmentValues } from '@kinchart/shared/appointments';
import { APPOINTMENT_FIELDS } from '@kinchart/shared/appointments';
import type { Db } from '../../db/database';
import type { AppointmentsTable } from '../../db/schema';
import { newId, nowIso } from '../../lib/ids';

// The only place that speaks SQL for appointments. Every statement is scoped by the owner's user_id,
// by the person (profile_id), or by the id of a row whose person the service has checked with the
// one access function (DESIGN §4, §11).

const COLUMNS = [
  'appointments.id',
  'appointments.uid',
  'appointments.user_id',
  'appointments.profile_id',
  ...APPOINTMENT_FIELDS.map((field) => `appointments.${field}` as const),
  'appointments.created_at',
  'appointments.reminder_minutes',
  'profiles.name as person_name',
] as const;

/**
 * A stored appointment and its person's name. `user_id` is the person's owner: the account whose
 * export and deletion the appointment follows; `profile_id` the person (DESIGN §4), null only when
 * that person vanished.
 */
export type AppointmentRow = Selectable<AppointmentsTable> & { person_name: string | null };

export function createAppointmentRepository(db: Db) {
  const listed = () => db.selectFrom('appointments').leftJoin('profiles', 'profiles.id', 'appointments.profile_id').select(COLUMNS);

  const find = (id: string): Promise<AppointmentRow | undefined> => listed().where('appointments.id', '=', id).executeTakeFirst();

  return {
    /** Every appointment the account owns, whoever it is for. */
    list(userId: string): Promise<AppointmentRow[]> {
      return listed()
        .where('appointments.user_id', '=', userId)
        .orderBy('appointments.appointment_date')
        .orderBy('appointments.start_time')
        .orderBy('appointments.created_at')
        .execute();
    },

    /** One person's appointments; `orUnfiled` adds the owner's rows without a person (their own profile's). */
    listOfPerson(ownerId: string, profileId: string, orUnfiled = false): Promise<AppointmentRow[]> {
      return listed()
        .where('appointments.user_id', '=', ownerId)
        .where((eb) =>
          orUnfiled
            ? eb.or([eb('appointments.profile_id', '=', profileId), eb('appointments.profile_id', 'is', null)])
            : eb('appointments.profile_id', '=', profileId),
        )
        .orderBy('appointments.appointment_date')
        .orderBy('appointments.start_time')
        .orderBy('appointments.created_at')
        .execute();
    },

    /** The appointments of several people (shared with the reader); the caller checks each row's owner. */
    async listOfPeople(profileIds: readonly string[]): Promise<AppointmentRow[]> {
      if (profileIds.length === 0) return [];
      return listed().where('appointments.profile_id', 'in', profileIds).execute();
    },

    /** A row by id alone: the caller decides with the one access function whether the user reaches it. */
    findById: find,

    /** `reminderMinutes`: the reminder lead times (issue 32), stored as JSON text; null, the default. */
    async create(ownerId: string, profileId: string, input: AppointmentValues, reminderMinutes: number[] | null): Promise<AppointmentRow> {
      const id = newId();
      await db
        .insertInto('appointments')
        .values({
          id,
          uid: newId(),
          created_at: nowIso(),
          ...input,
          user_id: ownerId,
          profile_id: profileId,
          reminder_minutes: reminderMinutes === null ? null : JSON.stringify(reminderMinutes),
        })
        .execute();
      const row = await find(id);
      if (!row) throw new Error('appointment vanished after its insert');
      return row;
    },

    /**
     * Replaces every editable field (and, when `person` is given, whose it is; when `reminderMinutes`
     * is given, its reminder lead times); the id, calendar UID and creation time stay. Null when the
     * row is not `ownerId`'s.
     */
    async update(
      ownerId: string,
      id: string,
      input: AppointmentValues,
      person?: { ownerId: string; profileId: string },
      reminderMinutes?: number[],
    ): Promise<AppointmentRow | null> {
      const res = await db
        .updateTable('appointments')
        .set({
          ...input,
          ...(person ? { user_id: person.ownerId, profile_id: person.profileId } : {}),
          ...(reminderMinutes ? { reminder_minutes: JSON.stringify(reminderMinutes) } : {}),
        })
        .where('user_id', '=', ownerId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 0) return null;
      return (await find(id)) ?? null;
    },

    async delete(ownerId: string, id: string): Promise<boolean> {
      const res = await db.deleteFrom('appointments').where('user_id', '=', ownerId).where('id', '=', id).executeTakeFirst();
      return Number(res.numDeletedRows) > 0;
    },

    /** A person's name, as the answers carry it beside each appointment. */
    async personName(profileId: string): Promise<string | null> {
      const row = await db.selectFrom('profiles').select('name').where('id', '=', profileId).executeTakeFirst();
      return row?.name ?? null;
    },

    /** Appointments on the given dates, across all users, with whose they are — for the reminder job. */
    dueOn(dates: string[]) {
      return db
        .selectFrom('appointments')
        .leftJoin('profiles', 'profiles.id', 'appointments.profile_id')
        .select([
          'appointments.id',
          'appointments.user_id',
          'appointments.appointment_date',
          'appointments.start_time',
          'appointments.provider_name',
          'profiles.name as person_name',
          'profiles.is_self as person_is_self',
        ])
        .where('appointments.appointment_date', 'in', dates)
        .execute();
    },
  };
}
