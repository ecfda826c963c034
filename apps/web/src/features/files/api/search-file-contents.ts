import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { SEARCH_LIMIT_MAX, SEARCH_PATH, searchResponseSchema, type SearchResponse, type SearchResult } from '@kinchart/shared/search';
import { api } from '../../../lib/api-client';

/** Issue 33: View Records looks inside files once a search has this many characters. */
export const CONTENT_SEARCH_MIN = 2;
/** …and once typing has paused this long. */
export const CONTENT_SEARCH_DEBOUNCE_MS = 250;

/** GET /api/user/search?q=…&kind=file (&person=…): the files whose text or name matches, best first. */
export async function searchFileContents(q: string, personId?: string): Promise<SearchResponse> {
  const params = new URLSearchParams({ q, kind: 'file', limit: String(SEARCH_LIMIT_MAX) });
  if (personId) params.set('person', personId);
  return searchResponseSchema.parse(await api.get(`${SEARCH_PATH}?${params.toString()}`));
}

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * The files whose text matches View Records' search (SPEC §2's own filter stays as it is; these
 * are added to it). Nothing is asked for a search shorter than CONTENT_SEARCH_MIN characters.
 */
export function useFileContentSearch(search: string, personId?: string) {
  const q = useDebounced(search.trim(), CONTENT_SEARCH_DEBOUNCE_MS);
  const enabled = q.length >= CONTENT_SEARCH_MIN && search.trim() !== '';
  const query = useQuery({
    queryKey: ['search', 'file', { q, person: personId ?? null }],
    queryFn: () => searchFileContents(q, personId),
    enabled,
    placeholderData: keepPreviousData,
  });
  // A failed search leaves View Records' own filter as it is: the matches inside files are extra.
  return enabled && query.data ? query.data.results : NONE;
}
const NONE: SearchResult[] = [];
