import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageSchema, type MessageResponse } from '@kinchart/shared/common';
import { api } from '../../../lib/api-client';
import { dispatchAppEvent } from '../../../lib/events';
import { familyMemberQueryKey } from './get-family-member';
import { familyMembersQueryKey } from '../../../lib/queries/family-members';
import { patientProfileQueryKey } from '../../../lib/queries/patient-profile';

/** DELETE /api/user/family/members/{id} — the member and everything of theirs. */
export async function deleteFamilyMember(id: string): Promise<MessageResponse> {
  return messageSchema.parse(await api.delete(`/api/user/family/members/${encodeURIComponent(id)}`));
}

export function useDeleteFamilyMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteFamilyMember,
    onSuccess: async (_answer, id) => {
      queryClient.removeQueries({ queryKey: familyMemberQueryKey(id), exact: true });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: familyMembersQueryKey }),
        queryClient.invalidateQueries({ queryKey: patientProfileQueryKey }),
      ]);
      dispatchAppEvent('familyMemberUpdated', { id, deleted: true });
    },
  });
}
