import { useMutation, useQueryClient } from '@tanstack/react-query';
import { medicationResponseSchema, type MedicationInput, type PatientProfile } from '@kinchart/shared/profile';
import { api } from '../../../lib/api-client';
import { patientProfileQueryKey } from '../../../lib/queries/patient-profile';

/** PUT /api/user/medications/{id} with the same body as the add call. */
export async function updateMedication({ id, input }: { id: string; input: MedicationInput }) {
  return medicationResponseSchema.parse(await api.put(`/api/user/medications/${encodeURIComponent(id)}`, input));
}

export function useUpdateMedication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMedication,
    onSuccess: async ({ message: _message, ...medication }) => {
      queryClient.setQueryData<PatientProfile>(
        patientProfileQueryKey,
        (profile) => profile && { ...profile, medications: profile.medications.map((m) => (m.id === medication.id ? medication : m)) },
      );
      await queryClient.invalidateQueries({ queryKey: patientProfileQueryKey });
    },
  });
}
