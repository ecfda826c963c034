import { lockAccount } from '../../db/account-lock.repository';
import type { Db } from '../../db/database';
import { toFlag } from '../../lib/flags';

// The only place that speaks SQL for calendar feeds (docs/decisions/0045). A feed is found by its
// token's hash alone (the public route) or by its id with its account's id (every other statement).

export interface NewFeed {
  id: string;
  userId: string;
  personId: string | null;
  includeMedications: boolean;
  minimal: boolean;
  tokenHash: string;
  createdAt: string;
  /** Made by an import (a token nobody knows): listed as needing a new address until renewed. */
  restored?: boolean;
}

async function insertFeed(db: Db, feed: NewFeed): Promise<void> {
  await db
    .insertInto('calendar_feeds')
    .values({
      id: feed.id,
      user_id: feed.userId,
      person_id: feed.personId,
      include_medications: toFlag(feed.includeMedications),
      minimal: toFlag(feed.minimal),
      token_hash: feed.tokenHash,
      created_at: feed.createdAt,
      last_read_at: null,
      restored: toFlag(feed.restored ?? false),
    })
    .execute();
}

async function countFeeds(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('calendar_feeds')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function createCalendarFeedsRepository(db: Db) {
  return {
    /** A feed written within a caller's transaction (the import's, which holds the account's lock). */
    async insert(feed: NewFeed): Promise<void> {
      await insertFeed(db, feed);
    },

    /**
     * A feed written unless the account already holds `max`: counted and written under the
     * account's lock, so two creates at once cannot both pass the cap. False when it is full.
     */
    async insertWithin(feed: NewFeed, max: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        await lockAccount(trx, feed.userId);
        if ((await countFeeds(trx, feed.userId)) >= max) return false;
        await insertFeed(trx, feed);
        return true;
      });
    },

    /**
     * A new token for one of the account's feeds (the old one stops answering at once): no longer a
     * restored feed, and not read at its new address yet. False when the account has no such feed.
     */
    async renew(userId: string, id: string, tokenHash: string): Promise<boolean> {
      const res = await db
        .updateTable('calendar_feeds')
        .set({ token_hash: tokenHash, restored: 0, last_read_at: null })
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },

    /** The account's feeds, newest first (whose person each is for, the caller reads through the access function). */
    list(userId: string) {
      return db
        .selectFrom('calendar_feeds')
        .select(['id', 'person_id', 'include_medications', 'minimal', 'created_at', 'last_read_at', 'restored'])
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute();
    },

    async delete(userId: string, id: string): Promise<boolean> {
      const res = await db.deleteFrom('calendar_feeds').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
      return Number(res.numDeletedRows) > 0;
    },

    byTokenHash(tokenHash: string) {
      return db
        .selectFrom('calendar_feeds')
        .select(['id', 'user_id', 'person_id', 'include_medications', 'minimal'])
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
    },

    /** Marks a read; a feed read again within a minute is not written again (readers poll). */
    async touch(id: string, now: string, notSince: string): Promise<void> {
      await db
        .updateTable('calendar_feeds')
        .set({ last_read_at: now })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('last_read_at', 'is', null), eb('last_read_at', '<', notSince)]))
        .execute();
    },

    /** The current medications' schedules of these people, with whose rows they are. */
    async schedulesOf(profileIds: readonly string[]) {
      if (profileIds.length === 0) return [];
      return db
        .selectFrom('medication_schedules')
        .innerJoin('medications', 'medications.id', 'medication_schedules.medication_id')
        .select([
          'medication_schedules.medication_id',
          'medication_schedules.profile_id',
          'medication_schedules.user_id',
          'medication_schedules.times',
          'medication_schedules.days',
          'medication_schedules.start_date',
          'medication_schedules.end_date',
          'medication_schedules.as_needed',
          'medications.medication_name',
          'medications.dosage',
        ])
        .where('medication_schedules.profile_id', 'in', profileIds)
        .where('medications.is_current', '=', 1)
        .whereRef('medications.user_id', '=', 'medication_schedules.user_id')
        .whereRef('medications.profile_id', '=', 'medication_schedules.profile_id')
        .execute();
    },
  };
}
