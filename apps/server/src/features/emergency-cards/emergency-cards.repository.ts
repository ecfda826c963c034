import type { Db } from '../../db/database';

/** Reads the person and their code for the downloads; the PIN hash stays inside this feature. */
export function createEmergencyCardRepository(db: Db) {
  return {
    /** The code of one of the owner's people (DESIGN §4: a person of someone else = missing). */
    findCode(ownerId: string, profileId: string) {
      return db
        .selectFrom('profiles')
        .innerJoin('emergency_shares', 'emergency_shares.profile_id', 'profiles.id')
        .select([
          'profiles.id as profile_id',
          'profiles.name',
          'emergency_shares.kind',
          'emergency_shares.share_id',
          'emergency_shares.pin_hash',
          'emergency_shares.is_active',
        ])
        .where('profiles.user_id', '=', ownerId)
        .where('emergency_shares.user_id', '=', ownerId)
        .where('profiles.id', '=', profileId)
        .executeTakeFirst();
    },
  };
}
