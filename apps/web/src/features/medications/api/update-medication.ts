import { useMutation, useQueryClient } from '@tanstack/react-query';
import { medicationResponseSchema, type MedicationInput } from '@kinchart/shared/profile';
import { api } from '../../../lib/api-client';
import { medicationPath, updateCachedMedications } from './get-medications';

export interface UpdateMedicationVariables {
  id: string;
  /** The whole medication: PUT replaces every field (SPEC §7 "same body"). */
  input: MedicationInput;
}

/**
 * PUT /api/user/medications/{id}, or PUT /api/user/family/members/{personId}/medications/{id} for
 * someone else → the stored medication and a message.
 */
export async function updateMedication(personId: string | null, { id, input }: UpdateMedicationVariables) {
  return medicationResponseSchema.parse(await api.put(medicationPath(personId, id), input));
}

/** SPEC §4 "Add and edit modals": after a successful save the list updates locally. */
export function useUpdateMedication(personId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: UpdateMedicationVariables) => updateMedication(personId, variables),
    onSuccess: ({ message: _message, ...medication }, { id }) => {
      updateCachedMedications(queryClient, personId, (list) => list.map((item) => (item.id === id ? medication : item)));
    },
  });
}
