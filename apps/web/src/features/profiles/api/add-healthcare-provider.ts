import { useMutation, useQueryClient } from '@tanstack/react-query';
import { healthcareProviderResponseSchema, type HealthcareProviderInput, type PatientProfile } from '@kinchart/shared/profile';
import { api } from '../../../lib/api-client';
import { patientProfileQueryKey } from '../../../lib/queries/patient-profile';

/** POST /api/user/healthcare-providers → 201 with the provider. */
export async function addHealthcareProvider(input: HealthcareProviderInput) {
  return healthcareProviderResponseSchema.parse(await api.post('/api/user/healthcare-providers', input));
}

export function useAddHealthcareProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addHealthcareProvider,
    onSuccess: async ({ message: _message, ...provider }) => {
      queryClient.setQueryData<PatientProfile>(
        patientProfileQueryKey,
        (profile) => profile && { ...profile, healthcare_providers: [...profile.healthcare_providers, provider] },
      );
      await queryClient.invalidateQueries({ queryKey: patientProfileQueryKey });
    },
  });
}
