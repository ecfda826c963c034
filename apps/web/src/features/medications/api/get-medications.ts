import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Medication, PatientProfile } from '@kinchart/shared/profile';
import { api } from '../../../lib/api-client';

/** The own profile's medications, as the prescriptions screen keeps them in the cache. */
export const medicationsQueryKey = ['medications', 'own'] as const;

/**
 * SPEC §7: the own profile's medications arrive with GET /api/user/getPatientProfile; there is
 * no list endpoint of their own. Only the list is kept, under a key of this feature.
 */
export async function getMedications(): Promise<Medication[]> {
  const profile = await api.get<PatientProfile>('/api/user/getPatientProfile');
  return profile.medications;
}

export const medicationsQueryOptions = queryOptions({ queryKey: medicationsQueryKey, queryFn: getMedications });

export function useMedications() {
  return useQuery(medicationsQueryOptions);
}
