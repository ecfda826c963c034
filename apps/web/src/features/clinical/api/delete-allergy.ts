import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Allergy } from '@kinchart/shared/allergies';
import { messageSchema, type MessageResponse } from '@kinchart/shared/common';
import { api } from '../../../lib/api-client';
import { serverText } from '../../../i18n/server-messages';
import { allergiesPath, allergiesQueryKey, refreshAfterAllergyChange } from './allergy-paths';

/** DELETE /api/user/people/{personId}/allergies/{id} → `{ message }` ("Allergy deleted"; editor and up). */
export async function deleteAllergy(personId: string, id: string): Promise<MessageResponse> {
  const answer = await api.delete(allergiesPath(personId, id));
  // The message in the reader's language (its code), else as the server wrote it.
  const { message } = messageSchema.parse(answer);
  return { message: serverText(answer) ?? message };
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
