import { messageSchema, type MessageResponse } from '@kinchart/shared/common';
import { api } from '../../../lib/api-client';
import { memberEntryPath, useMemberEntryMutation } from './member-entry-mutation';

/** DELETE /api/user/family/members/{id}/healthcare-providers/{providerId}, mirroring the own profile's call. */
export async function removeMemberHealthcareProvider(memberId: string, providerId: string): Promise<MessageResponse> {
  return messageSchema.parse(await api.delete(memberEntryPath(memberId, 'healthcare-providers', providerId)));
}

export const useRemoveMemberHealthcareProvider = (memberId: string) => useMemberEntryMutation(memberId, removeMemberHealthcareProvider);
