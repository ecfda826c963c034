import { useMutation, useQueryClient } from '@tanstack/react-query';
import { medicationResponseSchema, type MedicationInput } from '@kinchart/shared/profile';
import { api } from '../../../lib/api-client';
import { updateCachedMedications } from './get-medications';

export interface UpdateMedicationVariables {
  id: string;
  /** The whole medication: PUT replaces every field (SPEC §7 "same body"). */
  input: MedicationInput;
}

/** PUT /api/user/medications/{id} → the stored medication and a message. */
export async function updateMedication({ id, input }: UpdateMedicationVariables) {
  return medicationResponseSchema.parse(await api.put(`/api/user/medications/${encodeURIComponent(id)}`, input));
}

/** SPEC §4 "Add and edit modals": after a successful save the list updates locally. */
export function useUpdateMedication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMedication,
    onSuccess: ({ message: _message, ...medication }, { id }) => {
      updateCachedMedications(queryClient, (list) => list.map((item) => (item.id === id ? medication : item)));
    },
  });
}
