import type { Transaction } from 'kysely';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';
import { nowIso } from '../../lib/ids';

type Trx = Db | Transaction<Database>;

/** SQL of the coalesced access alerts (migration 0019): one row per code and person told. */
export const accessAlertsRepository = {
  find(trx: Trx, shareRowId: string, userId: string) {
    return trx
      .selectFrom('emergency_access_alerts')
      .select(['notification_id', 'window_started_at', 'views', 'mailed_at', 'unmailed'])
      .where('emergency_share_id', '=', shareRowId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  },

  async save(
    trx: Trx,
    row: {
      shareRowId: string;
      userId: string;
      notificationId: string;
      windowStartedAt: string;
      views: number;
      mailedAt: string | null;
      unmailed: number;
    },
  ) {
    const values = {
      notification_id: row.notificationId,
      window_started_at: row.windowStartedAt,
      views: row.views,
      mailed_at: row.mailedAt,
      unmailed: row.unmailed,
    };
    await trx
      .insertInto('emergency_access_alerts')
      .values({ emergency_share_id: row.shareRowId, user_id: row.userId, ...values })
      .onConflict((oc) => oc.columns(['emergency_share_id', 'user_id']).doUpdateSet(values))
      .execute();
  },

  /** Rows with views not yet emailed whose last email is at least `since` old, with what the email names. */
  due(db: Db, since: Date, limit: number) {
    return db
      .selectFrom('emergency_access_alerts as a')
      .innerJoin('emergency_shares as s', 's.id', 'a.emergency_share_id')
      .innerJoin('profiles as p', 'p.id', 's.profile_id')
      .select(['a.emergency_share_id', 'a.user_id', 'a.mailed_at', 'a.unmailed', 's.kind', 's.user_id as owner_id', 'p.name'])
      .where('a.unmailed', '>', 0)
      .where('a.mailed_at', '<=', nowIso(since))
      .limit(limit)
      .execute();
  },

  /** Takes a due row's views for one email; true only for the caller that took them (several instances may sweep). */
  async claim(db: Db, row: { emergency_share_id: string; user_id: string; mailed_at: string | null; unmailed: number }, now: Date) {
    if (row.mailed_at === null) return false;
    const res = await db
      .updateTable('emergency_access_alerts')
      .set({ mailed_at: nowIso(now), unmailed: 0 })
      .where('emergency_share_id', '=', row.emergency_share_id)
      .where('user_id', '=', row.user_id)
      .where('mailed_at', '=', row.mailed_at)
      .where('unmailed', '=', row.unmailed)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  },
};
