import { queryOptions, useQuery } from '@tanstack/react-query';
import { accessHistorySchema, type AccessEvent } from '@kinchart/shared/people';
import { api } from '../../../lib/api-client';

export const accessHistoryQueryKey = (personId: string) => ['people', personId, 'access-history'] as const;

/** GET /api/user/people/{personId}/access-history — owner only, newest first (DESIGN §11). */
export async function getAccessHistory(personId: string): Promise<AccessEvent[]> {
  return accessHistorySchema.parse(await api.get(`/api/user/people/${encodeURIComponent(personId)}/access-history`));
}

export function useAccessHistory(personId: string) {
  // Always asked afresh when opened: the point is to see what just happened.
  return useQuery(queryOptions({ queryKey: accessHistoryQueryKey(personId), queryFn: () => getAccessHistory(personId), staleTime: 0 }));
}
