import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { reserveAddressAttempt } from '../../db/attempt-limits';
import { newId, nowIso } from '../../lib/ids';

export type ShareKind = 'self' | 'family';

/** The columns the service needs; the PIN hash never leaves this feature. */
const SHARE_COLUMNS = [
  'id',
  'user_id',
  'profile_id',
  'kind',
  'share_id',
  'pin_hash',
  'is_active',
  'is_disabled',
  'failed_streak',
  'failed_total',
  'locked_until',
  'essentials_without_pin',
] as const;

export function createEmergencyRepository(db: Db) {
  return {
    /** One of the owner's people (own profile or a member), by id; undefined when it is not the owner's. */
    findProfile(ownerId: string, profileId: string) {
      return db.selectFrom('profiles').select(['id', 'name']).where('user_id', '=', ownerId).where('id', '=', profileId).executeTakeFirst();
    },

    /**
     * Every person of the account: the own profile first, then family members and pets in the
     * order the family list shows them (created_at, id).
     */
    listOwnedProfiles(userId: string) {
      return db
        .selectFrom('profiles')
        .select(['id', 'is_self'])
        .where('user_id', '=', userId)
        .orderBy('is_self', 'desc')
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },

    /** Every code of the account (at most one per person). */
    listByUser(userId: string) {
      return db.selectFrom('emergency_shares').select(SHARE_COLUMNS).where('user_id', '=', userId).execute();
    },

    findByProfile(userId: string, profileId: string) {
      return db
        .selectFrom('emergency_shares')
        .select(SHARE_COLUMNS)
        .where('user_id', '=', userId)
        .where('profile_id', '=', profileId)
        .executeTakeFirst();
    },

    /** By the row id (a SMART Health Link names its code this way). */
    findById(id: string) {
      return db.selectFrom('emergency_shares').select(SHARE_COLUMNS).where('id', '=', id).executeTakeFirst();
    },

    findByShareId(kind: ShareKind, shareId: string) {
      return db
        .selectFrom('emergency_shares')
        .select(SHARE_COLUMNS)
        .where('share_id', '=', shareId)
        .where('kind', '=', kind)
        .executeTakeFirst();
    },

    async create(input: { userId: string; profileId: string; kind: ShareKind; shareId: string; pinHash: string }) {
      const now = nowIso();
      await db
        .insertInto('emergency_shares')
        .values({
          id: newId(),
          user_id: input.userId,
          profile_id: input.profileId,
          kind: input.kind,
          share_id: input.shareId,
          pin_hash: input.pinHash,
          is_active: 1,
          created_at: now,
          updated_at: now,
        })
        .execute();
    },

    /** A new PIN (or a repeated set-up) starts the guess counters afresh (DESIGN §7). */
    async setPin(id: string, pinHash: string, activate: boolean) {
      await db
        .updateTable('emergency_shares')
        .set({
          pin_hash: pinHash,
          failed_streak: 0,
          failed_total: 0,
          locked_until: null,
          updated_at: nowIso(),
          ...(activate ? { is_active: 1, is_disabled: 0 } : {}),
        })
        .where('id', '=', id)
        .execute();
    },

    /** DESIGN §7: the owner's "show the essentials without the PIN" choice. */
    async setEssentialsWithoutPin(id: string, on: boolean) {
      await db
        .updateTable('emergency_shares')
        .set({ essentials_without_pin: on ? 1 : 0, updated_at: nowIso() })
        .where('id', '=', id)
        .execute();
    },

    /**
     * The owner's one action (DESIGN §7): lifts a lock, clears the wrong-PIN counts and turns a PIN
     * that was disabled after too many wrong tries back on. A code the owner switched off stays off.
     */
    async clearPinLimits(id: string) {
      await db
        .updateTable('emergency_shares')
        .set({
          is_active: sql`case when is_disabled = 1 then 1 else is_active end`,
          is_disabled: 0,
          failed_streak: 0,
          failed_total: 0,
          locked_until: null,
          updated_at: nowIso(),
        })
        .where('id', '=', id)
        .execute();
    },

    /** Re-activation resets the counters; deactivation keeps them. */
    async setActive(id: string, active: boolean) {
      await db
        .updateTable('emergency_shares')
        .set(
          active
            ? { is_active: 1, is_disabled: 0, failed_streak: 0, failed_total: 0, locked_until: null, updated_at: nowIso() }
            : // Switched off by the owner: nothing answers, not even opted-in essentials (DESIGN §7).
              { is_active: 0, is_disabled: 0, updated_at: nowIso() },
        )
        .where('id', '=', id)
        .execute();
    },

    /**
     * Reserves one PIN attempt atomically: a single UPDATE that only succeeds while the code is
     * active, not locked, under 5 in a row and under 10 in total. Concurrent guesses therefore
     * cannot exceed the limits, on one instance or many (DESIGN §7, §10). An expired lock starts
     * a new streak. Returns the counters after the reservation, or undefined when refused.
     */
    async reserveAttempt(id: string, now: Date, maxStreak: number, maxTotal: number) {
      const t = nowIso(now);
      const expired = sql<boolean>`locked_until is not null and locked_until <= ${t}`;
      return db
        .updateTable('emergency_shares')
        .set({
          failed_streak: sql`case when ${expired} then 1 else failed_streak + 1 end`,
          locked_until: sql`case when ${expired} then null else locked_until end`,
          failed_total: sql`failed_total + 1`,
        })
        .where('id', '=', id)
        .where('is_active', '=', 1)
        .where('failed_total', '<', maxTotal)
        .where((eb) =>
          eb.or([
            eb.and([eb('failed_streak', '<', maxStreak), eb('locked_until', 'is', null)]),
            eb.and([eb('locked_until', 'is not', null), eb('locked_until', '<=', t)]),
          ]),
        )
        .returning(['failed_streak', 'failed_total'])
        .executeTakeFirst();
    },

    /** The right PIN: the reserved attempt was not a failure. */
    async releaseAttempt(id: string) {
      await db
        .updateTable('emergency_shares')
        .set({ failed_streak: 0, failed_total: sql`case when failed_total > 0 then failed_total - 1 else 0 end` })
        .where('id', '=', id)
        .execute();
    },

    /** Sets the lock once; true only for the request that set it (so the owner is warned once). */
    async lock(id: string, until: Date) {
      const res = await db
        .updateTable('emergency_shares')
        .set({ locked_until: nowIso(until) })
        .where('id', '=', id)
        .where('locked_until', 'is', null)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },

    /** Switches the code off after too many wrong PINs; true only for the request that did it. */
    async disable(id: string) {
      const res = await db
        .updateTable('emergency_shares')
        .set({ is_active: 0, is_disabled: 1, updated_at: nowIso() })
        .where('id', '=', id)
        .where('is_active', '=', 1)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },

    /**
     * DESIGN §7: reserves one of the address's PIN attempts for the hour, across codes; false when
     * the address has used them all. Checked and recorded under the address's lock
     * (db/attempt-limits.ts), so it holds for parallel requests and across instances.
     */
    reserveIpAttempt(ip: string, now: Date, max: number) {
      return reserveAddressAttempt(db, 'pin_attempts', ip, { now, max, windowMs: 3_600_000 });
    },

    async pruneIpAttempts(before: Date) {
      await db.deleteFrom('pin_attempts').where('created_at', '<', nowIso(before)).execute();
    },
  };
}
export type EmergencyRepository = ReturnType<typeof createEmergencyRepository>;
