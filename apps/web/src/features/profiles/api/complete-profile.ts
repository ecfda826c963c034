import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageSchema, type MessageResponse } from '@kinchart/shared/common';
import type { BasicProfileInput } from '@kinchart/shared/profile';
import { api } from '../../../lib/api-client';
import { authQueryKey } from '../../auth/api/check-auth';
import { patientProfileQueryKey } from '../../../lib/queries/patient-profile';

/** POST /api/user/profile — the 'Complete Your Profile' form (username, name, date of birth, address, phone). */
export async function completeProfile(input: BasicProfileInput): Promise<MessageResponse> {
  return messageSchema.parse(await api.post('/api/user/profile', input));
}

export function useCompleteProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: completeProfile,
    onSuccess: async () => {
      // The username may have changed, and the header greets the user by it.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: patientProfileQueryKey }),
        queryClient.invalidateQueries({ queryKey: authQueryKey }),
      ]);
    },
  });
}
