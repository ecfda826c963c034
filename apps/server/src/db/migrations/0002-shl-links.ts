import type { Kysely, Migration } from 'kysely';

// SMART Health Links for emergency codes (decision 0004). One link per emergency code: the manifest id
// is the 256-bit random path segment of the manifest URL; the link's AES key is derived from the
// master key and this id (features/shl/shl-keys.ts), so no key is stored anywhere.
export const shlLinks: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('shl_links')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('emergency_share_id', 'text', (c) => c.notNull().unique().references('emergency_shares.id').onDelete('cascade'))
      .addColumn('manifest_id', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('shl_links_user_idx').on('shl_links').column('user_id').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('shl_links').ifExists().execute();
  },
};
