import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageSchema, type MessageResponse } from '@kinchart/shared/common';
import type { ProfileUpdateInput } from '@kinchart/shared/profile';
import { api } from '../../../lib/api-client';
import { patientProfileQueryKey } from '../../../lib/queries/patient-profile';

/**
 * PUT /api/user/updateProfile — the whole profile, height in cm and weight in kg (SPEC §7).
 * The editor leaves the nested lists out: its tabs save those one by one, and a list left out is kept.
 */
export async function updateProfile(input: ProfileUpdateInput): Promise<MessageResponse> {
  return messageSchema.parse(await api.put('/api/user/updateProfile', input));
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: patientProfileQueryKey }),
  });
}
