import type { Db } from '../../db/database';
import type { WebauthnChallengesTable } from '../../db/schema';
import { newId, nowIso } from '../../lib/ids';

// SQL of passkeys and their challenges (migration 0013). Rules live in passkeys.service.ts.

export type ChallengePurpose = WebauthnChallengesTable['purpose'];

/** Whom a challenge was handed to; a challenge is taken only by the same one. */
export interface ChallengeBinding {
  userId?: string;
  sessionId?: string;
  pendingLoginId?: string;
}

export function createPasskeyRepository(db: Db) {
  return {
    list(userId: string) {
      return db
        .selectFrom('passkeys')
        .select(['id', 'name', 'created_at', 'last_used_at', 'credential_id', 'transports'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },

    async count(userId: string): Promise<number> {
      const row = await db
        .selectFrom('passkeys')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    findByCredentialId(credentialId: string) {
      return db.selectFrom('passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();
    },

    async insert(row: {
      userId: string;
      credentialId: string;
      publicKey: string;
      counter: number;
      transports: string[] | undefined;
      name: string;
    }) {
      const id = newId();
      const created_at = nowIso();
      await db
        .insertInto('passkeys')
        .values({
          id,
          user_id: row.userId,
          credential_id: row.credentialId,
          public_key: row.publicKey,
          counter: row.counter,
          transports: row.transports ? JSON.stringify(row.transports) : null,
          name: row.name,
          created_at,
        })
        .execute();
      return { id, name: row.name, created_at, last_used_at: null };
    },

    /** The user's passkey `id`; false when the user has no such passkey (another user's included). */
    async rename(userId: string, id: string, name: string): Promise<boolean> {
      const res = await db.updateTable('passkeys').set({ name }).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    async remove(userId: string, id: string): Promise<boolean> {
      const res = await db.deleteFrom('passkeys').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      return Number(res.numDeletedRows) === 1;
    },

    async recordUse(id: string, counter: number) {
      await db.updateTable('passkeys').set({ counter, last_used_at: nowIso() }).where('id', '=', id).execute();
    },

    async createChallenge(challenge: string, purpose: ChallengePurpose, binding: ChallengeBinding, now: Date, ttlMs: number) {
      // Expired ones go as new ones come: the table holds only the last few minutes.
      await db.deleteFrom('webauthn_challenges').where('expires_at', '<=', nowIso(now)).execute();
      await db
        .insertInto('webauthn_challenges')
        .values({
          id: challenge,
          purpose,
          user_id: binding.userId ?? null,
          session_id: binding.sessionId ?? null,
          pending_login_id: binding.pendingLoginId ?? null,
          created_at: nowIso(now),
          expires_at: nowIso(new Date(now.getTime() + ttlMs)),
        })
        .execute();
    },

    /**
     * Spends the challenge when it was handed out for this purpose to this binding and has not
     * expired. One statement: of two answers to one challenge, only one is checked.
     */
    async takeChallenge(challenge: string, purpose: ChallengePurpose, binding: ChallengeBinding, now: Date): Promise<boolean> {
      const res = await db
        .deleteFrom('webauthn_challenges')
        .where('id', '=', challenge)
        .where('purpose', '=', purpose)
        .where('expires_at', '>', nowIso(now))
        .where((eb) =>
          eb.and([
            binding.userId ? eb('user_id', '=', binding.userId) : eb('user_id', 'is', null),
            binding.sessionId ? eb('session_id', '=', binding.sessionId) : eb('session_id', 'is', null),
            binding.pendingLoginId ? eb('pending_login_id', '=', binding.pendingLoginId) : eb('pending_login_id', 'is', null),
          ]),
        )
        .executeTakeFirst();
      return Number(res.numDeletedRows) === 1;
    },
  };
}
