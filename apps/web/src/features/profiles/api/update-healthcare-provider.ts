import { useMutation, useQueryClient } from '@tanstack/react-query';
import { healthcareProviderResponseSchema, type HealthcareProviderInput, type PatientProfile } from '@kinchart/shared/profile';
import { api } from '../../../lib/api-client';
import { patientProfileQueryKey } from '../../../lib/queries/patient-profile';

/** PUT /api/user/healthcare-providers/{provider_id} with the same body as the add call. */
export async function updateHealthcareProvider({ id, input }: { id: string; input: HealthcareProviderInput }) {
  return healthcareProviderResponseSchema.parse(await api.put(`/api/user/healthcare-providers/${encodeURIComponent(id)}`, input));
}

export function useUpdateHealthcareProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateHealthcareProvider,
    onSuccess: async ({ message: _message, ...provider }) => {
      queryClient.setQueryData<PatientProfile>(
        patientProfileQueryKey,
        (profile) =>
          profile && {
            ...profile,
            healthcare_providers: profile.healthcare_providers.map((p) => (p.id === provider.id ? provider : p)),
          },
      );
      await queryClient.invalidateQueries({ queryKey: patientProfileQueryKey });
    },
  });
}
