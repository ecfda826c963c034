import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { medicationSchema, type Medication, type PatientProfile } from '@kinchart/shared/profile';
import { api } from '../../../lib/api-client';
import { familyMembersQueryKey } from '../../../lib/queries/family-members';
import { patientProfileQueryKey, patientProfileQueryOptions } from '../../../lib/queries/patient-profile';
import { peopleQueryKey } from '../../../lib/queries/people';

/*
 * Whose medications the prescriptions screen shows (DESIGN §11): `null` is the user's own profile,
 * over the spec's own-profile calls; a person id is anyone else the user can see — a family
 * member or a person shared with them — over GET /api/user/medications?person={id} and the
 * family member routes, which the server opens to every person the user may reach.
 */

/** One other person's medication list. */
export const personMedicationsQueryKey = (personId: string) => ['medications', personId] as const;

/** GET /api/user/medications?person={id}: another person's medications (viewer and up). */
export async function getPersonMedications(personId: string): Promise<Medication[]> {
  return medicationSchema.array().parse(await api.get(`/api/user/medications?${new URLSearchParams({ person: personId }).toString()}`));
}

/**
 * SPEC §7: the own profile's medications arrive with GET /api/user/getPatientProfile, read from
 * the profile's one cache entry, which the dashboard and the profile pages share. Anyone else's
 * come from their own list.
 */
export function useMedications(personId: string | null) {
  const own = useQuery({
    ...patientProfileQueryOptions,
    select: (profile: PatientProfile) => profile.medications,
    enabled: personId === null,
  });
  const other = useQuery({
    ...queryOptions({ queryKey: personMedicationsQueryKey(personId ?? ''), queryFn: () => getPersonMedications(personId ?? '') }),
    enabled: personId !== null,
  });
  return personId === null ? own : other;
}

/**
 * SPEC §4 "Add and edit modals": after a successful save the list updates locally, from the
 * answer, without loading it again. The own profile's one cache entry changes, so the dashboard's
 * Current Medications follow; for anyone else the dashboard's copies of that person are refreshed.
 */
export function updateCachedMedications(
  queryClient: QueryClient,
  personId: string | null,
  change: (list: Medication[]) => Medication[],
): void {
  if (personId === null) {
    queryClient.setQueryData<PatientProfile>(patientProfileQueryKey, (profile) =>
      profile ? { ...profile, medications: change(profile.medications) } : profile,
    );
    return;
  }
  queryClient.setQueryData<Medication[]>(personMedicationsQueryKey(personId), (list) => (list ? change(list) : list));
  void queryClient.invalidateQueries({ queryKey: familyMembersQueryKey });
  void queryClient.invalidateQueries({ queryKey: peopleQueryKey });
}

/** The path of a medication call: the own profile's, or a person's through the family member routes. */
export function medicationPath(personId: string | null, medicationId?: string): string {
  const base = personId === null ? '/api/user/medications' : `/api/user/family/members/${encodeURIComponent(personId)}/medications`;
  return medicationId === undefined ? base : `${base}/${encodeURIComponent(medicationId)}`;
}
