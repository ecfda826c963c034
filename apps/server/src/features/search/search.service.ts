import { createHash } from 'node:crypto';
import type { SearchKind, SearchQuery, SearchResponse, SearchResult } from '@kinchart/shared/search';
import { SEARCH_EMPTY_MESSAGE } from '@kinchart/shared/search';
import type { Actor, PersonAccess, PersonAccessService } from '../../common/person-access';
import type { Db } from '../../db/database';
import { badRequest } from '../../lib/http-errors';
import { parseSearch } from './search-query';
import type { SearchTerm } from './search-query';
import { leadOf, snippetOf } from './search-snippet';
import type { Snippet } from './search-snippet';
import { createSearchRepository, scopeToken } from './search.repository';
import type { SearchHit } from './search.repository';

export type RouteName = string;

const CURSOR_MESSAGE = 'cursor is not one this search gave';

/** What a cursor is bound to: a cursor of another query, person, kind or account is refused. */
const cursorKey = (userId: string, query: SearchQuery) =>
  createHash('sha256')
    .update(JSON.stringify([userId, query.q, query.person ?? null, query.kind ?? null]))
    .digest('base64url')
    .slice(0, 16);

const encodeCursor = (offset: number, key: string) => Buffer.from(JSON.stringify([offset, key])).toString('base64url');

function decodeCursor(cursor: string | undefined, key: string): number {
  if (cursor === undefined) return 0;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badRequest(CURSOR_MESSAGE);
  }
  if (!Array.isArray(parsed) || parsed.length !== 2 || parsed[1] !== key) throw badRequest(CURSOR_MESSAGE);
  const offset: unknown = parsed[0];
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0 || offset > 100_000) throw badRequest(CURSOR_MESSAGE);
  return offset;
}

/** Where the web app opens a hit (agreed with the web app's routes; docs/decisions/0048). */
function urlOf(hit: SearchHit, person: PersonAccess | undefined, page: number | undefined): string {
  const id = encodeURIComponent(hit.ref_id);
  const personId = encodeURIComponent(hit.profile_id);
  const editor = person?.role === 'owner' && person.isSelf ? '/profile' : `/edit-family-member/${personId}`;
  switch (hit.kind as SearchKind) {
    case 'file':
      return `/api/user/files/${id}/content${hit.format === 'application/pdf' && page !== undefined ? `#page=${page}` : ''}`;
    case 'medication':
      return `/prescriptions#medication-${id}`;
    case 'condition':
    case 'immunization':
    case 'lab-result':
    case 'procedure':
      return `/health-records/${personId}#${hit.kind}-${id}`;
    case 'appointment':
      return `/appointments#appointment-${id}`;
    case 'allergy':
      return `${editor}#allergies`;
    case 'contact':
      return `${editor}#contact-${id}`;
    case 'provider':
      return `${editor}#provider-${id}`;
  }
}

/** The snippet: from the body where a term is found there, else from the heading, else the start of what there is. */
function snippetFor(hit: SearchHit, terms: readonly SearchTerm[]): { snippet: Snippet; inBody: boolean } {
  const inBody = hit.body === '' ? null : snippetOf(hit.body, terms);
  if (inBody) return { snippet: inBody, inBody: true };
  const inHeading = hit.heading === '' ? null : snippetOf(hit.heading, terms);
  if (inHeading) return { snippet: inHeading, inBody: false };
  return { snippet: leadOf(hit.body || hit.heading || hit.title), inBody: hit.body !== '' };
}

/**
 * GET /api/user/search (issue 33, DESIGN §14): one search over the files' text and names and every
 * structured list of every person the reader may see (viewer and up), through the one access
 * function. Reads of shared people are audited, once per shared person whose hits the page holds.
 */
export function createSearchService(deps: { db: Db; access: PersonAccessService }) {
  const repo = createSearchRepository(deps.db);

  return {
    async search(actor: Actor, route: RouteName, query: SearchQuery): Promise<SearchResponse> {
      const terms = parseSearch(query.q);
      if (terms.length === 0) throw badRequest(SEARCH_EMPTY_MESSAGE);
      const key = cursorKey(actor.userId, query);
      const offset = decodeCursor(query.cursor, key);
      const people: PersonAccess[] =
        query.person === undefined
          ? await deps.access.visible(actor.userId)
          : [await deps.access.require(actor, query.person, { need: 'viewer', what: route })];
      const byId = new Map(people.map((p) => [p.profileId, p]));
      const hits = await repo.search({
        scopes: people.map((p) => scopeToken(p.profileId, p.ownerId)),
        terms,
        kind: query.kind,
        limit: query.limit + 1,
        offset,
      });
      const page = hits.slice(0, query.limit);
      if (query.person === undefined) {
        const touched = new Set(page.map((h) => h.profile_id));
        await deps.access.auditAll(
          actor,
          people.filter((p) => p.shareId !== null && touched.has(p.profileId)),
          route,
        );
      }
      const results = page.map((hit): SearchResult => {
        const { snippet, inBody } = snippetFor(hit, terms);
        const filePage = hit.kind === 'file' && inBody ? snippet.page : undefined;
        return {
          kind: hit.kind as SearchKind,
          id: hit.ref_id,
          person_id: hit.profile_id,
          person_name: hit.person_name,
          title: hit.title,
          date: hit.date,
          snippet: snippet.snippet,
          highlights: snippet.highlights,
          ...(filePage === undefined ? {} : { page: filePage }),
          url: urlOf(hit, byId.get(hit.profile_id), filePage),
        };
      });
      return { results, next_cursor: hits.length > query.limit ? encodeCursor(offset + query.limit, key) : null };
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
