import type { Kysely, Migration } from 'kysely';

// Issue 32, docs/decisions/0045: private calendar feeds. A feed is one account's secret address of
// a calendar of one person (person_id) or of everyone the account can see (null). Only the SHA-256
// of its 256-bit token is kept; the address is shown once. Deleting the account or the person
// deletes the feed.
export const calendarFeeds: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('calendar_feeds')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('person_id', 'text', (c) => c.references('profiles.id').onDelete('cascade'))
      .addColumn('include_medications', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('minimal', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_read_at', 'text')
      .execute();
    await db.schema.createIndex('calendar_feeds_user_idx').on('calendar_feeds').columns(['user_id']).execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('calendar_feeds').execute();
  },
};
