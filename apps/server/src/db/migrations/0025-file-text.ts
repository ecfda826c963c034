import { PostgresAdapter, sql } from 'kysely';
import type { Kysely, Migration } from 'kysely';

// Issue 33, docs/decisions/0047: the text read from every file, kept in the database beside the
// rest of a person's health data (never in the bucket), and the jobs that read it.
// - file_text_jobs: one row per file, made by a trigger on medical_files so no upload path can
//   forget it, and here for every file already stored (the backfill starts by itself). An instance
//   or `npm run worker` claims a pending row with a lease; a lease that runs out is taken again.
// - file_text_pages: the text, page by page; deleted with its file.
// - file_suggestions: what the text suggests for the record (date, provider, reason), until the
//   user applies or dismisses it.
// - users.document_languages: JSON list of the languages its scans are read in (null: English).
export const fileText: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('file_text_jobs')
      .addColumn('file_id', 'text', (c) => c.primaryKey().references('medical_files.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
      .addColumn('pages', 'integer')
      .addColumn('reason', 'text')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('lease_until', 'text')
      .addColumn('worker_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('file_text_jobs_status_idx').on('file_text_jobs').columns(['status', 'created_at']).execute();
    await db.schema.createIndex('file_text_jobs_user_idx').on('file_text_jobs').columns(['user_id']).execute();

    await db.schema
      .createTable('file_text_pages')
      .addColumn('file_id', 'text', (c) => c.notNull().references('medical_files.id').onDelete('cascade'))
      .addColumn('page', 'integer', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('file_text_pages_pk', ['file_id', 'page'])
      .execute();

    await db.schema
      .createTable('file_suggestions')
      .addColumn('file_id', 'text', (c) => c.primaryKey().references('medical_files.id').onDelete('cascade'))
      .addColumn('record_date', 'text')
      .addColumn('provider_name', 'text')
      .addColumn('visit_reason', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema.alterTable('users').addColumn('document_languages', 'text').execute();

    const queue = (row: string) =>
      `insert into file_text_jobs (file_id, user_id, status, attempts, created_at, updated_at) ` +
      `values (${row}.id, ${row}.user_id, 'pending', 0, ${row}.created_at, ${row}.created_at)`;
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql
        .raw(
          `create function kinchart_queue_file_text() returns trigger language plpgsql as $$
           begin ${queue('new')}; return null; end $$`,
        )
        .execute(db);
      await sql
        .raw(
          'create trigger medical_files_queue_text after insert on medical_files for each row execute function kinchart_queue_file_text()',
        )
        .execute(db);
    } else {
      await sql.raw(`create trigger medical_files_queue_text after insert on medical_files begin ${queue('new')}; end`).execute(db);
    }
    // The backfill: every file stored before this migration is read too.
    await sql
      .raw(
        `insert into file_text_jobs (file_id, user_id, status, attempts, created_at, updated_at) ` +
          `select id, user_id, 'pending', 0, created_at, created_at from medical_files`,
      )
      .execute(db);
  },

  async down(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql.raw('drop trigger if exists medical_files_queue_text on medical_files').execute(db);
      await sql.raw('drop function if exists kinchart_queue_file_text()').execute(db);
    } else {
      await sql.raw('drop trigger if exists medical_files_queue_text').execute(db);
    }
    await db.schema.alterTable('users').dropColumn('document_languages').execute();
    await db.schema.dropTable('file_suggestions').execute();
    await db.schema.dropTable('file_text_pages').execute();
    await db.schema.dropTable('file_text_jobs').execute();
  },
};
