import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Kysely, Migration } from 'kysely';

// Issue 34.
// - lab_results.source_file_id / source_page: a result accepted from a file's text (docs/decisions/
//   0052) names the file and page it came from; deleting the file keeps the result, unlinked.
// - allergies (docs/decisions/0053): each allergy is an entry — substance, reactions (JSON list of
//   texts), severity (mild | moderate | severe), criticality (low | high | unable-to-assess),
//   codings (JSON [{ system, code, display }]) — in the order `position` gives. The profile's
//   `has_allergies` and `allergy_details` stay as the SPEC describes; the details text is derived
//   from the entries. Here every line of the existing details becomes an entry, with the codings
//   `profiles.allergy_codings` kept for that line (migration 0008); that column then goes, the
//   entries holding its codings.
// - PDFs are read again: the reader now keeps the layout (columns, lines) the lab reader needs.
export const labSourcesAndAllergies: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('lab_results')
      .addColumn('source_file_id', 'text', (c) => c.references('medical_files.id').onDelete('set null'))
      .execute();
    await db.schema.alterTable('lab_results').addColumn('source_page', 'integer').execute();
    await db.schema.createIndex('lab_results_source_file_idx').on('lab_results').columns(['source_file_id']).execute();

    await db.schema
      .createTable('allergies')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('profile_id', 'text', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
      .addColumn('substance', 'text', (c) => c.notNull())
      .addColumn('reactions', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('severity', 'text')
      .addColumn('criticality', 'text')
      .addColumn('codings', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('allergies_profile_idx').on('allergies').columns(['profile_id', 'position']).execute();

    type Row = { id: string; user_id: string; allergy_details: string | null; allergy_codings: string | null };
    const { rows } = await sql<Row>`select id, user_id, allergy_details, allergy_codings from profiles
      where allergy_details is not null and trim(allergy_details) <> ''`.execute(db);
    const now = new Date().toISOString();
    for (const p of rows) {
      const coded = codingsByLine(p.allergy_codings);
      const lines = (p.allergy_details ?? '')
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '');
      let position = 0;
      for (const line of lines) {
        await sql`insert into allergies (id, user_id, profile_id, substance, reactions, severity, criticality, codings, position, created_at, updated_at)
          values (${randomUUID()}, ${p.user_id}, ${p.id}, ${line}, '[]', null, null, ${JSON.stringify(coded.get(line) ?? [])}, ${position}, ${now}, ${now})`.execute(
          db,
        );
        position += 1;
      }
    }
    await db.schema.alterTable('profiles').dropColumn('allergy_codings').execute();

    await sql`update file_text_jobs set status = 'pending', attempts = 0, lease_until = null, worker_id = null
      where status = 'done' and file_id in (select id from medical_files where file_type = 'application/pdf')`.execute(db);
  },

  async down(db: Kysely<unknown>) {
    // The codings come back as a column, empty: the entries that held them go.
    await db.schema.alterTable('profiles').addColumn('allergy_codings', 'text').execute();
    await db.schema.dropTable('allergies').execute();
    await db.schema.dropIndex('lab_results_source_file_idx').execute();
    await db.schema.alterTable('lab_results').dropColumn('source_page').execute();
    await db.schema.alterTable('lab_results').dropColumn('source_file_id').execute();
  },
};

/** migration 0008's `allergy_codings`: [{ text, codings }]; anything unreadable is none. */
function codingsByLine(text: string | null): Map<string, unknown[]> {
  const map = new Map<string, unknown[]>();
  if (!text) return map;
  try {
    const list: unknown = JSON.parse(text);
    if (!Array.isArray(list)) return map;
    for (const entry of list as { text?: unknown; codings?: unknown }[]) {
      if (entry && typeof entry.text === 'string' && Array.isArray(entry.codings)) map.set(entry.text.trim(), entry.codings);
    }
  } catch {
    return map;
  }
  return map;
}
