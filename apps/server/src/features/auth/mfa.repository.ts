import type { Db } from '../../db/database';
import { newId, nowIso } from '../../lib/ids';

// SQL of the second factors (migration 0012). Rules live in mfa.service.ts.
export function createMfaRepository(db: Db) {
  return {
    findTotp(userId: string) {
      return db.selectFrom('totp_factors').selectAll().where('user_id', '=', userId).executeTakeFirst();
    },

    /** A new set-up replaces one still waiting for its first code; an active one stays (the caller checks). */
    async savePendingTotp(userId: string, sealed: { wrappedKey: string; sealed: string }) {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('totp_factors').where('user_id', '=', userId).where('enabled_at', 'is', null).execute();
        await trx
          .insertInto('totp_factors')
          .values({ id: newId(), user_id: userId, wrapped_key: sealed.wrappedKey, secret_sealed: sealed.sealed, created_at: nowIso() })
          .execute();
      });
    },

    /**
     * Turns on the set-up `factorId` (still pending) with its first accepted step, and replaces the
     * recovery codes, in one transaction. False when that set-up was replaced or turned on meanwhile.
     */
    async enableTotp(factorId: string, userId: string, step: number, codeHashes: readonly string[]): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const res = await trx
          .updateTable('totp_factors')
          .set({ enabled_at: nowIso(), last_used_step: step })
          .where('id', '=', factorId)
          .where('user_id', '=', userId)
          .where('enabled_at', 'is', null)
          .executeTakeFirst();
        if (Number(res.numUpdatedRows) !== 1) return false;
        await replaceCodes(trx, userId, codeHashes);
        return true;
      });
    },

    /**
     * Records `step` as used when it is later than the last one used: one statement, so of two
     * requests with the same code only one passes (no replay within the code's window, RFC 6238 §5.2).
     */
    async useTotpStep(userId: string, step: number): Promise<boolean> {
      const res = await db
        .updateTable('totp_factors')
        .set({ last_used_step: step })
        .where('user_id', '=', userId)
        .where('enabled_at', 'is not', null)
        .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    /** TOTP off: the recovery codes go with it unless another factor keeps them. True when there was one. */
    async deleteTotp(userId: string, options: { keepRecoveryCodes: boolean }): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const res = await trx.deleteFrom('totp_factors').where('user_id', '=', userId).executeTakeFirst();
        if (!options.keepRecoveryCodes) await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
        return Number(res.numDeletedRows) > 0;
      });
    },

    async deleteRecoveryCodes(userId: string) {
      await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    },

    async replaceRecoveryCodes(userId: string, codeHashes: readonly string[]) {
      await db.transaction().execute((trx) => replaceCodes(trx, userId, codeHashes));
    },

    /** Spends one unused code; false when there is none with that hash. One statement: a code works once. */
    async useRecoveryCode(userId: string, codeHash: string): Promise<boolean> {
      const res = await db
        .updateTable('recovery_codes')
        .set({ used_at: nowIso() })
        .where('user_id', '=', userId)
        .where('code_hash', '=', codeHash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },

    async countRecoveryCodesLeft(userId: string): Promise<number> {
      const row = await db
        .selectFrom('recovery_codes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async createPendingLogin(id: string, userId: string, now: Date, ttlMs: number) {
      // Expired ones go as new ones come: the table holds only the last few minutes.
      await db.deleteFrom('pending_logins').where('expires_at', '<=', nowIso(now)).execute();
      await db
        .insertInto('pending_logins')
        .values({ id, user_id: userId, created_at: nowIso(now), expires_at: nowIso(new Date(now.getTime() + ttlMs)) })
        .execute();
    },

    findPendingLogin(id: string) {
      return db.selectFrom('pending_logins').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** True when this call removed it: a pending login completes once. */
    async deletePendingLogin(id: string): Promise<boolean> {
      const res = await db.deleteFrom('pending_logins').where('id', '=', id).executeTakeFirst();
      return Number(res.numDeletedRows) > 0;
    },
  };
}

async function replaceCodes(trx: Db, userId: string, codeHashes: readonly string[]) {
  await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  const now = nowIso();
  await trx
    .insertInto('recovery_codes')
    .values(codeHashes.map((code_hash) => ({ id: newId(), user_id: userId, code_hash, created_at: now })))
    .execute();
}
