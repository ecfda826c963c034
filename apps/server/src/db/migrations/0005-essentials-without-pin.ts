import type { Kysely, Migration } from 'kysely';

// DESIGN §7: essentials without the PIN are the owner's choice per code, default off. An integer
// flag (0/1) like the other flags, so the migration reads the same on SQLite and PostgreSQL.
export const essentialsWithoutPin: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('emergency_shares')
      .addColumn('essentials_without_pin', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('emergency_shares').dropColumn('essentials_without_pin').execute();
  },
};
