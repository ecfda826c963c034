import { queryOptions, useQuery } from '@tanstack/react-query';
import { sessionsSchema, type SessionInfo } from '@kinchart/shared/auth';
import { api } from '../../../lib/api-client';

export const sessionsQueryKey = ['sessions'] as const;

/** GET /api/auth/sessions: the signed-in user's live sessions, this one first (DESIGN §5). */
export async function getSessions(): Promise<SessionInfo[]> {
  return sessionsSchema.parse(await api.get('/api/auth/sessions'));
}

export const sessionsQueryOptions = queryOptions({ queryKey: sessionsQueryKey, queryFn: getSessions });

export function useSessions() {
  return useQuery(sessionsQueryOptions);
}
