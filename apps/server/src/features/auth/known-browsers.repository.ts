import type { Db } from '../../db/database';
import { newId, nowIso } from '../../lib/ids';

// The SQL of the browsers an account has signed in from (known-browsers.service.ts; docs/decisions/0028):
// only the SHA-256 of each browser's token is kept.

export function createKnownBrowsersRepository(db: Db) {
  return {
    /** Marks the browser seen at `at`; false when the account does not know it. */
    async touch(userId: string, tokenHash: string, at: Date): Promise<boolean> {
      const seen = await db
        .updateTable('known_browsers')
        .set({ last_seen_at: nowIso(at) })
        .where('user_id', '=', userId)
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
      return Number(seen.numUpdatedRows) > 0;
    },

    /** The account knows at least one browser. */
    async knowsAny(userId: string): Promise<boolean> {
      const row = await db.selectFrom('known_browsers').select('id').where('user_id', '=', userId).limit(1).executeTakeFirst();
      return row !== undefined;
    },

    /** Makes the browser known; false when a parallel sign-in made it known first. */
    async add(userId: string, tokenHash: string, at: Date): Promise<boolean> {
      const inserted = await db
        .insertInto('known_browsers')
        .values({ id: newId(), user_id: userId, token_hash: tokenHash, created_at: nowIso(at), last_seen_at: nowIso(at) })
        .onConflict((oc) => oc.columns(['user_id', 'token_hash']).doNothing())
        .executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
    },
  };
}
