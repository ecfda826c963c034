import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginMfaInput, LoginResponse } from '@kinchart/shared/auth';
import { api } from '../../../lib/api-client';
import { refreshAuth } from './check-auth';

/**
 * POST /api/auth/login/mfa: the second step of a login (docs/decisions/0026). The browser holds the
 * pending login in an HttpOnly cookie; the answer is a normal login's. The schema module is the one
 * the password step loaded, so importing it here costs no request.
 */
export async function loginMfa(input: LoginMfaInput): Promise<LoginResponse> {
  const answer = await api.post('/api/auth/login/mfa', input);
  const { loginResponseSchema } = await import('@kinchart/shared/auth');
  return loginResponseSchema.parse(answer);
}

/** Completes the login, then re-checks the authentication state before resolving (SPEC §4 Login). */
export function useLoginMfa() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: LoginMfaInput) => {
      const answer = await loginMfa(input);
      await refreshAuth(queryClient);
      return answer;
    },
  });
}
