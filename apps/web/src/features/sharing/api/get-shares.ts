import { queryOptions, useQuery } from '@tanstack/react-query';
import { sharesSchema, type Share } from '@kinchart/shared/people';
import { api } from '../../../lib/api-client';

export const sharesQueryKey = (personId: string) => ['people', personId, 'shares'] as const;

/** GET /api/user/people/{personId}/shares — pending invitations and active shares (owner or manager). */
export async function getShares(personId: string): Promise<Share[]> {
  return sharesSchema.parse(await api.get(`/api/user/people/${encodeURIComponent(personId)}/shares`));
}

export function sharesQueryOptions(personId: string) {
  return queryOptions({ queryKey: sharesQueryKey(personId), queryFn: () => getShares(personId) });
}

export function useShares(personId: string) {
  return useQuery(sharesQueryOptions(personId));
}
