import type { Db } from '../db/database';

// The SQL of the one access function (common/person-access.ts, DESIGN §11): the person's owner,
// the active shares of a person, the people a user sees. The rules — who may do what, the 404 and
// the 403, the audit of shared access — stay in person-access.ts.

/** The account holder's own profile id (created at sign-up with is_self = 1), on `db` or a transaction. */
export async function selfProfileId(db: Db, userId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('profiles')
    .select('id')
    .where('user_id', '=', userId)
    .where('is_self', '=', 1)
    .orderBy('created_at')
    .executeTakeFirst();
  return row?.id;
}

export function createPersonAccessRepository(db: Db) {
  return {
    selfProfileId: (userId: string) => selfProfileId(db, userId),

    /** Whose person `profileId` is (any account's): undefined when it is not a person. */
    profileOwner(profileId: string) {
      return db.selectFrom('profiles').select(['id', 'user_id', 'is_self']).where('id', '=', profileId).executeTakeFirst();
    },

    /** The active share `userId` holds on `profileId` at `now`, if any (the first accepted). */
    activeShare(userId: string, profileId: string, now: string) {
      return db
        .selectFrom('person_shares')
        .select(['id', 'role'])
        .where('profile_id', '=', profileId)
        .where('holder_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where('accepted_at', 'is not', null)
        .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', now)]))
        .orderBy('accepted_at')
        .executeTakeFirst();
    },

    /** Every active share `userId` holds at `now`, with its person and owner, by owner, person and acceptance. */
    sharesHeld(userId: string, now: string) {
      return db
        .selectFrom('person_shares')
        .innerJoin('profiles', 'profiles.id', 'person_shares.profile_id')
        .innerJoin('users', 'users.id', 'person_shares.owner_id')
        .select([
          'person_shares.id as share_id',
          'person_shares.role',
          'person_shares.owner_id',
          'profiles.id',
          'profiles.name',
          'profiles.relationship',
          'profiles.is_pet',
          'profiles.is_self',
          'users.username',
        ])
        .where('person_shares.holder_id', '=', userId)
        .where('person_shares.revoked_at', 'is', null)
        .where('person_shares.accepted_at', 'is not', null)
        .where((eb) => eb.or([eb('person_shares.ends_at', 'is', null), eb('person_shares.ends_at', '>', now)]))
        .orderBy('users.username')
        .orderBy('profiles.created_at')
        .orderBy('person_shares.accepted_at')
        .execute();
    },

    /** `userId`'s own profiles: their own first, then family members by creation. */
    ownProfiles(userId: string) {
      return db
        .selectFrom('profiles')
        .select(['id', 'name', 'relationship', 'is_pet', 'is_self', 'created_at'])
        .where('user_id', '=', userId)
        .orderBy('is_self', 'desc')
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },

    /** The holders of an active manager share of `profileId` at `now` (one per share; may repeat). */
    managerHolders(profileId: string, now: string) {
      return db
        .selectFrom('person_shares')
        .select('holder_id')
        .where('profile_id', '=', profileId)
        .where('role', '=', 'manager')
        .where('holder_id', 'is not', null)
        .where('revoked_at', 'is', null)
        .where('accepted_at', 'is not', null)
        .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', now)]))
        .execute();
    },
  };
}
