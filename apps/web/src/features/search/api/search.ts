import { useInfiniteQuery } from '@tanstack/react-query';
import { SEARCH_PATH, searchResponseSchema, type SearchResponse } from '@kinchart/shared/search';
import { api } from '../../../lib/api-client';

export interface SearchParams {
  q: string;
  /** One readable person's id, or undefined for everyone the user may see. */
  person?: string | undefined;
}

/** The prefix of every search query: results change whenever a record does, so they are not kept long. */
const searchQueryKey = ['search'] as const;

/** GET /api/user/search (issue 33): one page of results; `cursor` is the previous page's `next_cursor`. */
export async function searchRecords({ q, person }: SearchParams, cursor: string | null, signal?: AbortSignal): Promise<SearchResponse> {
  const answer = await api.get(SEARCH_PATH, { query: { q, person, cursor: cursor ?? undefined }, signal });
  return searchResponseSchema.parse(answer);
}

/** Every page asked for so far of one search; `fetchNextPage` asks for the next while there is one. */
export function useSearch(params: SearchParams) {
  return useInfiniteQuery({
    queryKey: [...searchQueryKey, params.q, params.person ?? ''],
    queryFn: ({ pageParam, signal }) => searchRecords(params, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    enabled: params.q.trim() !== '',
  });
}
