import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageSchema, type MessageResponse } from '@kinchart/shared/common';
import type { PatientProfile } from '@kinchart/shared/profile';
import { api } from '../../../lib/api-client';
import { patientProfileQueryKey } from '../../../lib/queries/patient-profile';

/** DELETE /api/user/medications/{id}. */
export async function removeMedication(id: string): Promise<MessageResponse> {
  return messageSchema.parse(await api.delete(`/api/user/medications/${encodeURIComponent(id)}`));
}

export function useRemoveMedication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeMedication,
    onSuccess: async (_answer, id) => {
      queryClient.setQueryData<PatientProfile>(
        patientProfileQueryKey,
        (profile) => profile && { ...profile, medications: profile.medications.filter((m) => m.id !== id) },
      );
      await queryClient.invalidateQueries({ queryKey: patientProfileQueryKey });
    },
  });
}
