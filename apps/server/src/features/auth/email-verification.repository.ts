import type { Db } from '../../db/database';
import { underLimitLock } from '../../db/attempt-limits.repository';
import { newId, nowIso } from '../../lib/ids';

// SQL of proving an email (migration 0016, docs/decisions/0030). A link is found only by the
// SHA-256 of its token, and proves only the address it was sent to.

export interface VerificationLinkRow {
  user_id: string;
  email: string;
  expires_at: string;
  used_at: string | null;
}

/** Thrown inside the transaction to roll back a claimed link whose address the account no longer uses. */
class StaleLink extends Error {}

export function createEmailVerificationRepository(db: Db) {
  return {
    /** The account's email and whether it is proven; undefined when there is no such account. */
    findAccount(userId: string) {
      return db.selectFrom('users').select(['id', 'email', 'email_verified_at']).where('id', '=', userId).executeTakeFirst();
    },

    /**
     * Records a new link for `email` when the account made fewer than `max` in the window; false
     * when refused. Counted and inserted under the account's lock (db/attempt-limits.repository.ts), so
     * parallel requests cannot pass the ceiling. Links long over go at the same time.
     */
    async insertLink(
      link: { userId: string; email: string; tokenHash: string; now: Date; expiresAt: Date },
      limit: { max: number; windowMs: number },
    ): Promise<boolean> {
      const since = nowIso(new Date(link.now.getTime() - limit.windowMs));
      return underLimitLock(db, `email_verifications:${link.userId}`, async (trx) => {
        await trx
          .deleteFrom('email_verifications')
          .where('expires_at', '<', nowIso(new Date(link.now.getTime() - 86_400_000)))
          .execute();
        const row = await trx
          .selectFrom('email_verifications')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', link.userId)
          .where('created_at', '>', since)
          .executeTakeFirstOrThrow();
        if (Number(row.n) >= limit.max) return false;
        await trx
          .insertInto('email_verifications')
          .values({
            id: newId(),
            user_id: link.userId,
            email: link.email,
            token_hash: link.tokenHash,
            created_at: nowIso(link.now),
            expires_at: nowIso(link.expiresAt),
            used_at: null,
          })
          .execute();
        return true;
      });
    },

    findLink(tokenHash: string): Promise<VerificationLinkRow | undefined> {
      return db
        .selectFrom('email_verifications')
        .select(['user_id', 'email', 'expires_at', 'used_at'])
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
    },

    /**
     * Uses the link and proves its address in one transaction: a conditional UPDATE claims the link
     * (of two parallel uses one wins), and the account is marked only while its email is still the
     * one the link was sent to. Answers the account's id, `stale` when the email has changed since
     * (nothing is written), or undefined when the link was not claimed.
     */
    async completeVerification(tokenHash: string, now: Date): Promise<{ userId: string } | 'stale' | undefined> {
      try {
        return await db.transaction().execute(async (trx) => {
          const claimed = await trx
            .updateTable('email_verifications')
            .set({ used_at: nowIso(now) })
            .where('token_hash', '=', tokenHash)
            .where('used_at', 'is', null)
            .where('expires_at', '>', nowIso(now))
            .returning(['user_id', 'email'])
            .executeTakeFirst();
          if (!claimed) return undefined;
          const proven = await trx
            .updateTable('users')
            .set({ email_verified_at: nowIso(now) })
            .where('id', '=', claimed.user_id)
            .where('email', '=', claimed.email)
            .executeTakeFirst();
          if (Number(proven.numUpdatedRows) !== 1) throw new StaleLink();
          return { userId: claimed.user_id };
        });
      } catch (error) {
        if (error instanceof StaleLink) return 'stale';
        throw error;
      }
    },

    /**
     * The account's email is proven another way (the OpenID provider, or a password reset link that
     * reached it) — only while it is still `email`.
     */
    async markVerified(userId: string, email: string, now = new Date()): Promise<void> {
      await db
        .updateTable('users')
        .set({ email_verified_at: nowIso(now) })
        .where('id', '=', userId)
        .where('email', '=', email)
        .execute();
    },
  };
}
