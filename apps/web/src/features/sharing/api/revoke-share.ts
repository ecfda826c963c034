import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageSchema, type MessageResponse } from '@kinchart/shared/common';
import { api } from '../../../lib/api-client';
import { sharesQueryKey } from './get-shares';

/**
 * DELETE /api/user/people/{personId}/shares/{shareId} — ends a share at once, or cancels an
 * invitation that nobody has accepted yet. The holder of a share calls it too, to leave.
 */
export async function deleteShare(personId: string, shareId: string): Promise<MessageResponse> {
  return messageSchema.parse(await api.delete(`/api/user/people/${encodeURIComponent(personId)}/shares/${encodeURIComponent(shareId)}`));
}

/** The owner or a manager revokes a share of `personId`. */
export function useRevokeShare(personId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (shareId: string) => deleteShare(personId, shareId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sharesQueryKey(personId) }),
  });
}
