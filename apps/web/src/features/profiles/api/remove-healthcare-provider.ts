import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageSchema, type MessageResponse } from '@kinchart/shared/common';
import type { PatientProfile } from '@kinchart/shared/profile';
import { api } from '../../../lib/api-client';
import { patientProfileQueryKey } from '../../../lib/queries/patient-profile';

/** DELETE /api/user/healthcare-providers/{provider_id}. */
export async function removeHealthcareProvider(id: string): Promise<MessageResponse> {
  return messageSchema.parse(await api.delete(`/api/user/healthcare-providers/${encodeURIComponent(id)}`));
}

export function useRemoveHealthcareProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeHealthcareProvider,
    onSuccess: async (_answer, id) => {
      queryClient.setQueryData<PatientProfile>(
        patientProfileQueryKey,
        (profile) => profile && { ...profile, healthcare_providers: profile.healthcare_providers.filter((p) => p.id !== id) },
      );
      await queryClient.invalidateQueries({ queryKey: patientProfileQueryKey });
    },
  });
}
