import type { Db } from '../db/database';

// The SQL of common/time-zones.ts: a person's own zone beside their owner account's.

export function createTimeZoneRepository(db: Db) {
  return {
    /** Each person's zone and their owner account's (either may be null). */
    zonesOfPeople(profileIds: readonly string[]) {
      if (profileIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('profiles')
        .innerJoin('users', 'users.id', 'profiles.user_id')
        .select(['profiles.id', 'profiles.time_zone', 'users.time_zone as account_zone'])
        .where('profiles.id', 'in', profileIds)
        .execute();
    },

    async accountZone(userId: string): Promise<string | null | undefined> {
      const row = await db.selectFrom('users').select('time_zone').where('id', '=', userId).executeTakeFirst();
      return row?.time_zone;
    },
  };
}
