import type { Kysely, Migration } from 'kysely';

// Browsers an account has signed in from (DESIGN §1 SMTP_URL, §5; docs/decisions/0028): each
// browser keeps a random token in a long-lived HttpOnly cookie, and this table its SHA-256 per
// account. A sign-in whose browser is not here for the account is a new browser: the owner gets an
// email. The token proves nothing and opens nothing; it only tells browsers apart.
export const knownBrowsers: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('known_browsers')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('token_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_seen_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('known_browsers_user_token_key', ['user_id', 'token_hash'])
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('known_browsers').ifExists().execute();
  },
};
