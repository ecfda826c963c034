import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginInput, LoginResponse } from '@kinchart/shared/auth';
import { api } from '../../../lib/api-client';
import { refreshAuth } from './check-auth';

/** POST /api/auth/login; the answer's message is shown on success (SPEC §7). */
export function login(input: LoginInput): Promise<LoginResponse> {
  return api.post<LoginResponse>('/api/auth/login', input);
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
