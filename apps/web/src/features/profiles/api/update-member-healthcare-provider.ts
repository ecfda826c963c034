import { healthcareProviderResponseSchema, type HealthcareProviderInput } from '@kinchart/shared/profile';
import { api } from '../../../lib/api-client';
import { memberEntryPath, useMemberEntryMutation } from './member-entry-mutation';

/** PUT /api/user/family/members/{id}/healthcare-providers/{providerId}, mirroring the own profile's call. */
export async function updateMemberHealthcareProvider(memberId: string, { id, input }: { id: string; input: HealthcareProviderInput }) {
  return healthcareProviderResponseSchema.parse(await api.put(memberEntryPath(memberId, 'healthcare-providers', id), input));
}

export const useUpdateMemberHealthcareProvider = (memberId: string) => useMemberEntryMutation(memberId, updateMemberHealthcareProvider);
