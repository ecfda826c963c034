import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { underLimitLock } from '../../db/attempt-limits';
import { newId, nowIso } from '../../lib/ids';

export function createAuthRepository(db: Db) {
  return {
    findUserByEmail(email: string) {
      return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
    },

    findUserById(id: string) {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /**
     * Creates the account and its own profile together. The profile starts empty but for its
     * contact email, the sign-up address (SPEC §3 lists email among the profile's fields); the
     * person can change or clear it, and changing the account's email later leaves it alone.
     */
    async createUser(input: { email: string; username: string; passwordHash: string; emailVerified?: boolean }) {
      const id = newId();
      const now = nowIso();
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('users')
          .values({
            id,
            email: input.email,
            username: input.username,
            password_hash: input.passwordHash,
            email_verified_at: input.emailVerified ? now : null,
            created_at: now,
            updated_at: now,
          })
          .execute();
        await trx
          .insertInto('profiles')
          .values({ id: newId(), user_id: id, is_self: 1, is_pet: 0, email: input.email, created_at: now, updated_at: now })
          .execute();
      });
      return id;
    },

    async updatePassword(userId: string, passwordHash: string) {
      await db.updateTable('users').set({ password_hash: passwordHash, updated_at: nowIso() }).where('id', '=', userId).execute();
    },

    /**
     * A new email is unproven until its own link is followed (DESIGN §5, docs/decisions/0030), and
     * the password reset links sent to the old address end with it.
     */
    async updateEmail(userId: string, email: string) {
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ email, email_verified_at: null, updated_at: nowIso() }).where('id', '=', userId).execute();
        await trx.deleteFrom('password_resets').where('user_id', '=', userId).execute();
      });
    },

    /** Every owned row goes with the user through ON DELETE CASCADE. */
    async deleteUser(userId: string) {
      await db.deleteFrom('users').where('id', '=', userId).execute();
    },

    /**
     * DESIGN §5: reserves one login attempt for (`email`, `ip`) *before* the password is checked,
     * when that pair has fewer than `perAccount` failures and the address fewer than `perAddress`
     * in the window; the reservation stands as a failure until released. Answers its id, or
     * undefined when refused. Both ceilings are checked under the address's lock
     * (db/attempt-limits.ts), so parallel requests cannot pass them, on one instance or many.
     */
    async reserveLoginAttempt(email: string, ip: string, limit: { now: Date; windowMs: number; perAccount: number; perAddress: number }) {
      const since = nowIso(new Date(limit.now.getTime() - limit.windowMs));
      return underLimitLock(db, `login_failures:${ip}`, async (trx) => {
        await trx.deleteFrom('login_failures').where('ip', '=', ip).where('created_at', '<=', since).execute();
        const row = await trx
          .selectFrom('login_failures')
          .select((eb) => [
            eb.fn.countAll<number>().as('byAddress'),
            sql<number | null>`sum(case when ${eb.ref('email')} = ${email} then 1 else 0 end)`.as('byAccount'),
          ])
          .where('ip', '=', ip)
          .where('created_at', '>', since)
          .executeTakeFirstOrThrow();
        if (Number(row.byAccount ?? 0) >= limit.perAccount || Number(row.byAddress) >= limit.perAddress) return undefined;
        const id = newId();
        await trx.insertInto('login_failures').values({ id, email, ip, created_at: nowIso(limit.now) }).execute();
        return id;
      });
    },

    /** The password was right: the reserved attempt was not a failure. */
    async releaseLoginAttempt(id: string) {
      await db.deleteFrom('login_failures').where('id', '=', id).execute();
    },

    async clearLoginFailures(email: string, ip: string) {
      await db.deleteFrom('login_failures').where('email', '=', email).where('ip', '=', ip).execute();
    },

    async pruneLoginFailures(before: Date) {
      await db.deleteFrom('login_failures').where('created_at', '<', nowIso(before)).execute();
    },
  };
}
export type AuthRepository = ReturnType<typeof createAuthRepository>;
