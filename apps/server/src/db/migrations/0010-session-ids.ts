import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Kysely, Migration } from 'kysely';

// Sessions you can see and re-authentication (docs/decisions/0024, DESIGN §5).
//
// - public_id: the id a session is listed and ended by. The row's own id is the SHA-256 of the
//   cookie's token, the key every request is looked up by; it never leaves the server, so the
//   list gets a separate random id that opens nothing.
// - authenticated_at: when this session last proved its password (at login, or by re-confirming
//   it); exporting everything and creating shares need it within the last 10 minutes.
//
// Both columns stay nullable in the table (SQLite cannot tighten a column in place); the app always
// writes them. Existing sessions get a fresh public id and count as authenticated when created.
export const sessionIds: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('sessions').addColumn('public_id', 'text').execute();
    await db.schema.alterTable('sessions').addColumn('authenticated_at', 'text').execute();
    const { rows } = await sql<{ id: string }>`select id from sessions`.execute(db);
    for (const row of rows) {
      await sql`update sessions set public_id = ${randomUUID()}, authenticated_at = created_at where id = ${row.id}`.execute(db);
    }
    await db.schema.createIndex('sessions_public_id_idx').on('sessions').column('public_id').unique().execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('sessions_public_id_idx').execute();
    await db.schema.alterTable('sessions').dropColumn('authenticated_at').execute();
    await db.schema.alterTable('sessions').dropColumn('public_id').execute();
  },
};
