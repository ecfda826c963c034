import { medicationResponseSchema, type MedicationInput } from '@kinchart/shared/profile';
import { api } from '../../../lib/api-client';
import { memberEntryPath, useMemberEntryMutation } from './member-entry-mutation';

/** PUT /api/user/family/members/{id}/medications/{medId}: the edit of one medication, like the own profile's. */
export async function updateMemberMedication(memberId: string, { id, input }: { id: string; input: MedicationInput }) {
  return medicationResponseSchema.parse(await api.put(memberEntryPath(memberId, 'medications', id), input));
}

export const useUpdateMemberMedication = (memberId: string) => useMemberEntryMutation(memberId, updateMemberMedication);
