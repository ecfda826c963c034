import { healthcareProviderResponseSchema, type HealthcareProviderInput } from '@kinchart/shared/profile';
import { api } from '../../../lib/api-client';
import { memberEntryPath, useMemberEntryMutation } from './member-entry-mutation';

/** POST /api/user/family/members/{id}/healthcare-providers → 201, mirroring the own profile's call. */
export async function addMemberHealthcareProvider(memberId: string, input: HealthcareProviderInput) {
  return healthcareProviderResponseSchema.parse(await api.post(memberEntryPath(memberId, 'healthcare-providers'), input));
}

export const useAddMemberHealthcareProvider = (memberId: string) => useMemberEntryMutation(memberId, addMemberHealthcareProvider);
