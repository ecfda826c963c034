import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { loginAnswerSchema, ssoLinkInfoSchema, type LoginAnswer, type SsoLinkInfo, type SsoLinkInput } from '@kinchart/shared/auth';
import { api } from '../../../lib/api-client';
import { refreshAuth } from './check-auth';

// Single sign-on into an account whose email is not proven (docs/decisions/0030): the account's
// password links the provider's account to it. The waiting sign-on is this browser's (its cookie).

/** GET /api/auth/oidc/link: the address and the provider the waiting sign-on is for; 404 once it has ended. */
export async function fetchSsoLink(signal?: AbortSignal): Promise<SsoLinkInfo> {
  return ssoLinkInfoSchema.parse(await api.get('/api/auth/oidc/link', { signal }));
}

export function useSsoLink() {
  return useQuery({ queryKey: ['sso-link'], queryFn: ({ signal }) => fetchSsoLink(signal), retry: false, staleTime: Infinity });
}

/** POST /api/auth/oidc/link: answered like a login — signed in, or a second step to go. */
export async function completeSsoLink(input: SsoLinkInput): Promise<LoginAnswer> {
  return loginAnswerSchema.parse(await api.post('/api/auth/oidc/link', input));
}

/** Links and signs in; the authentication state is re-checked before it resolves, as after a login (SPEC §4). */
export function useCompleteSsoLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: SsoLinkInput) => {
      const answer = await completeSsoLink(input);
      if (!('mfa_required' in answer)) await refreshAuth(queryClient);
      return answer;
    },
  });
}
