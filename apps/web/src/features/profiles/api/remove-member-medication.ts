import { messageSchema, type MessageResponse } from '@kinchart/shared/common';
import { api } from '../../../lib/api-client';
import { memberEntryPath, useMemberEntryMutation } from './member-entry-mutation';

/** DELETE /api/user/family/members/{id}/medications/{medId} (SPEC §7: 200 on success). */
export async function removeMemberMedication(memberId: string, medicationId: string): Promise<MessageResponse> {
  return messageSchema.parse(await api.delete(memberEntryPath(memberId, 'medications', medicationId)));
}

export const useRemoveMemberMedication = (memberId: string) => useMemberEntryMutation(memberId, removeMemberMedication);
