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
/** The token naming an entry's kind in the index (migration 0026 writes the same). */
const kindToken = (kind: string) => `k${kind.replace(/-/g, '')}`;

/**
 * The most matches ranked for one search: the newest RANK_WINDOW entries that match (by entry id,
 * so by when they were written) are ranked by relevance; older matches of a word that common are
 * not reached. Ranking reads each match's positions, so this bounds a search's time whatever the
 * account holds (docs/decisions/0048, measurements).
 */
export const RANK_WINDOW = 1000;

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
    /**
     * One page of hits, best first (ties: newest date first), joined to their person's name: one
     * statement. The engine intersects the scope tokens with the words, takes the newest
     * RANK_WINDOW matches, ranks those and cuts the page.
     */
    async search(page: SearchPage): Promise<SearchHit[]> {
      if (page.scopes.length === 0 || page.terms.length === 0) return [];
      if (isPostgres(db)) {
        const query = page.terms.map(tsTerm).reduce((a, b) => sql`(${a} && ${b})`);
        let scope = page.scopes.map((s) => sql`to_tsquery('simple', quote_literal(${s}))`).reduce((a, b) => sql`(${a} || ${b})`);
        if (page.kind !== undefined) scope = sql`(${scope} && to_tsquery('simple', quote_literal(${kindToken(page.kind)})))`;
        const { rows } = await sql<SearchHit>`
          with q as materialized (select ${query} as query, ${scope} as scope),
          matched as materialized (
            select e.id from search_entries e, q where e.tsv @@ (q.scope && q.query) order by e.id desc limit ${RANK_WINDOW}
          )
          select e.kind, e.ref_id, e.profile_id, e.title, e.heading, e.body, e.date, e.format, p.name as person_name
          from q, matched m
          join search_entries e on e.id = m.id
          join profiles p on p.id = e.profile_id and p.user_id = e.user_id
          order by ts_rank_cd('{0, 0, 0.4, 1.0}', e.tsv, q.query) desc, e.date desc nulls last, e.id
          limit ${page.limit} offset ${page.offset}`.execute(db);
        return rows;
      }
      const match = ftsExpression(page.terms, page.scopes, page.kind === undefined ? undefined : kindToken(page.kind));
      const { rows } = await sql<SearchHit>`
        select e.kind, e.ref_id, e.profile_id, e.title, e.heading, e.body, e.date, e.format, p.name as person_name
        from (
          select rowid as id, bm25(search_fts, 0, 10, 1) as rank from search_fts
          where search_fts match ${match}
            and rowid >= coalesce((select rowid from search_fts where search_fts match ${match} order by rowid desc limit 1 offset ${RANK_WINDOW - 1}), 0)
        ) m
        join search_entries e on e.id = m.id
        join profiles p on p.id = e.profile_id and p.user_id = e.user_id
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
