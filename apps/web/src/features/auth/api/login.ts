import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginAnswer, LoginInput } from '@kinchart/shared/auth';
import { api } from '../../../lib/api-client';
import { refreshAuth } from './check-auth';

/**
 * POST /api/auth/login; the answer's message is shown on success (SPEC §7), or it asks for a second
 * factor (docs/decisions/0026). The answer is read by the shared loginAnswerSchema, imported
 * lazily: /login loads without zod (decision 0017), and the form's resolver has already fetched
 * this module by the time a login is sent (utils/login-resolver), so the import costs no request.
 */
export async function login(input: LoginInput): Promise<LoginAnswer> {
  const answer = await api.post('/api/auth/login', input);
  const { loginAnswerSchema } = await import('@kinchart/shared/auth');
  return loginAnswerSchema.parse(answer);
}

/**
 * Signs in, then re-checks the authentication state before resolving — SPEC §4: the
 * post-login callback runs and is awaited before the message shows and the app navigates. An
 * answer asking for a second factor signed nobody in: there is nothing to re-check yet.
 */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    // Offline it is sent anyway and fails at once, so the page can say why (issue 30) — a paused
    // mutation would leave the form waiting without a word.
    networkMode: 'always',
    mutationFn: async (input: LoginInput) => {
      const answer = await login(input);
      if (!('mfa_required' in answer)) await refreshAuth(queryClient);
      return answer;
    },
  });
}
