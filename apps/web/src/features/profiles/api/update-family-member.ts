import { useMutation, useQueryClient } from '@tanstack/react-query';
import { familyMemberResponseSchema, type FamilyUpdateInput } from '@kinchart/shared/profile';
import { api } from '../../../lib/api-client';
import { dispatchAppEvent } from '../../../lib/events';
import { familyMemberQueryKey } from './get-family-member';
import { familyMembersQueryKey } from '../../../lib/queries/family-members';
import { patientProfileQueryKey } from '../../../lib/queries/patient-profile';

/**
 * PUT /api/user/family/members/{id} — the whole edit form, nested emergency_contacts,
 * healthcare_providers and medications included (SPEC §7: 200 is success).
 */
export async function updateFamilyMember({ id, input }: { id: string; input: FamilyUpdateInput }) {
  return familyMemberResponseSchema.parse(await api.put(`/api/user/family/members/${encodeURIComponent(id)}`, input));
}

export function useUpdateFamilyMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateFamilyMember,
    onSuccess: async ({ message: _message, ...member }) => {
      queryClient.setQueryData(familyMemberQueryKey(member.id), member);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: familyMembersQueryKey }),
        queryClient.invalidateQueries({ queryKey: patientProfileQueryKey }),
      ]);
      // SPEC §4 Refresh events: the dashboard listens for this.
      dispatchAppEvent('familyMemberUpdated', { id: member.id });
    },
  });
}
