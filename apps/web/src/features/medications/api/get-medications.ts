import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { Medication, PatientProfile } from '@kinchart/shared/profile';
import { patientProfileQueryKey, patientProfileQueryOptions } from '../../../lib/queries/patient-profile';

/**
 * SPEC §7: the own profile's medications arrive with GET /api/user/getPatientProfile; there is no
 * list endpoint of their own. The prescriptions screen reads them from the profile's one cache
 * entry, which the dashboard and the profile pages share.
 */
export function useMedications() {
  return useQuery({ ...patientProfileQueryOptions, select: (profile: PatientProfile) => profile.medications });
}

/**
 * SPEC §4 "Add and edit modals": after a successful save the list updates locally, from the
 * answer, without loading the profile again. The profile's one cache entry changes, so the
 * dashboard's Current Medications follow.
 */
export function updateCachedMedications(queryClient: QueryClient, change: (list: Medication[]) => Medication[]): void {
  queryClient.setQueryData<PatientProfile>(patientProfileQueryKey, (profile) => (profile ? { ...profile, medications: change(profile.medications) } : profile));
}
