import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageResponse } from '@kinchart/shared/common';
import { api } from '../../../lib/api-client';
import { updateCachedMedications } from './get-medications';

/** DELETE /api/user/medications/{id}. */
export function deleteMedication(id: string): Promise<MessageResponse> {
  return api.delete<MessageResponse>(`/api/user/medications/${encodeURIComponent(id)}`);
}

export function useDeleteMedication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteMedication,
    onSuccess: (_answer, id) => {
      updateCachedMedications(queryClient, (list) => list.filter((item) => item.id !== id));
    },
  });
}
