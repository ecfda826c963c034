import { useMutation, useQueryClient } from '@tanstack/react-query';
import { peopleQueryKey } from '../../../lib/queries/people';
import { deleteShare } from './revoke-share';

export interface LeaveShareInput {
  personId: string;
  /** The share the person is seen through (GET /api/user/people → share_id). */
  shareId: string;
}

/** The holder ends their own share (DESIGN §11): DELETE /api/user/people/{personId}/shares/{shareId}. */
export function leaveShare({ personId, shareId }: LeaveShareInput) {
  return deleteShare(personId, shareId);
}

export function useLeaveShare() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: leaveShare,
    // The person leaves the switcher and every person filter.
    onSettled: () => queryClient.invalidateQueries({ queryKey: peopleQueryKey }),
  });
}
