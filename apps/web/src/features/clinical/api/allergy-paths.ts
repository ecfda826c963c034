import type { QueryClient } from '@tanstack/react-query';
import { familyMembersQueryKey } from '../../../lib/queries/family-members';
import { patientProfileQueryKey } from '../../../lib/queries/patient-profile';
import { peopleQueryKey } from '../../../lib/queries/people';

// Issue 34 (docs/decisions/0053): a person's allergies as entries, at /api/user/people/{personId}/allergies.

export const allergiesQueryKey = (personId: string) => ['allergies', personId] as const;

/** /api/user/people/{personId}/allergies[/{id}] */
export function allergiesPath(personId: string, id?: string): string {
  const base = `/api/user/people/${encodeURIComponent(personId)}/allergies`;
  return id === undefined ? base : `${base}/${encodeURIComponent(id)}`;
}

/**
 * After a change: the list, and every cached profile the person may be shown through — the own
 * profile, a family member, a shared person — since the server writes the profile's
 * `has_allergies` and `allergy_details` from the entries, and the profile editor shows that text.
 */
export function refreshAfterAllergyChange(queryClient: QueryClient, personId: string): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: allergiesQueryKey(personId) }),
    queryClient.invalidateQueries({ queryKey: patientProfileQueryKey }),
    queryClient.invalidateQueries({ queryKey: familyMembersQueryKey }),
    queryClient.invalidateQueries({ queryKey: [...peopleQueryKey, personId], exact: true }),
  ]);
}
