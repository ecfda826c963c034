import { useQuery } from '@tanstack/react-query';
import { api, isRecord } from '../../../lib/api-client';

/**
 * The single sign-on provider's name from GET /api/config (docs/decisions/0027), or null when the
 * server has none. Read by hand, not through the shared zod schema: /login loads without zod
 * (decision 0017). Its own query key, because the signed-in app's copy of /api/config is parsed
 * by that schema (lib/queries/client-config.ts).
 */
export async function getSsoName(): Promise<string | null> {
  const answer = await api.get<unknown>('/api/config');
  if (!isRecord(answer) || !isRecord(answer.sso)) return null;
  const { name } = answer.sso;
  return typeof name === 'string' && name !== '' ? name : null;
}

/**
 * The provider's name for "Sign in with {name}"; null without one, undefined until known (or while
 * `enabled` is false: the re-authentication prompt asks only once it opens).
 */
export function useSsoName(enabled = true): string | null | undefined {
  // It changes only when the server restarts with other settings; an error means no button.
  return useQuery({ queryKey: ['sso-name'], queryFn: getSsoName, staleTime: Infinity, retry: false, enabled }).data;
}
