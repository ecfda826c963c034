import { useMutation, useQueryClient } from '@tanstack/react-query';
import { shareSchema, type Share, type ShareRole } from '@kinchart/shared/people';
import { api } from '../../../lib/api-client';
import { peopleQueryKey } from '../../../lib/queries/people';
import { sharesQueryKey } from './get-shares';

/**
 * PUT /api/user/people/{personId}/shares/{shareId} — a share's (or a pending invitation's) role,
 * changed in place (owner or manager). A manager made viewer or editor ends what they shared on.
 */
export async function updateShare(personId: string, shareId: string, role: ShareRole): Promise<Share> {
  return shareSchema.parse(
    await api.put(`/api/user/people/${encodeURIComponent(personId)}/shares/${encodeURIComponent(shareId)}`, { role }),
  );
}

export function useUpdateShare(personId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ shareId, role }: { shareId: string; role: ShareRole }) => updateShare(personId, shareId, role),
    onSettled: async () => {
      // A manager changing their own role sees the person differently everywhere.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: sharesQueryKey(personId) }),
        queryClient.invalidateQueries({ queryKey: peopleQueryKey, exact: true }),
      ]);
    },
  });
}
