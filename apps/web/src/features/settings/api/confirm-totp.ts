import { useMutation, useQueryClient } from '@tanstack/react-query';
import { recoveryCodesResponseSchema, type RecoveryCodesResponse, type TotpConfirmInput } from '@kinchart/shared/auth';
import { api } from '../../../lib/api-client';
import { mfaQueryKey } from '../../auth/api/get-mfa-status';

/** POST /api/auth/mfa/totp/confirm: a code from the new secret turns TOTP on; the answer holds the recovery codes, shown once. */
export async function confirmTotp(input: TotpConfirmInput): Promise<RecoveryCodesResponse> {
  return recoveryCodesResponseSchema.parse(await api.post('/api/auth/mfa/totp/confirm', input));
}

export function useConfirmTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmTotp,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mfaQueryKey }),
  });
}
