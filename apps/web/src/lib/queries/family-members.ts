import { queryOptions, useQuery } from '@tanstack/react-query';
import { familyMemberSummarySchema, type FamilyMemberSummary } from '@kinchart/shared/profile';
import { api } from '../api-client';

/** The prefix of every family query: invalidating it refreshes the list and each member. */
export const familyMembersQueryKey = ['family-members'] as const;

const familyMembersSchema = familyMemberSummarySchema.array();

/**
 * GET /api/user/family/members — the list of members (pets included), in one cache entry for
 * every feature that shows it (profiles, Settings, the QR codes, the import's targets).
 */
export async function getFamilyMembers(): Promise<FamilyMemberSummary[]> {
  return familyMembersSchema.parse(await api.get('/api/user/family/members'));
}

export const familyMembersQueryOptions = queryOptions({
  queryKey: familyMembersQueryKey,
  queryFn: getFamilyMembers,
});

export function useFamilyMembers() {
  return useQuery(familyMembersQueryOptions);
}
