import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageSchema, type MessageResponse } from '@kinchart/shared/common';
import { api } from '../../../lib/api-client';
import { mfaQueryKey } from '../../auth/api/get-mfa-status';

/** DELETE /api/auth/mfa/totp: TOTP off; the recovery codes go with it. */
export async function disableTotp(): Promise<MessageResponse> {
  return messageSchema.parse(await api.delete('/api/auth/mfa/totp'));
}

export function useDisableTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disableTotp,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mfaQueryKey }),
  });
}
