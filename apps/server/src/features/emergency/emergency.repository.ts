import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { reserveAddressAttempt, underLimitLock } from '../../db/attempt-limits.repository';
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

    async create(input: {
      userId: string;
      profileId: string;
      kind: ShareKind;
      shareId: string;
      pinHash: string;
      essentialsWithoutPin: boolean;
    }) {
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
          essentials_without_pin: input.essentialsWithoutPin ? 1 : 0,
          created_at: now,
          updated_at: now,
        })
        .execute();
    },

    /**
     * A new PIN (or a repeated set-up) starts the guess counters afresh (DESIGN §7); a set-up may
     * carry the owner's answer on the essentials.
     */
    async setPin(id: string, pinHash: string, activate: boolean, essentialsWithoutPin?: boolean) {
      await db.deleteFrom('emergency_pin_locks').where('emergency_share_id', '=', id).execute();
      await db
        .updateTable('emergency_shares')
        .set({
          pin_hash: pinHash,
          failed_streak: 0,
          failed_total: 0,
          locked_until: null,
          updated_at: nowIso(),
          ...(activate ? { is_active: 1, is_disabled: 0 } : {}),
          ...(essentialsWithoutPin === undefined ? {} : { essentials_without_pin: essentialsWithoutPin ? 1 : 0 }),
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
      await db.deleteFrom('emergency_pin_locks').where('emergency_share_id', '=', id).execute();
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
      if (active) await db.deleteFrom('emergency_pin_locks').where('emergency_share_id', '=', id).execute();
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
     * Reserves one wrong-PIN slot of the code's count in all, atomically: a single UPDATE that only
     * succeeds while the code is active and under 10 (DESIGN §7, §10), so concurrent guesses from
     * any number of addresses cannot exceed it. Returns the count after the reservation, or
     * undefined when refused.
     */
    reserveAttempt(id: string, maxTotal: number) {
      return db
        .updateTable('emergency_shares')
        .set({ failed_total: sql`failed_total + 1` })
        .where('id', '=', id)
        .where('is_active', '=', 1)
        .where('failed_total', '<', maxTotal)
        .returning(['failed_total'])
        .executeTakeFirst();
    },

    /** The right PIN: the reserved attempt was not a failure. */
    async releaseAttempt(id: string) {
      await db
        .updateTable('emergency_shares')
        .set({ failed_total: sql`case when failed_total > 0 then failed_total - 1 else 0 end` })
        .where('id', '=', id)
        .execute();
    },

    /**
     * Reserves one attempt of a client address on a code (issue 30): one UPDATE that succeeds only
     * while the address has fewer than 5 wrong PINs in a row and no running lock; an expired lock
     * starts a new run. Returns the run after the reservation, or undefined when the address waits.
     */
    async reserveAddressAttempt(id: string, address: string, now: Date, maxStreak: number) {
      await db
        .insertInto('emergency_pin_locks')
        .values({ emergency_share_id: id, address, failed_streak: 0, locked_until: null })
        .onConflict((oc) => oc.columns(['emergency_share_id', 'address']).doNothing())
        .execute();
      const t = nowIso(now);
      const expired = sql<boolean>`locked_until is not null and locked_until <= ${t}`;
      return db
        .updateTable('emergency_pin_locks')
        .set({
          failed_streak: sql`case when ${expired} then 1 else failed_streak + 1 end`,
          locked_until: sql`case when ${expired} then null else locked_until end`,
        })
        .where('emergency_share_id', '=', id)
        .where('address', '=', address)
        .where((eb) =>
          eb.or([
            eb.and([eb('failed_streak', '<', maxStreak), eb('locked_until', 'is', null)]),
            eb.and([eb('locked_until', 'is not', null), eb('locked_until', '<=', t)]),
          ]),
        )
        .returning(['failed_streak'])
        .executeTakeFirst();
    },

    /** Gives the address's reserved attempt back: the right PIN ends its run (`right`), a refused one only uncounts. */
    async releaseAddressAttempt(id: string, address: string, right: boolean) {
      await db
        .updateTable('emergency_pin_locks')
        .set({ failed_streak: right ? 0 : sql`case when failed_streak > 0 then failed_streak - 1 else 0 end` })
        .where('emergency_share_id', '=', id)
        .where('address', '=', address)
        .execute();
    },

    /** Locks one address out of one code; true only for the request that set it (so the owner is warned once). */
    async lockAddress(id: string, address: string, until: Date) {
      const res = await db
        .updateTable('emergency_pin_locks')
        .set({ locked_until: nowIso(until) })
        .where('emergency_share_id', '=', id)
        .where('address', '=', address)
        .where('locked_until', 'is', null)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },

    async addressLockedUntil(id: string, address: string): Promise<string | null> {
      const row = await db
        .selectFrom('emergency_pin_locks')
        .select('locked_until')
        .where('emergency_share_id', '=', id)
        .where('address', '=', address)
        .executeTakeFirst();
      return row?.locked_until ?? null;
    },

    /** Whether some address is locked out of the code right now (the owner's "locked"). */
    async anyAddressLocked(id: string, now: Date): Promise<boolean> {
      const row = await db
        .selectFrom('emergency_pin_locks')
        .select('address')
        .where('emergency_share_id', '=', id)
        .where('locked_until', '>', nowIso(now))
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    /**
     * Issue 30: reserves one PIN-less view of the essentials for a client address, across codes,
     * when fewer than `max` were made in the `windowMs` before `now`; otherwise answers the seconds
     * until the oldest of them leaves the window. Counted under the address's lock, so it holds for
     * parallel requests and across instances.
     */
    reserveEssentialsView(address: string, now: Date, max: number, windowMs: number): Promise<true | { retryAfterSeconds: number }> {
      const since = nowIso(new Date(now.getTime() - windowMs));
      return underLimitLock(db, `essentials_views:${address}`, async (trx) => {
        await trx.deleteFrom('essentials_views').where('ip', '=', address).where('created_at', '<=', since).execute();
        const row = await trx
          .selectFrom('essentials_views')
          .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min<string>('created_at').as('oldest')])
          .where('ip', '=', address)
          .executeTakeFirstOrThrow();
        if (Number(row.n) >= max) {
          const frees = Date.parse(row.oldest) + windowMs;
          return { retryAfterSeconds: Math.max(1, Math.ceil((frees - now.getTime()) / 1000)) };
        }
        await trx
          .insertInto('essentials_views')
          .values({ id: newId(), ip: address, created_at: nowIso(now) })
          .execute();
        return true as const;
      });
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
     * (db/attempt-limits.repository.ts), so it holds for parallel requests and across instances.
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
