import type { Db } from '../../db/database';
import { newId, nowIso } from '../../lib/ids';

const COLUMNS = ['id', 'uid', 'appointment_date', 'start_time', 'end_time', 'provider_name', 'reason_for_visit', 'location', 'created_at'] as const;

export interface AppointmentRow {
  id: string;
  uid: string;
  appointment_date: string;
  start_time: string | null;
  end_time: string | null;
  provider_name: string;
  reason_for_visit: string | null;
  location: string | null;
  created_at: string;
}

export function createAppointmentRepository(db: Db) {
  return {
    list(userId: string): Promise<AppointmentRow[]> {
      return db
        .selectFrom('appointments')
        .select(COLUMNS)
        .where('user_id', '=', userId)
        .orderBy('appointment_date')
        .orderBy('start_time')
        .orderBy('created_at')
        .execute();
    },

    async create(
      userId: string,
      input: Omit<AppointmentRow, 'id' | 'uid' | 'created_at'>,
    ): Promise<AppointmentRow> {
      const row = { id: newId(), uid: newId(), created_at: nowIso(), ...input };
      await db.insertInto('appointments').values({ ...row, user_id: userId }).execute();
      return row;
    },

    /** Replaces every editable field; the id, calendar UID and creation time stay. Null when not the user's. */
    async update(userId: string, id: string, input: Omit<AppointmentRow, 'id' | 'uid' | 'created_at'>): Promise<AppointmentRow | null> {
      const res = await db.updateTable('appointments').set(input).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
      if (Number(res.numUpdatedRows) === 0) return null;
      return (await db.selectFrom('appointments').select(COLUMNS).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst()) ?? null;
    },

    async delete(userId: string, id: string): Promise<boolean> {
      const res = await db.deleteFrom('appointments').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
      return Number(res.numDeletedRows) > 0;
    },

    /** Appointments on the given dates, across all users — for the reminder job. */
    dueOn(dates: string[]) {
      return db
        .selectFrom('appointments')
        .select(['id', 'user_id', 'appointment_date', 'start_time', 'provider_name'])
        .where('appointment_date', 'in', dates)
        .execute();
    },
  };
}
