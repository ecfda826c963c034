import { useQuery } from '@tanstack/react-query';
import type { FamilyMemberSummary } from '@kinchart/shared/profile';
import { familyMembersQueryOptions } from '../../../lib/queries/family-members';

export interface ImportTarget {
  id: string;
  label: string;
}

/** Whose profile a FHIR Bundle can go to: 'My Profile', then each family member (SPEC §7 family list). */
export function importTargetsOf(members: FamilyMemberSummary[]): ImportTarget[] {
  return [
    { id: 'self', label: 'My Profile' },
    ...members.map((m) => ({ id: m.id, label: `${m.name?.trim() || 'Unnamed member'}${m.is_pet ? ' (pet)' : ''}` })),
  ];
}

/** The family members list, read from its one cache entry, as the import's choices. */
export function useImportTargets(enabled: boolean) {
  return useQuery({ ...familyMembersQueryOptions, select: importTargetsOf, enabled });
}
