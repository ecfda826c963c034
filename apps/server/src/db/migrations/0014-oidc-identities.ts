import type { Kysely, Migration } from 'kysely';

// Single sign-on with OpenID Connect (docs/decisions/0029-single-sign-on.md). 0013 is left to the
// passkeys, written at the same time.
//
// `oidc_identities`: an account at the identity provider — its issuer and subject, the pair OpenID
// Connect Core 5.7 calls the only stable identifier — linked to one Kinchart user. The email is not
// kept: a link, once made, holds when the email at the provider changes.
//
// `oidc_requests`: sign-ins on their way through the provider, for at most 10 minutes. The row is
// named by the SHA-256 of the `state` the provider sends back, and holds the SHA-256 of the token in
// the browser's `oidc` cookie, so a callback address replayed in another browser finds nothing of
// its own. The PKCE verifier and the nonce stay here, server-side (so any instance can finish what
// another started, DESIGN §10), and the row goes when it is used. A re-authentication names the
// session it started from, and goes with it.
//
// `oidc_attempts`: single sign-ons started per client address that have not finished, for the
// per-address limit (DESIGN §5); a finished one is given back.
export const oidcIdentities: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('oidc_identities')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('issuer', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_used_at', 'text')
      .addUniqueConstraint('oidc_identities_issuer_subject_key', ['issuer', 'subject'])
      .execute();
    await db.schema.createIndex('oidc_identities_user_idx').on('oidc_identities').column('user_id').execute();
    await db.schema
      .createTable('oidc_requests')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('browser_hash', 'text', (c) => c.notNull())
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('code_verifier', 'text', (c) => c.notNull())
      .addColumn('nonce', 'text', (c) => c.notNull())
      .addColumn('next', 'text')
      .addColumn('session_id', 'text', (c) => c.references('sessions.id').onDelete('cascade'))
      .addColumn('attempt_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('oidc_requests_expires_idx').on('oidc_requests').column('expires_at').execute();
    await db.schema
      .createTable('oidc_attempts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('ip', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('oidc_attempts_ip_idx').on('oidc_attempts').columns(['ip', 'created_at']).execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('oidc_attempts').ifExists().execute();
    await db.schema.dropTable('oidc_requests').ifExists().execute();
    await db.schema.dropTable('oidc_identities').ifExists().execute();
  },
};
