import { useMutation, useQueryClient } from '@tanstack/react-query';
import { familyMemberResponseSchema, type FamilyAddInput } from '@kinchart/shared/profile';
import { api } from '../../../lib/api-client';
import { dispatchAppEvent } from '../../../lib/events';
import { familyMembersQueryKey } from '../../../lib/queries/family-members';
import { patientProfileQueryKey } from '../../../lib/queries/patient-profile';

/** POST /api/user/family/add — SPEC §7: 201 is success; the answer is the new member. */
export async function addFamilyMember(input: FamilyAddInput) {
  return familyMemberResponseSchema.parse(await api.post('/api/user/family/add', input));
}

export function useAddFamilyMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addFamilyMember,
    onSuccess: async (member) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: familyMembersQueryKey }),
        queryClient.invalidateQueries({ queryKey: patientProfileQueryKey }),
      ]);
      dispatchAppEvent('familyMemberUpdated', { id: member.id });
    },
  });
}
