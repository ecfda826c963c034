import { useEffect } from 'react';
import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { AuthUser, CheckAuthResponse } from '@kinchart/shared/auth';
import { api, isNetworkError, isRecord } from '../../../lib/api-client';
import { clearAllDrafts } from '../../../lib/drafts';

export type AuthState =
  | { authenticated: true; user: AuthUser }
  | {
      authenticated: false;
      user: null;
      /** where the private layout sends the visitor */ redirectTo?: '/login' | '/signup';
      /** The check got no answer (no connection): nobody is known to be signed in or out. */
      offline?: true;
    };

export const SIGNED_OUT: AuthState = { authenticated: false, user: null };
/** After Logout the private pages send the user to /signup, not /login (SPEC §2 Layout). */
export const LOGGED_OUT: AuthState = { authenticated: false, user: null, redirectTo: '/signup' };
/** The check could not reach the server: wait for the connection rather than send anyone to /login. */
export const AUTH_OFFLINE: AuthState = { authenticated: false, user: null, offline: true };

/** True when the last check found no connection. */
export const isAuthOffline = (state: AuthState | undefined): boolean => state?.authenticated === false && state.offline === true;

// While a logout is under way, a 401 from a query still in flight is that logout, not an expired
// session: it must lead to /signup like the logout itself (see app/query-client.ts).
let loggingOut = false;
export const setLoggingOut = (value: boolean): void => {
  loggingOut = value;
};
export const isLoggingOut = (): boolean => loggingOut;

export const authQueryKey = ['auth'] as const;

/*
 * Checked by hand, not by the shared checkAuthResponseSchema: this module is in the entry chunk that
 * every page loads, and zod there would undo decision 0017 (/ and /login load without it). The guard
 * does what the schema does, unknown keys dropped included. Its answer is typed by the schema, so a
 * required field added there (or one dropped) fails tsc here; check-auth.test.ts holds the guard
 * to the schema.
 */
/** The check-auth answer as checkAuthResponseSchema reads it, or null when it is not one. */
export function readCheckAuthAnswer(answer: unknown): CheckAuthResponse | null {
  if (!isRecord(answer) || answer.authenticated !== true || !isRecord(answer.user)) return null;
  const { id, username, email } = answer.user;
  if (typeof id !== 'string' || typeof username !== 'string' || typeof email !== 'string') return null;
  return { authenticated: true, user: { id, username, email } };
}

/**
 * GET /api/auth/check-auth. SPEC §7: success means authenticated, any failure means not — so
 * this never rejects; a 401 or an unexpected answer reads as signed out. A check that got no
 * answer at all (offline) says so instead: the session may well be alive (issue 30, item 22).
 */
export async function checkAuth(): Promise<AuthState> {
  try {
    const answer = readCheckAuthAnswer(await api.get('/api/auth/check-auth'));
    return answer ? { authenticated: true, user: answer.user } : SIGNED_OUT;
  } catch (error) {
    return isNetworkError(error) ? AUTH_OFFLINE : SIGNED_OUT;
  }
}

export const authQueryOptions = queryOptions({
  queryKey: authQueryKey,
  queryFn: checkAuth,
  staleTime: 60_000,
  retry: false,
  // Asked even offline: the answer (AUTH_OFFLINE) is what lets the pages say so.
  networkMode: 'always',
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
export function clearSession(queryClient: QueryClient, state: AuthState = SIGNED_OUT): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== authQueryKey[0] });
  queryClient.setQueryData(authQueryKey, state);
  // Edits kept for want of a connection leave a shared device with the person (decision 0036).
  clearAllDrafts();
}

/**
 * Where a logout lands (/signup): the logout is over, so a later visit to a private page goes to
 * /login as usual (SPEC §2).
 */
export function useEndLogout(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!isLoggingOut()) return;
    setLoggingOut(false);
    queryClient.setQueryData(authQueryKey, SIGNED_OUT);
  }, [queryClient]);
}
