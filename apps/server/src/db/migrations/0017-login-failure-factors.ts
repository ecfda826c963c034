import type { Kysely, Migration } from 'kysely';

// Which step a login failure belongs to (DESIGN §5, docs/decisions/0031): a password (login or
// re-confirmation), a second-factor code, or a passkey sign-in. Each per-account ceiling across
// addresses counts its own kind, so wrong codes end a second step without locking the password
// step, and a passkey sign-in is not held by guessed passwords. Rows from before were passwords.
export const loginFailureFactors: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('login_failures')
      .addColumn('factor', 'text', (c) => c.notNull().defaultTo('password'))
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('login_failures').dropColumn('factor').execute();
  },
};
