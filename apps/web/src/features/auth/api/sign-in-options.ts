import { useQuery } from '@tanstack/react-query';
import { api, isRecord } from '../../../lib/api-client';
import { browserHasPasskeys } from '../../../lib/passkeys';

/** The ways to sign in besides the password that this server offers (GET /api/config). */
export interface SignInOptions {
  /** The single sign-on provider's name (OIDC_NAME, docs/decisions/0029), or null without one. */
  ssoName: string | null;
  /** Whether passkeys work here (docs/decisions/0027): the server is reached by a name, and this browser has WebAuthn. */
  passkeys: boolean;
}

/**
 * Read by hand, not through the shared zod schema: /login loads without zod (decision 0017). Its
 * own query key, because the signed-in app's copy of /api/config is parsed by that schema
 * (lib/queries/client-config.ts).
 */
export async function getSignInOptions(): Promise<SignInOptions> {
  const answer = await api.get<unknown>('/api/config');
  if (!isRecord(answer)) return { ssoName: null, passkeys: false };
  const name = isRecord(answer.sso) ? answer.sso.name : null;
  return { ssoName: typeof name === 'string' && name !== '' ? name : null, passkeys: answer.passkeys === true && browserHasPasskeys() };
}

/**
 * The other ways to sign in; undefined until known (or while `enabled` is false: the
 * re-authentication prompt asks only once it opens). An error means none: the password still works.
 */
export function useSignInOptions(enabled = true): SignInOptions | undefined {
  // It changes only when the server restarts with other settings.
  return useQuery({ queryKey: ['sign-in-options'], queryFn: getSignInOptions, staleTime: Infinity, retry: false, enabled }).data;
}

/** The single sign-on provider's name for "Sign in with {name}"; null without one, undefined until known. */
export function useSsoName(enabled = true): string | null | undefined {
  const options = useSignInOptions(enabled);
  return options === undefined ? undefined : options.ssoName;
}
