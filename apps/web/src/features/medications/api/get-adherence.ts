import { queryOptions, useQuery } from '@tanstack/react-query';
import { adherenceSchema, type Adherence } from '@kinchart/shared/care';
import { api } from '../../../lib/api-client';

export const adherenceQueryPrefix = (personId: string) => ['adherence', personId] as const;

/** GET /api/user/people/{personId}/adherence?days= → per scheduled medication, taken of the past doses. */
export async function getAdherence(personId: string, days: number): Promise<Adherence> {
  return adherenceSchema.parse(await api.get(`/api/user/people/${encodeURIComponent(personId)}/adherence`, { query: { days } }));
}

export function useAdherence(personId: string | null, days: number) {
  return useQuery({
    ...queryOptions({ queryKey: [...adherenceQueryPrefix(personId ?? ''), days], queryFn: () => getAdherence(personId ?? '', days) }),
    enabled: personId !== null,
  });
}
