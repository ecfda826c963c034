import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { AuthUser, CheckAuthResponse } from '@kinchart/shared/auth';
import { api } from '../../../lib/api-client';

export type AuthState = { authenticated: true; user: AuthUser } | { authenticated: false; user: null };

export const SIGNED_OUT: AuthState = { authenticated: false, user: null };

export const authQueryKey = ['auth'] as const;

/**
 * GET /api/auth/check-auth. SPEC §7: success means authenticated, any failure means not — so
 * this never rejects; a 401, a network error or an unexpected answer all read as signed out.
 */
export async function checkAuth(): Promise<AuthState> {
  try {
    const answer = await api.get<CheckAuthResponse>('/api/auth/check-auth');
    if (answer?.authenticated === true && answer.user) return { authenticated: true, user: answer.user };
    return SIGNED_OUT;
  } catch {
    return SIGNED_OUT;
  }
}

export const authQueryOptions = queryOptions({
  queryKey: authQueryKey,
  queryFn: checkAuth,
  staleTime: 60_000,
  retry: false,
});

/** The authentication state: `isPending` while the first check runs (SPEC §4 "unknown"). */
export function useAuth() {
  return useQuery(authQueryOptions);
}

/** Runs the check again and resolves once the cache holds the fresh answer. */
export function refreshAuth(queryClient: QueryClient): Promise<AuthState> {
  return queryClient.fetchQuery({ ...authQueryOptions, staleTime: 0 });
}

/** Forgets everything the signed-in user loaded and records that nobody is signed in. */
export function clearSession(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== authQueryKey[0] });
  queryClient.setQueryData(authQueryKey, SIGNED_OUT);
}
