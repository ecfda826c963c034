import type { Kysely, Migration } from 'kysely';

// DESIGN §4, §12: immunizations, lab results and vital signs, conditions and procedures, per
// person. Each keeps the codings it came with as JSON text ([{ system, code, display }]) and its
// dates as given: `YYYY`, `YYYY-MM` or `YYYY-MM-DD` (text compares in date order). Medications
// gain the same codings column, so an imported medication writes its codes back on export. A
// profile's allergies stay lines of its free-text `allergy_details` (the SPEC's screens and the
// emergency page read them); `allergy_codings` keeps beside them the codings an import brought, as
// JSON text ([{ text, codings }], one entry per line) — internal, never in a profile answer.
// Deleting a person deletes their clinical items (as it does their medications).
export const clinicalData: Migration = {
  async up(db: Kysely<unknown>) {
    const perPerson = (table: string) =>
      db.schema
        .createTable(table)
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('profile_id', 'text', (c) => c.notNull().references('profiles.id').onDelete('cascade'));
    const finish = (table: ReturnType<typeof perPerson>) =>
      table
        .addColumn('notes', 'text')
        .addColumn('codings', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull());

    await finish(
      perPerson('immunizations')
        .addColumn('vaccine', 'text', (c) => c.notNull())
        .addColumn('date', 'text')
        .addColumn('dose_number', 'integer')
        .addColumn('lot_number', 'text')
        .addColumn('site', 'text')
        .addColumn('performer', 'text'),
    ).execute();

    await finish(
      perPerson('lab_results')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('category', 'text', (c) => c.notNull().defaultTo('laboratory'))
        .addColumn('loinc_code', 'text')
        .addColumn('value', 'double precision')
        .addColumn('value_text', 'text')
        .addColumn('unit', 'text')
        .addColumn('reference_low', 'double precision')
        .addColumn('reference_high', 'double precision')
        .addColumn('reference_range', 'text')
        .addColumn('interpretation', 'text')
        .addColumn('date', 'text'),
    ).execute();

    await finish(
      perPerson('conditions')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
        .addColumn('onset_date', 'text')
        .addColumn('abatement_date', 'text'),
    ).execute();

    await finish(
      perPerson('procedures')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('completed'))
        .addColumn('performed_date', 'text')
        .addColumn('performer', 'text'),
    ).execute();

    for (const t of ['immunizations', 'lab_results', 'conditions', 'procedures']) {
      await db.schema.createIndex(`${t}_profile_idx`).on(t).columns(['profile_id', 'created_at']).execute();
    }
    await db.schema.alterTable('medications').addColumn('codings', 'text').execute();
    await db.schema.alterTable('profiles').addColumn('allergy_codings', 'text').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('profiles').dropColumn('allergy_codings').execute();
    await db.schema.alterTable('medications').dropColumn('codings').execute();
    for (const t of ['procedures', 'conditions', 'lab_results', 'immunizations']) await db.schema.dropTable(t).execute();
  },
};
