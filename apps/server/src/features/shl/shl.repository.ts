import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { newId, nowIso } from '../../lib/ids';

// SQL for SMART Health Links. Owner-side reads filter by user_id (DESIGN §4); the public manifest
// is found by its 256-bit id alone, like an emergency share id, and a file location by the hash of
// its 256-bit token.
export function createShlRepository(db: Db) {
  return {
    /** The emergency code of one of the owner's people (own profile or a member), with its link if any. */
    async findOwnedShare(userId: string, profileId: string) {
      return db
        .selectFrom('profiles')
        .leftJoin('emergency_shares', (j) =>
          j.onRef('emergency_shares.profile_id', '=', 'profiles.id').on('emergency_shares.user_id', '=', userId),
        )
        .leftJoin('shl_links', 'shl_links.emergency_share_id', 'emergency_shares.id')
        .select([
          'profiles.id as profile_id',
          'emergency_shares.id as share_id',
          'emergency_shares.kind as kind',
          'emergency_shares.is_active as is_active',
          'shl_links.id as link_id',
          'shl_links.manifest_id as manifest_id',
          'shl_links.disabled_at as disabled_at',
        ])
        .where('profiles.user_id', '=', userId)
        .where('profiles.id', '=', profileId)
        .executeTakeFirst();
    },

    /** Creates the code's link, or answers the one a concurrent request made first. */
    async create(userId: string, emergencyShareId: string, manifestId: string): Promise<{ manifestId: string; created: boolean }> {
      const res = await db
        .insertInto('shl_links')
        .values({
          id: newId(),
          user_id: userId,
          emergency_share_id: emergencyShareId,
          manifest_id: manifestId,
          created_at: nowIso(),
          disabled_at: null,
        })
        .onConflict((oc) => oc.column('emergency_share_id').doNothing())
        .executeTakeFirst();
      if (Number(res.numInsertedOrUpdatedRows ?? 0) > 0) return { manifestId, created: true };
      const row = await db
        .selectFrom('shl_links')
        .select('manifest_id')
        .where('emergency_share_id', '=', emergencyShareId)
        .executeTakeFirstOrThrow();
      return { manifestId: row.manifest_id, created: false };
    },

    /** Removes a link that was disabled for good (its file locations go with it), so a new one can be made. */
    async removeDisabled(userId: string, linkId: string) {
      await db
        .deleteFrom('shl_links')
        .where('user_id', '=', userId)
        .where('id', '=', linkId)
        .where('disabled_at', 'is not', null)
        .execute();
    },

    /**
     * Reserves one passcode attempt on the link's lifetime count: a single UPDATE that succeeds only
     * while the link is not disabled and under `max` (STU1: "SHALL enforce a total lifetime count of
     * incorrect Passcodes … even in the face of … parallel HTTP requests"). Answers the link with the
     * count after the reservation, or undefined for an unknown, disabled or spent link.
     */
    reservePasscodeAttempt(manifestId: string, max: number) {
      return db
        .updateTable('shl_links')
        .set({ failed_passcodes: sql`failed_passcodes + 1` })
        .where('manifest_id', '=', manifestId)
        .where('disabled_at', 'is', null)
        .where('failed_passcodes', '<', max)
        .returning(['id', 'user_id', 'emergency_share_id', 'failed_passcodes'])
        .executeTakeFirst();
    },

    /** The attempt was not a wrong passcode (right passcode, or refused before the passcode was checked). */
    async releasePasscodeAttempt(linkId: string) {
      await db
        .updateTable('shl_links')
        .set({ failed_passcodes: sql`case when failed_passcodes > 0 then failed_passcodes - 1 else 0 end` })
        .where('id', '=', linkId)
        .execute();
    },

    /** Disables the link for good; true only for the request that did it. */
    async disable(linkId: string, now: Date): Promise<boolean> {
      const res = await db
        .updateTable('shl_links')
        .set({ disabled_at: nowIso(now) })
        .where('id', '=', linkId)
        .where('disabled_at', 'is', null)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },

    async insertLocation(row: { userId: string; linkId: string; tokenHash: string; jwe: string; expiresAt: Date; now: Date }) {
      await db
        .insertInto('shl_file_locations')
        .values({
          id: newId(),
          user_id: row.userId,
          shl_link_id: row.linkId,
          token_hash: row.tokenHash,
          jwe: row.jwe,
          expires_at: nowIso(row.expiresAt),
          created_at: nowIso(row.now),
        })
        .execute();
    },

    /** Expired locations go; the table only ever holds the last hour's. */
    async pruneLocations(now: Date) {
      await db.deleteFrom('shl_file_locations').where('expires_at', '<=', nowIso(now)).execute();
    },

    /**
     * Takes a location's JWE once (STU1 allows one-time-use locations): deleted as it is read, so a
     * second GET — or a parallel one — finds nothing. Only while it has not expired, and only while
     * its link is not disabled and its code is active.
     */
    async takeLocation(tokenHash: string, now: Date): Promise<string | undefined> {
      const row = await db
        .deleteFrom('shl_file_locations')
        .where('token_hash', '=', tokenHash)
        .where('expires_at', '>', nowIso(now))
        .where('shl_link_id', 'in', (eb) =>
          eb
            .selectFrom('shl_links')
            .innerJoin('emergency_shares', 'emergency_shares.id', 'shl_links.emergency_share_id')
            .select('shl_links.id')
            .where('shl_links.disabled_at', 'is', null)
            .where('emergency_shares.is_active', '=', 1),
        )
        .returning('jwe')
        .executeTakeFirst();
      return row?.jwe;
    },
  };
}
