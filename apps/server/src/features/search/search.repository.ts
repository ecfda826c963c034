import { PostgresAdapter, sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import type { Db } from '../../db/database';
import { fillSearchIndexStatements } from '../../db/migrations/0026-search-index';
import { ftsExpression } from './search-query';
import type { SearchTerm } from './search-query';

// The SQL of one search (docs/decisions/0048): one full-text query per search on each database,
// the reader's scope tokens intersected with the query inside the engine, ranked there, one page
// cut there. The index itself is kept by triggers (migration 0026).

/** The token naming a person and their owner in the index (migration 0026 writes the same). */
export const scopeToken = (profileId: string, ownerId: string): string => `p${profileId.replace(/-/g, '')}u${ownerId.replace(/-/g, '')}`;

export interface SearchHit {
  kind: string;
  ref_id: string;
  profile_id: string;
  title: string;
  heading: string;
  body: string;
  date: string | null;
  format: string | null;
  person_name: string | null;
}

export interface SearchPage {
  scopes: string[];
  terms: SearchTerm[];
  kind: string | undefined;
  limit: number;
  offset: number;
}

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

/** A term as a tsquery, folded by the index's own fold; phrases with <->, prefixes with :*. */
function tsTerm(term: SearchTerm): RawBuilder<unknown> {
  const parts = term.words.map((word, i) => {
    const star = term.prefix && i === term.words.length - 1 ? ':*' : '';
    return sql`to_tsquery('simple', quote_literal(kinchart_search_fold(${word})) || ${star})`;
  });
  return parts.reduce((a, b) => sql`(${a} <-> ${b})`);
}

export function createSearchRepository(db: Db) {
  return {
    /** One page of hits, best first (ties: newest date first), joined to their person's name. */
    async search(page: SearchPage): Promise<SearchHit[]> {
      if (page.scopes.length === 0 || page.terms.length === 0) return [];
      const kind = page.kind === undefined ? sql.raw('') : sql`and e.kind = ${page.kind}`;
      if (isPostgres(db)) {
        const query = page.terms.map(tsTerm).reduce((a, b) => sql`(${a} && ${b})`);
        const scope = page.scopes.map((s) => sql`to_tsquery('simple', quote_literal(${s}))`).reduce((a, b) => sql`(${a} || ${b})`);
        const { rows } = await sql<SearchHit>`
          with q as (select ${query} as query, ${scope} as scope)
          select e.kind, e.ref_id, e.profile_id, e.title, e.heading, e.body, e.date, e.format, p.name as person_name
          from q, search_entries e
          join profiles p on p.id = e.profile_id and p.user_id = e.user_id
          where e.tsv @@ (q.scope && q.query) ${kind}
          order by ts_rank_cd('{0, 0, 0.4, 1.0}', e.tsv, q.query) desc, e.date desc nulls last, e.id
          limit ${page.limit} offset ${page.offset}`.execute(db);
        return rows;
      }
      const { rows } = await sql<SearchHit>`
        select e.kind, e.ref_id, e.profile_id, e.title, e.heading, e.body, e.date, e.format, p.name as person_name
        from (select rowid as id, bm25(search_fts, 0, 10, 1) as rank from search_fts where search_fts match ${ftsExpression(page.terms, page.scopes)}) m
        join search_entries e on e.id = m.id
        join profiles p on p.id = e.profile_id and p.user_id = e.user_id
        where 1 = 1 ${kind}
        order by m.rank, e.date desc nulls last, e.id
        limit ${page.limit} offset ${page.offset}`.execute(db);
      return rows;
    },
  };
}

/** Clears the index and fills it again from every source table, in one transaction (`npm run reindex`). */
export async function rebuildSearchIndex(db: Db): Promise<void> {
  const dialect = isPostgres(db) ? 'postgres' : 'sqlite';
  await db.transaction().execute(async (trx) => {
    await sql`delete from search_entries`.execute(trx);
    if (dialect === 'sqlite') await sql`insert into search_fts (search_fts) values ('rebuild')`.execute(trx);
    for (const statement of fillSearchIndexStatements(dialect)) await sql.raw(statement).execute(trx);
  });
}
