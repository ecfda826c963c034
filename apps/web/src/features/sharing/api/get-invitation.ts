import { queryOptions, useQuery } from '@tanstack/react-query';
import { invitationSchema, type Invitation } from '@kinchart/shared/people';
import { api } from '../../../lib/api-client';

export const invitationQueryKey = (token: string) => ['invitation', token] as const;

/**
 * GET /api/invitations/{token} — public: who shares whom, under which role, so the page can
 * explain it before the visitor signs in. 404 for a link that is used, expired, revoked or unknown.
 */
export async function getInvitation(token: string): Promise<Invitation> {
  return invitationSchema.parse(await api.get(`/api/invitations/${encodeURIComponent(token)}`));
}

export function useInvitation(token: string) {
  return useQuery(
    queryOptions({
      queryKey: invitationQueryKey(token),
      queryFn: () => getInvitation(token),
      // A used or expired link does not come back by asking again.
      retry: false,
      staleTime: 60_000,
    }),
  );
}
