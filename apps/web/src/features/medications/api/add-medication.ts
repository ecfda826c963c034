import { useMutation, useQueryClient } from '@tanstack/react-query';
import { medicationResponseSchema, type MedicationInput } from '@kinchart/shared/profile';
import { api } from '../../../lib/api-client';
import { medicationPath, updateCachedMedications } from './get-medications';

/**
 * POST /api/user/medications, or POST /api/user/family/members/{id}/medications for someone else
 * (SPEC §7) → 201 with the new medication and a message.
 */
export async function addMedication(personId: string | null, input: MedicationInput) {
  return medicationResponseSchema.parse(await api.post(medicationPath(personId), input));
}

/** SPEC §4 "Add and edit modals": after a successful save the list updates locally. */
export function useAddMedication(personId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: MedicationInput) => addMedication(personId, input),
    onSuccess: ({ message: _message, ...medication }) => {
      updateCachedMedications(queryClient, personId, (list) => [...list, medication]);
    },
  });
}
