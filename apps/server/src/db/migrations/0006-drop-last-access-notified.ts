import type { Kysely, Migration } from 'kysely';

// emergency_shares.last_access_notified_at throttled access notices once; since every view
// notifies the owner (DESIGN §7) nothing reads or writes it. SQLite 3.35+ and PostgreSQL both
// drop a plain column in place.
export const dropLastAccessNotified: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('emergency_shares').dropColumn('last_access_notified_at').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('emergency_shares').addColumn('last_access_notified_at', 'text').execute();
  },
};
