import { queryOptions, useQuery } from '@tanstack/react-query';
import { mfaStatusSchema, type MfaStatus } from '@kinchart/shared/auth';
import { api } from '../../../lib/api-client';

export const mfaQueryKey = ['mfa'] as const;

/** GET /api/auth/mfa: which second factors the account has and how many recovery codes are left. */
export async function getMfaStatus(): Promise<MfaStatus> {
  return mfaStatusSchema.parse(await api.get('/api/auth/mfa'));
}

export const mfaQueryOptions = queryOptions({ queryKey: mfaQueryKey, queryFn: getMfaStatus });

export function useMfaStatus() {
  return useQuery(mfaQueryOptions);
}
