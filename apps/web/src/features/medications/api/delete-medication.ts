import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageResponse } from '@kinchart/shared/common';
import type { Medication } from '@kinchart/shared/profile';
import { api } from '../../../lib/api-client';
import { medicationsQueryKey } from './get-medications';
import { patientProfileQueryKey } from '../../../lib/query-keys';

/** DELETE /api/user/medications/{id}. */
export function deleteMedication(id: string): Promise<MessageResponse> {
  return api.delete<MessageResponse>(`/api/user/medications/${encodeURIComponent(id)}`);
}

export function useDeleteMedication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteMedication,
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<Medication[]>(medicationsQueryKey, (list = []) => list.filter((item) => item.id !== id));
      // The dashboard's Current Medications read the own profile.
      void queryClient.invalidateQueries({ queryKey: patientProfileQueryKey });
    },
  });
}
