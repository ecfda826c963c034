import type { Db } from '../../db/database';
import { endSessionsOnPurpose } from '../../common/session.repository';
import { underLimitLock } from '../../db/attempt-limits.repository';
import { newId, nowIso } from '../../lib/ids';

// SQL for password reset links and their request limits (docs/decisions/0025). A link is found
// only by the SHA-256 of its token.

export interface ResetLinkRow {
  user_id: string;
  expires_at: string;
  used_at: string | null;
}

export function createPasswordResetRepository(db: Db) {
  return {
    /**
     * Records one request for `email` from `ip` when the address made fewer than `perAddress` and
     * the email had fewer than `perAccount` in the window; answers which ceiling refused it, if any.
     * The row goes in under the address's lock, then the email's count is read under the email's
     * lock (one lock per transaction, db/attempt-limits.repository.ts): parallel requests for one email each
     * count the others' rows, so more can be refused than the ceiling, never fewer.
     */
    async reserveRequest(
      email: string,
      ip: string,
      limit: { now: Date; windowMs: number; perAccount: number; perAddress: number },
    ): Promise<'address' | 'account' | undefined> {
      const since = nowIso(new Date(limit.now.getTime() - limit.windowMs));
      const byAddress = await underLimitLock(db, `password_reset_requests:${ip}`, async (trx) => {
        await trx.deleteFrom('password_reset_requests').where('ip', '=', ip).where('created_at', '<=', since).execute();
        const row = await trx
          .selectFrom('password_reset_requests')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('ip', '=', ip)
          .where('created_at', '>', since)
          .executeTakeFirstOrThrow();
        if (Number(row.n) >= limit.perAddress) return false;
        await trx
          .insertInto('password_reset_requests')
          .values({ id: newId(), email, ip, created_at: nowIso(limit.now) })
          .execute();
        return true;
      });
      if (!byAddress) return 'address';
      return underLimitLock(db, `password_reset_requests:email:${email}`, async (trx) => {
        const row = await trx
          .selectFrom('password_reset_requests')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('email', '=', email)
          .where('created_at', '>', since)
          .executeTakeFirstOrThrow();
        // The count holds this request's own row.
        return Number(row.n) > limit.perAccount ? 'account' : undefined;
      });
    },

    /** The account's one open link: any earlier link of the account (used or not) goes. */
    async replaceLink(userId: string, tokenHash: string, now: Date, expiresAt: Date, sentTo: string | null): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('password_resets').where('user_id', '=', userId).execute();
        // Links nobody used go a day after they ended, whoever they were for.
        await trx
          .deleteFrom('password_resets')
          .where('expires_at', '<', nowIso(new Date(now.getTime() - 86_400_000)))
          .execute();
        await trx
          .insertInto('password_resets')
          .values({
            id: newId(),
            user_id: userId,
            token_hash: tokenHash,
            created_at: nowIso(now),
            expires_at: nowIso(expiresAt),
            used_at: null,
            sent_to: sentTo,
          })
          .execute();
      });
    },

    findLink(tokenHash: string): Promise<ResetLinkRow | undefined> {
      return db
        .selectFrom('password_resets')
        .select(['user_id', 'expires_at', 'used_at'])
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
    },

    /**
     * Uses the link and sets the password in one transaction: one conditional UPDATE claims the
     * link, so of two parallel resets exactly one gets through. Every session of the account ends,
     * and its failed logins no longer count. Nothing else of the account changes — its second
     * factors least of all (DESIGN §5: a reset never bypasses them). An emailed link that reached
     * the account's current address proves that address too (docs/decisions/0030). Answers the
     * account's id and whether its email was proven so, or
     * undefined when the link was not claimed.
     */
    async completeReset(tokenHash: string, passwordHash: string, now: Date): Promise<{ userId: string; emailProven: boolean } | undefined> {
      return db.transaction().execute(async (trx) => {
        const claimed = await trx
          .updateTable('password_resets')
          .set({ used_at: nowIso(now) })
          .where('token_hash', '=', tokenHash)
          .where('used_at', 'is', null)
          .where('expires_at', '>', nowIso(now))
          .returning(['user_id', 'sent_to'])
          .executeTakeFirst();
        if (!claimed) return undefined;
        const user = await trx
          .updateTable('users')
          .set({ password_hash: passwordHash, updated_at: nowIso(now) })
          .where('id', '=', claimed.user_id)
          .returning('email')
          .executeTakeFirstOrThrow();
        // An emailed link reached the account's address: that proves it (docs/decisions/0030).
        const proves = claimed.sent_to !== null && claimed.sent_to === user.email;
        if (proves)
          await trx
            .updateTable('users')
            .set({ email_verified_at: nowIso(now) })
            .where('id', '=', claimed.user_id)
            .execute();
        // Every session ends on purpose, with the push subscriptions made in them (docs/decisions/0044).
        const sessions = await trx.selectFrom('sessions').select('id').where('user_id', '=', claimed.user_id).execute();
        await endSessionsOnPurpose(
          trx,
          sessions.map((row) => row.id),
        );
        await trx.deleteFrom('login_failures').where('email', '=', user.email).execute();
        return { userId: claimed.user_id, emailProven: proves };
      });
    },
  };
}
