import type { Db } from '../../db/database';
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
    async createUser(input: { email: string; username: string; passwordHash: string }) {
      const id = newId();
      const now = nowIso();
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('users')
          .values({ id, email: input.email, username: input.username, password_hash: input.passwordHash, created_at: now, updated_at: now })
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

    async updateEmail(userId: string, email: string) {
      await db.updateTable('users').set({ email, updated_at: nowIso() }).where('id', '=', userId).execute();
    },

    /** Every owned row goes with the user through ON DELETE CASCADE. */
    async deleteUser(userId: string) {
      await db.deleteFrom('users').where('id', '=', userId).execute();
    },

    async recordLoginFailure(email: string, ip: string) {
      await db.insertInto('login_failures').values({ id: newId(), email, ip, created_at: nowIso() }).execute();
    },

    /** Failures since `since` from one address, for one account (`email`) or across accounts. */
    async countLoginFailures(since: Date, by: { email?: string; ip: string }) {
      let query = db
        .selectFrom('login_failures')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('created_at', '>', nowIso(since))
        .where('ip', '=', by.ip);
      if (by.email !== undefined) query = query.where('email', '=', by.email);
      const row = await query.executeTakeFirstOrThrow();
      return Number(row.n);
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
