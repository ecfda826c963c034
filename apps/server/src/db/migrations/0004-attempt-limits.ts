import type { Kysely, Migration } from 'kysely';

// Attempt limits that hold under concurrency and across instances (DESIGN §5, §7, §10).
//
// `limit_locks` holds one row per limited subject (e.g. "login" + client address). A reservation
// upserts that row first, which takes its row lock on PostgreSQL (and the write lock on SQLite),
// then counts the recent attempts and records the new one in the same transaction: requests for
// one subject pass the check one at a time, on one instance or many.
//
// `signup_attempts` records sign-ups per client address, like `pin_attempts` does for PINs.
export const attemptLimits: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('limit_locks')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('touched_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('signup_attempts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('ip', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('signup_attempts_ip_idx').on('signup_attempts').columns(['ip', 'created_at']).execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('signup_attempts').ifExists().execute();
    await db.schema.dropTable('limit_locks').ifExists().execute();
  },
};
