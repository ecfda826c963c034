import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageSchema, type MessageResponse } from '@kinchart/shared/common';
import { api } from '../../../lib/api-client';
import { medicationPath, updateCachedMedications } from './get-medications';

/** DELETE /api/user/medications/{id}, or DELETE /api/user/family/members/{personId}/medications/{id}. */
export async function deleteMedication(personId: string | null, id: string): Promise<MessageResponse> {
  return messageSchema.parse(await api.delete(medicationPath(personId, id)));
}

export function useDeleteMedication(personId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteMedication(personId, id),
    onSuccess: (_answer, id) => {
      updateCachedMedications(queryClient, personId, (list) => list.filter((item) => item.id !== id));
    },
  });
}
