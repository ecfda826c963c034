import type { Db } from '../../db/database';
import { newId, nowIso } from '../../lib/ids';

// SQL for SMART Health Links. Owner-side reads filter by user_id (DESIGN §4); the public manifest
// is found by its 256-bit id alone, like an emergency share id.
export function createShlRepository(db: Db) {
  return {
    /** The emergency code of one of the owner's people (own profile or a member), with its link if any. */
    async findOwnedShare(userId: string, profileId: string) {
      return db
        .selectFrom('profiles')
        .leftJoin('emergency_shares', (j) => j.onRef('emergency_shares.profile_id', '=', 'profiles.id').on('emergency_shares.user_id', '=', userId))
        .leftJoin('shl_links', 'shl_links.emergency_share_id', 'emergency_shares.id')
        .select([
          'profiles.id as profile_id',
          'emergency_shares.id as share_id',
          'emergency_shares.kind as kind',
          'emergency_shares.is_active as is_active',
          'shl_links.manifest_id as manifest_id',
        ])
        .where('profiles.user_id', '=', userId)
        .where('profiles.id', '=', profileId)
        .executeTakeFirst();
    },

    /** Creates the code's link, or answers the one a concurrent request made first. */
    async create(userId: string, emergencyShareId: string, manifestId: string): Promise<{ manifestId: string; created: boolean }> {
      const res = await db
        .insertInto('shl_links')
        .values({ id: newId(), user_id: userId, emergency_share_id: emergencyShareId, manifest_id: manifestId, created_at: nowIso() })
        .onConflict((oc) => oc.column('emergency_share_id').doNothing())
        .executeTakeFirst();
      if (Number(res.numInsertedOrUpdatedRows ?? 0) > 0) return { manifestId, created: true };
      const row = await db.selectFrom('shl_links').select('manifest_id').where('emergency_share_id', '=', emergencyShareId).executeTakeFirstOrThrow();
      return { manifestId: row.manifest_id, created: false };
    },

    findByManifestId(manifestId: string) {
      return db.selectFrom('shl_links').select(['emergency_share_id', 'user_id']).where('manifest_id', '=', manifestId).executeTakeFirst();
    },
  };
}
