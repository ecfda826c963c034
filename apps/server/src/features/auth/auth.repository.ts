import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { underLimitLock } from '../../db/attempt-limits.repository';
import { clientAddressKey } from '../../lib/client-address';
import { newId, nowIso } from '../../lib/ids';

/** What a login attempt proves (migration 0017): each has its own ceiling per account. */
export type LoginFactor = 'password' | 'second_factor' | 'passkey';

export interface LoginLimits {
  now: Date;
  windowMs: number;
  /** Failures of one account from one address (DESIGN §5: 10). */
  perPair: number;
  /** Failures from one address across accounts. */
  perAddress: number;
  /** Failures of one account from every address, per factor; a factor left out has none. */
  perAccount: Partial<Record<LoginFactor, number>>;
}

export type LoginReservation = { id: string; accountFailures: number } | { refused: 'pair' | 'address' | 'account' };

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
    async createUser(input: {
      email: string;
      username: string;
      passwordHash: string;
      emailVerified?: boolean;
      timeZone?: string;
      language?: string | null;
      units?: string | null;
    }) {
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
            // Issue 32: the browser's zone at sign-up; none (single sign-on) reads as UTC until set.
            time_zone: input.timeZone ?? null,
            // Issue 35: the browser's language (Accept-Language) when Kinchart speaks it, else null
            // (the web app sets the browser's once); units from its first tag's region.
            language: input.language ?? null,
            units: input.units ?? null,
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
     * DESIGN §5: reserves one login attempt for (`email`, the client's address) *before* the secret
     * is checked; the reservation stands as a failure until released. Refused when that pair has
     * `perPair` failures in the window, the address `perAddress`, or — where `perAccount` names a
     * ceiling for this `factor` — the account that many failures of this factor from every address.
     * Addresses are counted by clientAddressKey (IPv6 by /64). The address and the account are
     * locked together (db/attempt-limits.repository.ts), so parallel requests cannot pass any ceiling, on one
     * instance or many. A granted attempt answers its id and the account's failures of this factor
     * counting itself.
     */
    async reserveLoginAttempt(email: string, ip: string, factor: LoginFactor, limit: LoginLimits): Promise<LoginReservation> {
      const since = nowIso(new Date(limit.now.getTime() - limit.windowMs));
      const address = clientAddressKey(ip);
      const accountCeiling = limit.perAccount[factor];
      return underLimitLock(db, [`login_failures:${address}`, `login_failures:account:${email}`], async (trx) => {
        await trx.deleteFrom('login_failures').where('ip', '=', address).where('created_at', '<=', since).execute();
        const row = await trx
          .selectFrom('login_failures')
          .select((eb) => [
            eb.fn.countAll<number>().as('byAddress'),
            sql<number | null>`sum(case when ${eb.ref('email')} = ${email} then 1 else 0 end)`.as('byPair'),
          ])
          .where('ip', '=', address)
          .where('created_at', '>', since)
          .executeTakeFirstOrThrow();
        if (Number(row.byPair ?? 0) >= limit.perPair) return { refused: 'pair' };
        if (Number(row.byAddress) >= limit.perAddress) return { refused: 'address' };
        const account = await trx
          .selectFrom('login_failures')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('email', '=', email)
          .where('factor', '=', factor)
          .where('created_at', '>', since)
          .executeTakeFirstOrThrow();
        if (accountCeiling !== undefined && Number(account.n) >= accountCeiling) return { refused: 'account' };
        const id = newId();
        await trx
          .insertInto('login_failures')
          .values({ id, email, ip: address, factor, created_at: nowIso(limit.now) })
          .execute();
        return { id, accountFailures: Number(account.n) + 1 };
      });
    },

    /** The secret was right: this request's own reservation was not a failure (the others in flight stand). */
    async releaseLoginAttempt(id: string) {
      await db.deleteFrom('login_failures').where('id', '=', id).execute();
    },

    async pruneLoginFailures(before: Date) {
      await db.deleteFrom('login_failures').where('created_at', '<', nowIso(before)).execute();
    },
  };
}
