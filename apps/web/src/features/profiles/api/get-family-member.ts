import { queryOptions, useQuery } from '@tanstack/react-query';
import { familyMemberSchema, type FamilyMember } from '@kinchart/shared/profile';
import { api } from '../../../lib/api-client';
import { familyMembersQueryKey } from '../../../lib/queries/family-members';

export const familyMemberQueryKey = (id: string) => [...familyMembersQueryKey, id] as const;

/** GET /api/user/family/members/{id} — one member's whole profile with its lists. */
export async function getFamilyMember(id: string): Promise<FamilyMember> {
  return familyMemberSchema.parse(await api.get(`/api/user/family/members/${encodeURIComponent(id)}`));
}

export const familyMemberQueryOptions = (id: string) =>
  queryOptions({
    queryKey: familyMemberQueryKey(id),
    queryFn: () => getFamilyMember(id),
  });

/** One member; idle while `id` is undefined. */
export function useFamilyMember(id: string | undefined) {
  return useQuery({ ...familyMemberQueryOptions(id ?? ''), enabled: id !== undefined && id !== '' });
}
