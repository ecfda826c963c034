import type { MessageResponse } from '@kinchart/shared/common';
import { api } from '../../../lib/api-client';
import { memberEntryPath, useMemberEntryMutation } from './member-entry-mutation';

/** DELETE /api/user/family/members/{id}/healthcare-providers/{providerId}, mirroring the own profile's call. */
export function removeMemberHealthcareProvider(memberId: string, providerId: string): Promise<MessageResponse> {
  return api.delete<MessageResponse>(memberEntryPath(memberId, 'healthcare-providers', providerId));
}

export const useRemoveMemberHealthcareProvider = (memberId: string) => useMemberEntryMutation(memberId, removeMemberHealthcareProvider);
