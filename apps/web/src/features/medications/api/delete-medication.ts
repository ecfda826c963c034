import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageSchema, type MessageResponse } from '@kinchart/shared/common';
import { api } from '../../../lib/api-client';
import { updateCachedMedications } from './get-medications';

/** DELETE /api/user/medications/{id}. */
export async function deleteMedication(id: string): Promise<MessageResponse> {
  return messageSchema.parse(await api.delete(`/api/user/medications/${encodeURIComponent(id)}`));
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
