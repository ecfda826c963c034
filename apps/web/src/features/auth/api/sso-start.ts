import type { SsoStartInput } from '@kinchart/shared/auth';
import { api, isRecord } from '../../../lib/api-client';

/**
 * POST /api/auth/oidc/start (docs/decisions/0029): the provider's address to send the browser to.
 * The server has set the cookie that ties the answer to this browser. Checked by hand (no zod on
 * /login, decision 0017): only an http(s) address is followed.
 */
export async function startSso(input: SsoStartInput): Promise<string> {
  const answer = await api.post<unknown>('/api/auth/oidc/start', input);
  const url = isRecord(answer) && typeof answer.url === 'string' ? answer.url : '';
  if (!url.startsWith('https://') && !url.startsWith('http://')) throw new Error('The sign-in address is missing from the answer.');
  return url;
}

/** Leaves the app for the provider (a full page load: the provider is another site). */
export function goToProvider(url: string): void {
  window.location.assign(url);
}
