import { useQuery } from '@tanstack/react-query';
import type { FamilyMemberSummary } from '@kinchart/shared/profile';
import { api } from '../../../lib/api-client';
import { useAppEvent } from '../../../lib/events';

/**
 * GET /api/user/family/members, for one QR panel per member. The key sits under
 * ['family-members'] so invalidating the member list anywhere refreshes it too, without sharing
 * another feature's cache entry (features do not reach into each other).
 */
export const familyMembersForQrKey = ['family-members', 'emergency-qr'] as const;

export function listFamilyMembers(): Promise<FamilyMemberSummary[]> {
  return api.get<FamilyMemberSummary[]>('/api/user/family/members');
}

export function useFamilyMembersForQr() {
  const query = useQuery({ queryKey: familyMembersForQrKey, queryFn: listFamilyMembers });
  // SPEC §4: a family member update is announced page-wide; the member list may have changed.
  useAppEvent('familyMemberUpdated', () => void query.refetch());
  return query;
}
