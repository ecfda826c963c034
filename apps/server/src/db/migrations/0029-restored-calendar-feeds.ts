import type { Kysely, Migration } from 'kysely';

// Issue 32, docs/decisions/0045: an import restores each exported calendar feed's settings with a
// fresh token nobody knows, so the feed has no address anyone can subscribe to until its account
// renews it. calendar_feeds.restored is 1 from the import until the first renewal, 0 for a feed
// made in Settings: the feed list says which feeds still need a new address.
export const restoredCalendarFeeds: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('calendar_feeds')
      .addColumn('restored', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('calendar_feeds').dropColumn('restored').execute();
  },
};
