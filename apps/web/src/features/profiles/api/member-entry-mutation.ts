import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dispatchAppEvent } from '../../../lib/events';
import { familyMemberQueryKey } from './get-family-member';

/**
 * A change to one entry of a member's lists (contact, provider, medication), saved at once like
 * the own profile's: afterwards the member is read again and the page is told (SPEC §4 Refresh
 * events), so the editor's list and the dashboard show what the server holds.
 */
export function useMemberEntryMutation<V, R>(memberId: string, call: (memberId: string, values: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: V) => call(memberId, values),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: familyMemberQueryKey(memberId), exact: true });
      dispatchAppEvent('familyMemberUpdated', { id: memberId });
    },
  });
}

/** /api/user/family/members/{id}/{list}[/{entryId}]. */
export function memberEntryPath(
  memberId: string,
  list: 'emergency-contacts' | 'healthcare-providers' | 'medications',
  entryId?: string,
): string {
  const base = `/api/user/family/members/${encodeURIComponent(memberId)}/${list}`;
  return entryId === undefined ? base : `${base}/${encodeURIComponent(entryId)}`;
}
