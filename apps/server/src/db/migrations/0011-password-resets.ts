import type { Kysely, Migration } from 'kysely';

// A way back into an account (docs/decisions/0025).
//
// `password_resets` holds the single-use links of POST /api/auth/forgot-password and of the
// operator's `npm run reset-password`: the token only as its SHA-256 hash, its end 30 minutes on,
// and when it was used. An account has at most one open link: a new one replaces the others.
//
// `password_reset_requests` counts requests per client address and per requested email (whether
// or not an account has it), so the form cannot be used to fill someone's inbox.
//
// `person_shares.signup_claimed_at`: under SIGNUP_MODE=invite an invitation admits one sign-up.
export const passwordResets: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('password_resets')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema.createIndex('password_resets_user_idx').on('password_resets').column('user_id').execute();
    await db.schema
      .createTable('password_reset_requests')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('ip', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('password_reset_requests_ip_idx').on('password_reset_requests').columns(['ip', 'created_at']).execute();
    await db.schema
      .createIndex('password_reset_requests_email_idx')
      .on('password_reset_requests')
      .columns(['email', 'created_at'])
      .execute();
    await db.schema.alterTable('person_shares').addColumn('signup_claimed_at', 'text').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('person_shares').dropColumn('signup_claimed_at').execute();
    await db.schema.dropTable('password_reset_requests').ifExists().execute();
    await db.schema.dropTable('password_resets').ifExists().execute();
  },
};
