import type { Db } from '../../db/database';
import type { OidcLinkRequestsTable, OidcRequestsTable } from '../../db/schema';
import { underLimitLock } from '../../db/attempt-limits.repository';
import { newId, nowIso } from '../../lib/ids';

// SQL of single sign-on (migration 0014, docs/decisions/0029). Rules live in oidc.service.ts.
export function createOidcRepository(db: Db) {
  return {
    findIdentity(issuer: string, subject: string) {
      return db
        .selectFrom('oidc_identities')
        .select(['id', 'user_id'])
        .where('issuer', '=', issuer)
        .where('subject', '=', subject)
        .executeTakeFirst();
    },

    /**
     * Links the provider's account to `userId`. Of two links racing for one (issuer, subject) the
     * unique constraint keeps one; answers the user the pair is linked to afterwards, and whether
     * this call made the link.
     */
    async linkIdentity(userId: string, issuer: string, subject: string): Promise<{ userId: string; created: boolean }> {
      const now = nowIso();
      const res = await db
        .insertInto('oidc_identities')
        .values({ id: newId(), user_id: userId, issuer, subject, created_at: now, last_used_at: now })
        .onConflict((oc) => oc.columns(['issuer', 'subject']).doNothing())
        .executeTakeFirst();
      if (Number(res.numInsertedOrUpdatedRows ?? 0) > 0) return { userId, created: true };
      const row = await db
        .selectFrom('oidc_identities')
        .select('user_id')
        .where('issuer', '=', issuer)
        .where('subject', '=', subject)
        .executeTakeFirstOrThrow();
      return { userId: row.user_id, created: false };
    },

    async touchIdentity(id: string) {
      await db.updateTable('oidc_identities').set({ last_used_at: nowIso() }).where('id', '=', id).execute();
    },

    async createRequest(row: OidcRequestsTable) {
      // Expired requests go as new ones come: the table holds only the last few minutes.
      await db.deleteFrom('oidc_requests').where('expires_at', '<=', row.created_at).execute();
      await db.insertInto('oidc_requests').values(row).execute();
    },

    /**
     * Takes the request named `id` out of the table and answers it: one statement, so a `state` is
     * used once even when two callbacks race. Undefined when there is none (never made, or used).
     */
    takeRequest(id: string) {
      return db.deleteFrom('oidc_requests').where('id', '=', id).returningAll().executeTakeFirst();
    },

    /**
     * Reserves one unfinished single sign-on for `ip` when fewer than `max` are unfinished in the
     * window; answers its id, or undefined when refused. Under the address's lock like the other
     * limits (db/attempt-limits.repository.ts), so parallel starts cannot pass it.
     */
    async reserveAttempt(ip: string, limit: { now: Date; max: number; windowMs: number }): Promise<string | undefined> {
      const since = nowIso(new Date(limit.now.getTime() - limit.windowMs));
      return underLimitLock(db, `oidc_attempts:${ip}`, async (trx) => {
        await trx.deleteFrom('oidc_attempts').where('ip', '=', ip).where('created_at', '<=', since).execute();
        const row = await trx
          .selectFrom('oidc_attempts')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('ip', '=', ip)
          .where('created_at', '>', since)
          .executeTakeFirstOrThrow();
        if (Number(row.n) >= limit.max) return undefined;
        const id = newId();
        await trx
          .insertInto('oidc_attempts')
          .values({ id, ip, created_at: nowIso(limit.now) })
          .execute();
        return id;
      });
    },

    /** A sign-on waiting for the password of the unproven account its email names (docs/decisions/0030). */
    async createLinkRequest(row: OidcLinkRequestsTable) {
      await db.deleteFrom('oidc_link_requests').where('expires_at', '<=', row.created_at).execute();
      await db.insertInto('oidc_link_requests').values(row).execute();
    },

    /** The browser's newest waiting link, expired or not (the caller tells the two apart). */
    findLinkRequest(browserHash: string) {
      return db
        .selectFrom('oidc_link_requests')
        .selectAll()
        .where('browser_hash', '=', browserHash)
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    /** Takes the waiting link out: one statement, so it links once even when two passwords race. */
    takeLinkRequest(id: string) {
      return db.deleteFrom('oidc_link_requests').where('id', '=', id).returningAll().executeTakeFirst();
    },

    /** The sign-on finished: it no longer counts against its address. */
    async releaseAttempt(id: string) {
      await db.deleteFrom('oidc_attempts').where('id', '=', id).execute();
    },
  };
}
