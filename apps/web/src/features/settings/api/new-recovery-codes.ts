import { useMutation, useQueryClient } from '@tanstack/react-query';
import { recoveryCodesResponseSchema, type RecoveryCodesResponse } from '@kinchart/shared/auth';
import { api } from '../../../lib/api-client';
import { mfaQueryKey } from '../../auth/api/get-mfa-status';

/** POST /api/auth/mfa/recovery-codes: a new set of ten; every older code stops working. */
export async function newRecoveryCodes(): Promise<RecoveryCodesResponse> {
  return recoveryCodesResponseSchema.parse(await api.post('/api/auth/mfa/recovery-codes'));
}

export function useNewRecoveryCodes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: newRecoveryCodes,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mfaQueryKey }),
  });
}
