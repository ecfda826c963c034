import { messageSchema, type MessageResponse } from '@kinchart/shared/common';
import { api } from '../../../lib/api-client';
import { memberEntryPath, useMemberEntryMutation } from './member-entry-mutation';

/** DELETE /api/user/family/members/{id}/emergency-contacts/{contactId} (SPEC §7). */
export async function removeMemberEmergencyContact(memberId: string, contactId: string): Promise<MessageResponse> {
  return messageSchema.parse(await api.delete(memberEntryPath(memberId, 'emergency-contacts', contactId)));
}

export const useRemoveMemberEmergencyContact = (memberId: string) => useMemberEntryMutation(memberId, removeMemberEmergencyContact);
