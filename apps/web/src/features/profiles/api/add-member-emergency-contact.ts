import { emergencyContactResponseSchema, type EmergencyContactInput } from '@kinchart/shared/profile';
import { api } from '../../../lib/api-client';
import { memberEntryPath, useMemberEntryMutation } from './member-entry-mutation';

/**
 * POST /api/user/family/members/{id}/emergency-contacts (SPEC §7). As on the own profile, a body
 * carrying one of the member's contact ids updates that contact.
 */
export async function addMemberEmergencyContact(memberId: string, input: EmergencyContactInput) {
  return emergencyContactResponseSchema.parse(await api.post(memberEntryPath(memberId, 'emergency-contacts'), input));
}

export const useAddMemberEmergencyContact = (memberId: string) => useMemberEntryMutation(memberId, addMemberEmergencyContact);
