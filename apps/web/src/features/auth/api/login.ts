import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginInput, LoginResponse } from '@kinchart/shared/auth';
import { api } from '../../../lib/api-client';
import { refreshAuth } from './check-auth';

/**
 * POST /api/auth/login; the answer's message is shown on success (SPEC §7). The answer is read by
 * the shared loginResponseSchema, imported lazily: /login loads without zod (decision 0017), and
 * the form's resolver has already fetched this module by the time a login is sent
 * (utils/login-resolver), so the import costs no request.
 */
export async function login(input: LoginInput): Promise<LoginResponse> {
  const answer = await api.post('/api/auth/login', input);
  const { loginResponseSchema } = await import('@kinchart/shared/auth');
  return loginResponseSchema.parse(answer);
}

/**
 * Signs in, then re-checks the authentication state before resolving — SPEC §4: the
 * post-login callback runs and is awaited before the message shows and the app navigates.
 */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: LoginInput) => {
      const answer = await login(input);
      await refreshAuth(queryClient);
      return answer;
    },
  });
}
