import { useMutation, useQueryClient } from '@tanstack/react-query';
import { medicationResponseSchema, type MedicationInput } from '@kinchart/shared/profile';
import { api } from '../../../lib/api-client';
import { updateCachedMedications } from './get-medications';

/** POST /api/user/medications → 201 with the new medication and a message. */
export async function addMedication(input: MedicationInput) {
  return medicationResponseSchema.parse(await api.post('/api/user/medications', input));
}

/** SPEC §4 "Add and edit modals": after a successful save the list updates locally. */
export function useAddMedication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addMedication,
    onSuccess: ({ message: _message, ...medication }) => {
      updateCachedMedications(queryClient, (list) => [...list, medication]);
    },
  });
}
