import type { Kysely, Migration } from 'kysely';

// Second factors (DESIGN §5, docs/decisions/0026-two-factor-authentication.md).
//
// `totp_factors`: at most one per user. The RFC 6238 secret is sealed under its own data key, and
// that key is wrapped by the master key like a file's (DESIGN §6), so `rotate-key` re-wraps it with
// the others. `enabled_at` is null while the set-up waits for its first code; `last_used_step` is
// the last time step (unix time / 30 s) whose code was accepted, so no code is accepted twice.
//
// `recovery_codes`: SHA-256 of each single-use code (60 random bits each); `used_at` marks it spent.
//
// `pending_logins`: a password that was right for an account with a second factor. The browser
// holds the token in an HttpOnly cookie; the row holds its SHA-256, like sessions.
export const secondFactors: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('totp_factors')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
      .addColumn('wrapped_key', 'text', (c) => c.notNull())
      .addColumn('secret_sealed', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('enabled_at', 'text')
      .addColumn('last_used_step', 'bigint')
      .execute();
    await db.schema
      .createTable('recovery_codes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema.createIndex('recovery_codes_user_hash_idx').on('recovery_codes').columns(['user_id', 'code_hash']).execute();
    await db.schema
      .createTable('pending_logins')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('pending_logins_expires_idx').on('pending_logins').column('expires_at').execute();
    await db.schema.createIndex('pending_logins_user_idx').on('pending_logins').column('user_id').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('pending_logins').ifExists().execute();
    await db.schema.dropTable('recovery_codes').ifExists().execute();
    await db.schema.dropTable('totp_factors').ifExists().execute();
  },
};
