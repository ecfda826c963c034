import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invitationAcceptedSchema } from '@kinchart/shared/people';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { peopleQueryKey } from '../../../lib/queries/people';
import { invitationQueryKey } from './get-invitation';

export type InvitationAccepted = z.infer<typeof invitationAcceptedSchema>;

/** POST /api/user/invitations/{token}/accept (signed in) — the link works once. */
export async function acceptInvitation(token: string): Promise<InvitationAccepted> {
  return invitationAcceptedSchema.parse(await api.post(`/api/user/invitations/${encodeURIComponent(token)}/accept`));
}

export function useAcceptInvitation(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => acceptInvitation(token),
    onSuccess: async () => {
      // The link is spent; the new person joins the switcher and every person filter.
      queryClient.removeQueries({ queryKey: invitationQueryKey(token), exact: true });
      await queryClient.invalidateQueries({ queryKey: peopleQueryKey });
    },
  });
}
