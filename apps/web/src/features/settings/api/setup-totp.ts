import { useMutation } from '@tanstack/react-query';
import { totpSetupResponseSchema, type TotpSetupResponse } from '@kinchart/shared/auth';
import { api } from '../../../lib/api-client';

/** POST /api/auth/mfa/totp/setup: a new secret, not on until a code from it is confirmed. */
export async function setupTotp(): Promise<TotpSetupResponse> {
  return totpSetupResponseSchema.parse(await api.post('/api/auth/mfa/totp/setup'));
}

export function useSetupTotp() {
  return useMutation({ mutationFn: setupTotp });
}
