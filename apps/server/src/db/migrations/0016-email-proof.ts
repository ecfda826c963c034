import type { Kysely, Migration } from 'kysely';

// An email is proven by a link (or by the OpenID provider) (DESIGN §5, docs/decisions/0030).
//
// `users.email_verified_at`: when the account's current email was proven; null until then, and
// null again whenever the email changes. Accounts made before this migration start unproven: nobody
// proved their email, and an existing single sign-on link (issuer, subject) needs no email anyway.
//
// `email_verifications`: the emailed links, the token only as its SHA-256, each for the one
// address it was sent to, valid a day, single use. The rows of the last hour count a person's
// requests for a new link.
//
// `password_resets.sent_to`: the address a reset link was emailed to (null for the operator's
// `npm run reset-password`). Following an emailed link proves that address, while the account
// still uses it.
//
// `oidc_link_requests`: a single sign-on whose verified email names an account whose email is not
// proven waits here, for 10 minutes, for that account's password before the two are linked. It
// belongs to the browser whose `oidc` cookie's SHA-256 it holds.
export const emailProof: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('users').addColumn('email_verified_at', 'text').execute();
    await db.schema
      .createTable('email_verifications')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema.createIndex('email_verifications_user_idx').on('email_verifications').columns(['user_id', 'created_at']).execute();
    await db.schema.alterTable('password_resets').addColumn('sent_to', 'text').execute();
    await db.schema
      .createTable('oidc_link_requests')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('browser_hash', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('issuer', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('next', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('oidc_link_requests_browser_idx').on('oidc_link_requests').column('browser_hash').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('oidc_link_requests').ifExists().execute();
    await db.schema.alterTable('password_resets').dropColumn('sent_to').execute();
    await db.schema.dropTable('email_verifications').ifExists().execute();
    await db.schema.alterTable('users').dropColumn('email_verified_at').execute();
  },
};
