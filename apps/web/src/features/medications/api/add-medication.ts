import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Medication, MedicationInput } from '@kinchart/shared/profile';
import { api } from '../../../lib/api-client';
import { updateCachedMedications } from './get-medications';

type MedicationAnswer = Medication & { message: string };

/** POST /api/user/medications → 201 with the new medication and a message. */
export function addMedication(input: MedicationInput): Promise<MedicationAnswer> {
  return api.post<MedicationAnswer>('/api/user/medications', input);
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
