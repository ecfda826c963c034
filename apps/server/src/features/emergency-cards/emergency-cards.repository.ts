import type { Db } from '../../db/database';

export type CardTarget = { self: true } | { memberId: string };

/** Reads the person and their code for the downloads; the PIN hash stays inside this feature. */
export function createEmergencyCardRepository(db: Db) {
  return {
    /** The user's own code, or one of their members' — undefined for anything else (DESIGN §4: not yours = missing). */
    findCode(userId: string, target: CardTarget) {
      let q = db
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
        .where('profiles.user_id', '=', userId)
        .where('emergency_shares.user_id', '=', userId);
      q = 'self' in target ? q.where('profiles.is_self', '=', 1) : q.where('profiles.id', '=', target.memberId).where('profiles.is_self', '=', 0);
      return q.executeTakeFirst();
    },
  };
}
