import { queryOptions, useQuery } from '@tanstack/react-query';
import { patientProfileSchema, type PatientProfile } from '@kinchart/shared/profile';
import { api } from '../api-client';

/**
 * The own profile's one cache entry. Several features read it — the profile pages, the dashboard,
 * the prescriptions screen (its medications) — and each refreshes it after a change.
 */
export const patientProfileQueryKey = ['patient-profile'] as const;

/**
 * GET /api/user/getPatientProfile: the signed-in user's own profile with its lists. The answer is
 * checked against the shared schema, so an unexpected shape is a failed fetch (SPEC §4: fetch
 * failures empty the lists) rather than a crash further down.
 */
export async function getPatientProfile(): Promise<PatientProfile> {
  return patientProfileSchema.parse(await api.get('/api/user/getPatientProfile'));
}

export const patientProfileQueryOptions = queryOptions({
  queryKey: patientProfileQueryKey,
  queryFn: getPatientProfile,
});

export function usePatientProfile() {
  return useQuery(patientProfileQueryOptions);
}
