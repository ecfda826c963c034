import { useMutation, useQueryClient } from '@tanstack/react-query';
import { allergySchema, type Allergy, type AllergyInput } from '@kinchart/shared/allergies';
import { messageSchema } from '@kinchart/shared/common';
import { api } from '../../../lib/api-client';
import { serverText } from '../../../i18n/server-messages';
import { allergiesPath, refreshAfterAllergyChange } from './allergy-paths';

export interface SaveAllergyVariables {
  /** The entry to change; without one a new entry is added. */
  id?: string | undefined;
  input: AllergyInput;
}

/**
 * POST /api/user/people/{personId}/allergies → 201, or PUT …/{id} → 200 (editor and up): the
 * stored entry and the server's message ("Allergy added", "Allergy updated").
 */
export async function saveAllergy(personId: string, { id, input }: SaveAllergyVariables): Promise<{ allergy: Allergy; message: string }> {
  const answer = id === undefined ? await api.post(allergiesPath(personId), input) : await api.put(allergiesPath(personId, id), input);
  return { allergy: allergySchema.parse(answer), message: serverText(answer) ?? messageSchema.parse(answer).message };
}

export function useSaveAllergy(personId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: SaveAllergyVariables) => saveAllergy(personId, variables),
    onSuccess: () => refreshAfterAllergyChange(queryClient, personId),
  });
}
