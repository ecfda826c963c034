import { medicationResponseSchema, type MedicationInput } from '@kinchart/shared/profile';
import { api } from '../../../lib/api-client';
import { memberEntryPath, useMemberEntryMutation } from './member-entry-mutation';

/** POST /api/user/family/members/{id}/medications (SPEC §7: 201 on create). */
export async function addMemberMedication(memberId: string, input: MedicationInput) {
  return medicationResponseSchema.parse(await api.post(memberEntryPath(memberId, 'medications'), input));
}

export const useAddMemberMedication = (memberId: string) => useMemberEntryMutation(memberId, addMemberMedication);
