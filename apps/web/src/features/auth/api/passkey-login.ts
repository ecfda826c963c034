import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginResponse } from '@kinchart/shared/auth';
import { api } from '../../../lib/api-client';
import { provePasskey } from '../../../lib/passkeys';
import { refreshAuth } from './check-auth';

/**
 * Signing in with a passkey alone (docs/decisions/0027): the browser offers this site's passkeys
 * for a fresh challenge, and POST /api/auth/login/passkey answers like a password login.
 */
export async function loginWithPasskey(): Promise<LoginResponse> {
  const response = await provePasskey('/api/auth/login/passkey/options');
  const answer = await api.post('/api/auth/login/passkey', { response });
  const { loginResponseSchema } = await import('@kinchart/shared/auth');
  return loginResponseSchema.parse(answer);
}

/** Signs in, then re-checks the authentication state before resolving (SPEC §4 Login). */
export function usePasskeyLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const answer = await loginWithPasskey();
      await refreshAuth(queryClient);
      return answer;
    },
  });
}
