import type { Kysely, Migration } from 'kysely';

// Issue 35, DESIGN §15: each account's language and units, so every screen, email, push and PDF
// reaches its recipient in their own language.
// - users.language: a BCP 47 tag Kinchart speaks (packages/shared i18n.ts); null: never chosen
//   (English until the web app sets the browser's once).
// - users.units: 'imperial' | 'metric'; null: the SPEC's imperial.
export const languageAndUnits: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('users').addColumn('language', 'text').execute();
    await db.schema.alterTable('users').addColumn('units', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('users').dropColumn('units').execute();
    await db.schema.alterTable('users').dropColumn('language').execute();
  },
};
