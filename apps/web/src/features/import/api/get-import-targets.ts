import { useQuery } from '@tanstack/react-query';
import { t } from '@lingui/core/macro';
import type { FamilyMemberSummary } from '@kinchart/shared/profile';
import { familyMembersQueryOptions } from '../../../lib/queries/family-members';

export interface ImportTarget {
  id: string;
  label: string;
}

/** Whose profile a FHIR Bundle can go to: 'My Profile', then each family member (SPEC §7 family list). */
export function importTargetsOf(members: FamilyMemberSummary[]): ImportTarget[] {
  return [
    { id: 'self', label: t`My Profile` },
    ...members.map((m) => {
      const name = m.name?.trim() || t`Unnamed member`;
      return { id: m.id, label: m.is_pet ? t`${name} (pet)` : name };
    }),
  ];
}

/** The family members list, read from its one cache entry, as the import's choices. */
export function useImportTargets(enabled: boolean) {
  // A new function each render: the words are made again in the language now shown.
  return useQuery({ ...familyMembersQueryOptions, select: (members) => importTargetsOf(members), enabled });
}
