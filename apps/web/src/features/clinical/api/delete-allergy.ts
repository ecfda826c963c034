import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Allergy } from '@kinchart/shared/allergies';
import { messageSchema, type MessageResponse } from '@kinchart/shared/common';
import { api } from '../../../lib/api-client';
import { allergiesPath, allergiesQueryKey, refreshAfterAllergyChange } from './allergy-paths';

/** DELETE /api/user/people/{personId}/allergies/{id} → `{ message }` ("Allergy deleted"; editor and up). */
export async function deleteAllergy(personId: string, id: string): Promise<MessageResponse> {
  return messageSchema.parse(await api.delete(allergiesPath(personId, id)));
}

export function useDeleteAllergy(personId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteAllergy(personId, id),
    onSuccess: (_answer, id) => {
      // Gone from the list at once; the refetch confirms it.
      queryClient.setQueryData<Allergy[]>(allergiesQueryKey(personId), (list) => list?.filter((a) => a.id !== id));
      return refreshAfterAllergyChange(queryClient, personId);
    },
  });
}
