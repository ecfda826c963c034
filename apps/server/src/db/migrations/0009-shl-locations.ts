import type { Kysely, Migration } from 'kysely';

// SMART Health Links to the letter of STU1 (docs/decisions/0020).
//
// `shl_links` gains the link's own lifetime count of wrong passcodes and the moment the link was
// disabled for good: STU1 asks for "a total lifetime count of incorrect Passcodes for a given SMART
// Health Link", which the code's PIN counters (reset when the owner re-enables or changes the PIN)
// are not.
//
// `shl_file_locations` holds the files a manifest answered by `location` rather than `embedded`:
// the JWE as it was when the manifest was asked (ciphertext under the link's key), for one GET
// within the hour. The URL's token is stored only as its SHA-256 hash, like file-share tokens.
export const shlLocations: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('shl_links')
      .addColumn('failed_passcodes', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('shl_links').addColumn('disabled_at', 'text').execute();
    await db.schema
      .createTable('shl_file_locations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('shl_link_id', 'text', (c) => c.notNull().references('shl_links.id').onDelete('cascade'))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('jwe', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('shl_file_locations_link_idx').on('shl_file_locations').column('shl_link_id').execute();
    await db.schema.createIndex('shl_file_locations_expires_idx').on('shl_file_locations').column('expires_at').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('shl_file_locations').ifExists().execute();
    await db.schema.alterTable('shl_links').dropColumn('disabled_at').execute();
    await db.schema.alterTable('shl_links').dropColumn('failed_passcodes').execute();
  },
};
