import { useMutation, useQueryClient } from '@tanstack/react-query';
import { medicationResponseSchema, type MedicationInput, type PatientProfile } from '@kinchart/shared/profile';
import { api } from '../../../lib/api-client';
import { patientProfileQueryKey } from '../../../lib/queries/patient-profile';

/** POST /api/user/medications → 201 with the medication. */
export async function addMedication(input: MedicationInput) {
  return medicationResponseSchema.parse(await api.post('/api/user/medications', input));
}

export function useAddMedication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addMedication,
    onSuccess: async ({ message: _message, ...medication }) => {
      queryClient.setQueryData<PatientProfile>(
        patientProfileQueryKey,
        (profile) => profile && { ...profile, medications: [...profile.medications, medication] },
      );
      // Other screens list medications too (prescriptions); they refetch on their own key.
      await queryClient.invalidateQueries({ queryKey: patientProfileQueryKey });
    },
  });
}
