import type { Kysely, Migration } from 'kysely';

// Passkeys (DESIGN §5, docs/decisions/0027-passkeys.md).
//
// `passkeys`: the WebAuthn credentials of an account. `credential_id` and `public_key` are
// base64url (the credential's id and its COSE public key); `counter` is the authenticator's
// signature counter, which must grow when the authenticator keeps one (a clone shows as a
// counter that does not). Nothing here is secret: a public key signs nothing.
//
// `webauthn_challenges`: each challenge the server handed out, for one purpose, single-use and
// short-lived. The row says whom it was for: the signed-in session (registration,
// re-authentication), the pending login (second step) or nobody yet (signing in with the passkey
// alone, where the passkey says whose it is).
export const passkeys: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('passkeys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('credential_id', 'text', (c) => c.notNull().unique())
      .addColumn('public_key', 'text', (c) => c.notNull())
      .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('transports', 'text')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_used_at', 'text')
      .execute();
    await db.schema.createIndex('passkeys_user_idx').on('passkeys').column('user_id').execute();
    await db.schema
      .createTable('webauthn_challenges')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('session_id', 'text')
      .addColumn('pending_login_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('webauthn_challenges_expires_idx').on('webauthn_challenges').column('expires_at').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('webauthn_challenges').ifExists().execute();
    await db.schema.dropTable('passkeys').ifExists().execute();
  },
};
