import { PostgresAdapter, sql } from 'kysely';
import type { Kysely, Migration } from 'kysely';
import { foldTable } from '../../lib/text-fold';

// Issue 33, docs/decisions/0048: one search over everything a reader may see. `search_entries`
// holds one row per searchable thing (a file, a medication, a person's allergies, …), kept by
// triggers on every source table — as migration 0003 keeps profile_versions — so no write path
// (service, import, restore, cascade delete) can forget it.
// - `scope` is one token naming the person and the person's owner (`p<person>u<owner>`, dashes
//   dropped): the full-text engine intersects it with the reader's query, so access is decided
//   inside the index query, and a row whose owner is not its person's owner matches nobody. A
//   second token names the kind (`kfile`, `klabresult`): `kind=` narrows inside the engine too.
// - `title` is what a result shows; `heading` the short fields ranked above `body` (for a file:
//   its names and visit fields); `body` the rest (a file's pages joined with '\f').
// - SQLite: an FTS5 external-content table over search_entries, kept in step by triggers on it.
// - PostgreSQL: a stored generated tsvector over a fold of the text (lower case, accents off,
//   punctuation as spaces), with a GIN index.

type Dialect = 'sqlite' | 'postgres';

/** One searchable kind: the SQL of its entry's values from a source row `r` (`new` or `old`). */
interface Source {
  table: string;
  kind: string;
  /** The person; the owner's own profile for rows from before people (files, appointments). */
  profile: (r: string) => string;
  title: (r: string) => string;
  heading: (r: string) => string;
  body: (r: string) => string;
  date: (r: string) => string;
  /** Files: the MIME type (a PDF opens at its page). */
  format?: (r: string) => string;
  /** The row has an entry only when this holds (a person's allergies: only when written). */
  when?: (r: string) => string;
}

/** Text fields joined by ' · ', empty ones left out (concat_ws skips nulls on both databases). */
const joined = (...parts: string[]) => `coalesce(concat_ws(' · ', ${parts.map((p) => `nullif(trim(${p}), '')`).join(', ')}), '')`;
const num = (d: Dialect, expr: string) => (d === 'postgres' ? `${expr}::text` : `cast(${expr} as text)`);
const ownProfile = (r: string) =>
  `coalesce(${r}.profile_id, (select s.id from profiles s where s.user_id = ${r}.user_id and s.is_self = 1 order by s.created_at limit 1))`;
const plain = (r: string) => `${r}.profile_id`;
/** A file's pages joined by '\f' (form feed), in page order, so the page of a match is known. */
const pagesText = (d: Dialect, fileId: string) =>
  d === 'postgres'
    ? `coalesce((select string_agg(t.text, E'\\f' order by t.page) from file_text_pages t where t.file_id = ${fileId}), '')`
    : `coalesce((select group_concat(t.text, char(12) order by t.page) from file_text_pages t where t.file_id = ${fileId}), '')`;

const sources = (d: Dialect): Source[] => [
  {
    table: 'medical_files',
    kind: 'file',
    profile: ownProfile,
    title: (r) => `${r}.display_name`,
    heading: (r) =>
      joined(
        `${r}.display_name`,
        `${r}.original_name`,
        `${r}.record_date`,
        `${r}.provider_name`,
        `${r}.visit_location`,
        `${r}.visit_reason`,
      ),
    // The pages' text (file_text_pages, migration 0025), in page order.
    body: (r) => pagesText(d, `${r}.id`),
    date: (r) => `coalesce(${r}.record_date, substr(${r}.created_at, 1, 10))`,
    format: (r) => `${r}.file_type`,
  },
  {
    table: 'medications',
    kind: 'medication',
    profile: plain,
    title: (r) => `coalesce(${r}.medication_name, '')`,
    heading: (r) => joined(`${r}.medication_name`),
    body: (r) => joined(`${r}.dosage`, `${r}.frequency`, `${r}.purpose`),
    date: (r) => `${r}.start_date`,
  },
  {
    table: 'conditions',
    kind: 'condition',
    profile: plain,
    title: (r) => `${r}.name`,
    heading: (r) => joined(`${r}.name`),
    body: (r) => joined(`${r}.status`, `${r}.notes`),
    date: (r) => `${r}.onset_date`,
  },
  {
    table: 'immunizations',
    kind: 'immunization',
    profile: plain,
    title: (r) => `${r}.vaccine`,
    heading: (r) => joined(`${r}.vaccine`),
    body: (r) => joined(`${r}.performer`, `${r}.site`, `${r}.lot_number`, `${r}.notes`),
    date: (r) => `${r}.date`,
  },
  {
    table: 'lab_results',
    kind: 'lab-result',
    profile: plain,
    title: (r) => `${r}.name`,
    heading: (r) => joined(`${r}.name`, `${r}.loinc_code`),
    body: (r) =>
      joined(
        `concat_ws(' ', coalesce(${r}.value_text, ${num(d, `${r}.value`)}), ${r}.unit)`,
        `${r}.interpretation`,
        `${r}.reference_range`,
        `${r}.notes`,
      ),
    date: (r) => `${r}.date`,
  },
  {
    table: 'procedures',
    kind: 'procedure',
    profile: plain,
    title: (r) => `${r}.name`,
    heading: (r) => joined(`${r}.name`),
    body: (r) => joined(`${r}.status`, `${r}.performer`, `${r}.notes`),
    date: (r) => `${r}.performed_date`,
  },
  {
    table: 'appointments',
    kind: 'appointment',
    profile: ownProfile,
    title: (r) => `${r}.provider_name`,
    heading: (r) => joined(`${r}.provider_name`, `${r}.reason_for_visit`),
    body: (r) => joined(`${r}.location`),
    date: (r) => `${r}.appointment_date`,
  },
  {
    table: 'emergency_contacts',
    kind: 'contact',
    profile: plain,
    title: (r) => `${r}.name`,
    heading: (r) => joined(`${r}.name`),
    body: (r) => joined(`${r}.relationship`, `${r}.phone_number`, `${r}.email`),
    date: () => 'null',
  },
  {
    table: 'healthcare_providers',
    kind: 'provider',
    profile: plain,
    title: (r) => `${r}.provider_name`,
    heading: (r) => joined(`${r}.provider_name`, `${r}.specialty`),
    body: (r) => joined(`${r}.facility`, `${r}.phone_number`, `${r}.email`, `${r}.address`, `${r}.notes`),
    date: () => 'null',
  },
  {
    table: 'profiles',
    kind: 'allergy',
    profile: (r) => `${r}.id`,
    title: () => `'Allergies'`,
    heading: () => `''`,
    body: (r) => `trim(${r}.allergy_details)`,
    date: () => 'null',
    when: (r) => `coalesce(trim(${r}.allergy_details), '') <> ''`,
  },
];

const COLUMNS = 'kind, ref_id, user_id, profile_id, scope, title, heading, body, date, format';

/** The token that names a person and their owner in the index (see search.repository.ts scopeToken). */
const scopeSql = (profile: string, user: string) => `'p' || replace(${profile}, '-', '') || 'u' || replace(${user}, '-', '')`;

/** The entry's values for source row `r`, in COLUMNS order. */
function values(s: Source, r: string, withBody = true): string[] {
  const profile = s.profile(r);
  return [
    `'${s.kind}'`,
    `${r}.id`,
    `${r}.user_id`,
    profile,
    `coalesce(${scopeSql(profile, `${r}.user_id`)}, '') || ' k${s.kind.replace(/-/g, '')}'`,
    `coalesce(${s.title(r)}, '')`,
    `coalesce(${s.heading(r)}, '')`,
    withBody ? `coalesce(${s.body(r)}, '')` : `''`,
    s.date(r),
    s.format ? s.format(r) : 'null',
  ];
}

/**
 * Writes source row `r`'s entry (or removes it when `when` fails). A file's row keeps the body its
 * pages gave (the pages' own trigger keeps it), so renaming a file does not re-read its pages.
 */
function upsertStatements(s: Source, r: string): string[] {
  const isFile = s.kind === 'file';
  const set = ['user_id', 'profile_id', 'scope', 'title', 'heading', ...(isFile ? [] : ['body']), 'date', 'format']
    .map((c) => `${c} = excluded.${c}`)
    .join(', ');
  const insert =
    `insert into search_entries (${COLUMNS}) select ${values(s, r, !isFile).join(', ')} where ${s.when ? s.when(r) : 'true'} ` +
    `on conflict (kind, ref_id) do update set ${set}`;
  if (!s.when) return [insert];
  return [`delete from search_entries where kind = '${s.kind}' and ref_id = ${r}.id and not (${s.when(r)})`, insert];
}

const deleteStatement = (s: Source, r: string) => `delete from search_entries where kind = '${s.kind}' and ref_id = ${r}.id`;

/** A file's body from its pages, after a page is written or removed. */
const pagesBody = (d: Dialect, fileId: string) =>
  `update search_entries set body = ${pagesText(d, fileId)} where kind = 'file' and ref_id = ${fileId}`;

/** Fills the index from every source table (the migration's backfill and rebuildSearchIndex). */
export function fillSearchIndexStatements(d: Dialect): string[] {
  return sources(d).map(
    (s) =>
      `insert into search_entries (${COLUMNS}) select ${values(s, 'r').join(', ')} from ${s.table} r${s.when ? ` where ${s.when('r')}` : ''}`,
  );
}

async function run(db: Kysely<unknown>, statement: string) {
  await sql.raw(statement).execute(db);
}

/**
 * Creates the unaccent extension (trusted since PostgreSQL 13: a database owner may) inside a
 * savepoint, so a role that may not create it leaves the migration's transaction usable and the
 * fold falls back to its translate() table.
 */
async function createUnaccent(db: Kysely<unknown>): Promise<boolean> {
  await run(db, 'savepoint kinchart_unaccent');
  try {
    await run(db, 'create extension if not exists unaccent');
    await run(db, 'release savepoint kinchart_unaccent');
    return true;
  } catch {
    await run(db, 'rollback to savepoint kinchart_unaccent');
    return false;
  }
}

/** The fold the PostgreSQL index and queries share: unaccent when the database has it, else a translate() table. */
async function createFold(db: Kysely<unknown>) {
  const available = await sql<{ n: number }>`select count(*)::int as n from pg_available_extensions where name = 'unaccent'`.execute(db);
  let unaccented = 'lower($1)';
  if ((available.rows[0]?.n ?? 0) > 0 && (await createUnaccent(db))) {
    const schema = await sql<{
      s: string;
    }>`select extnamespace::regnamespace::text as s from pg_extension where extname = 'unaccent'`.execute(db);
    const s = schema.rows[0]?.s ?? 'public';
    unaccented = `${s}.unaccent('${s}.unaccent'::regdictionary, lower($1))`;
  } else {
    const { from, to } = foldTable();
    const quote = (t: string) => `'${t.replace(/'/g, "''")}'`;
    unaccented = `translate(lower($1), ${quote(from)}, ${quote(to)})`;
  }
  // IMMUTABLE so a generated column may use it: the dictionary it reads is fixed for the database's life.
  await run(
    db,
    `create function kinchart_search_fold(text) returns text language sql immutable parallel safe strict as $$ ` +
      `select regexp_replace(${unaccented}, '[[:punct:]]', ' ', 'g') $$`,
  );
}

/** The most of a body PostgreSQL indexes (a tsvector is at most 1 MB); SQLite indexes all of it. */
export const PG_INDEXED_BODY_CHARS = 400_000;

export const searchIndex: Migration = {
  async up(db: Kysely<unknown>) {
    const d: Dialect = db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
    if (d === 'postgres') {
      await createFold(db);
      await run(
        db,
        `create table search_entries (
          id bigint generated always as identity primary key,
          kind text not null, ref_id text not null, user_id text not null, profile_id text,
          scope text not null, title text not null, heading text not null, body text not null,
          date text, format text,
          tsv tsvector generated always as (
            setweight(to_tsvector('simple'::regconfig, scope), 'D') ||
            setweight(to_tsvector('simple'::regconfig, kinchart_search_fold(heading)), 'A') ||
            setweight(to_tsvector('simple'::regconfig, kinchart_search_fold(left(body, ${PG_INDEXED_BODY_CHARS}))), 'B')
          ) stored,
          unique (kind, ref_id))`,
      );
      await run(db, 'create index search_entries_tsv_idx on search_entries using gin (tsv)');
    } else {
      await run(
        db,
        `create table search_entries (
          id integer primary key,
          kind text not null, ref_id text not null, user_id text not null, profile_id text,
          scope text not null, title text not null, heading text not null, body text not null,
          date text, format text,
          unique (kind, ref_id))`,
      );
      await run(
        db,
        `create virtual table search_fts using fts5(scope, heading, body, content = 'search_entries', content_rowid = 'id', ` +
          `tokenize = "unicode61 remove_diacritics 2", prefix = '2 3')`,
      );
      const fts = (r: string) => `${r}.id, ${r}.scope, ${r}.heading, ${r}.body`;
      const remove = `insert into search_fts (search_fts, rowid, scope, heading, body) values ('delete', ${fts('old')})`;
      const add = `insert into search_fts (rowid, scope, heading, body) values (${fts('new')})`;
      await run(db, `create trigger search_entries_fts_insert after insert on search_entries begin ${add}; end`);
      await run(db, `create trigger search_entries_fts_delete after delete on search_entries begin ${remove}; end`);
      await run(db, `create trigger search_entries_fts_update after update on search_entries begin ${remove}; ${add}; end`);
    }
    await run(db, 'create index search_entries_user_idx on search_entries (user_id)');

    for (const s of sources(d)) {
      if (d === 'postgres') {
        await run(
          db,
          `create function kinchart_search_${s.table}() returns trigger language plpgsql as $$
           begin
             if tg_op = 'DELETE' then ${deleteStatement(s, 'old')};
             else ${upsertStatements(s, 'new').join('; ')}; end if;
             return null;
           end $$`,
        );
        await run(
          db,
          `create trigger ${s.table}_search after insert or update or delete on ${s.table} for each row execute function kinchart_search_${s.table}()`,
        );
      } else {
        await run(
          db,
          `create trigger ${s.table}_search_insert after insert on ${s.table} begin ${upsertStatements(s, 'new').join('; ')}; end`,
        );
        await run(
          db,
          `create trigger ${s.table}_search_update after update on ${s.table} begin ${upsertStatements(s, 'new').join('; ')}; end`,
        );
        await run(db, `create trigger ${s.table}_search_delete after delete on ${s.table} begin ${deleteStatement(s, 'old')}; end`);
      }
    }
    // A file's pages feed its entry's body (pages arrive in one transaction and go before a re-read).
    if (d === 'postgres') {
      await run(
        db,
        `create function kinchart_search_file_text_pages() returns trigger language plpgsql as $$
         begin
           if tg_op = 'DELETE' then ${pagesBody(d, 'old.file_id')};
           else ${pagesBody(d, 'new.file_id')}; end if;
           if tg_op = 'UPDATE' and old.file_id <> new.file_id then ${pagesBody(d, 'old.file_id')}; end if;
           return null;
         end $$`,
      );
      await run(
        db,
        'create trigger file_text_pages_search after insert or update or delete on file_text_pages for each row execute function kinchart_search_file_text_pages()',
      );
    } else {
      await run(
        db,
        `create trigger file_text_pages_search_insert after insert on file_text_pages begin ${pagesBody(d, 'new.file_id')}; end`,
      );
      await run(
        db,
        `create trigger file_text_pages_search_update after update on file_text_pages begin ${pagesBody(d, 'old.file_id')}; ${pagesBody(d, 'new.file_id')}; end`,
      );
      await run(
        db,
        `create trigger file_text_pages_search_delete after delete on file_text_pages begin ${pagesBody(d, 'old.file_id')}; end`,
      );
    }

    for (const statement of fillSearchIndexStatements(d)) await run(db, statement);
  },

  async down(db: Kysely<unknown>) {
    const d: Dialect = db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
    const tables = [...sources(d).map((s) => s.table), 'file_text_pages'];
    if (d === 'postgres') {
      for (const table of tables) {
        await run(db, `drop trigger if exists ${table}_search on ${table}`);
        await run(db, `drop function if exists kinchart_search_${table}()`);
      }
      await run(db, 'drop table if exists search_entries');
      await run(db, 'drop function if exists kinchart_search_fold(text)');
    } else {
      for (const table of tables) {
        for (const event of ['insert', 'update', 'delete']) await run(db, `drop trigger if exists ${table}_search_${event}`);
      }
      await run(db, 'drop table if exists search_fts');
      await run(db, 'drop table if exists search_entries');
    }
  },
};
