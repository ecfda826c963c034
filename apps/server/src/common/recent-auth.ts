import type { FastifyRequest } from 'fastify';
import { REAUTH_REQUIRED_MESSAGE, REAUTH_WINDOW_MS } from '@kinchart/shared/auth';
import { HttpError } from '../lib/http-errors';
import { currentUser } from '../plugins/session';

/**
 * DESIGN §5 (ASVS 5.0 7.5.1): exporting everything and creating shares — and changing factors —
 * need the password (later also a passkey) proved by this session within the last 10 minutes.
 * Login and POST /api/auth/reauth set `sessions.authenticated_at`; so does a correct current
 * password in the change-email and change-password bodies (docs/decisions/0024).
 */
export function isRecentlyAuthenticated(authenticatedAt: string | null, now: Date = new Date()): boolean {
  if (!authenticatedAt) return false;
  const at = Date.parse(authenticatedAt);
  return Number.isFinite(at) && now.getTime() - at < REAUTH_WINDOW_MS;
}

/**
 * A 401 the web app answers with its password prompt, then retries: `reauth_required` tells it
 * apart from "not signed in" (which sends the user to /login).
 */
export const reauthRequired = () => new HttpError(401, REAUTH_REQUIRED_MESSAGE, { reauth_required: true });

/** onRequest hook, after `requireUser`: 401 `reauth_required` unless the session proved its password lately. */
export async function requireRecentAuth(request: FastifyRequest): Promise<void> {
  if (!isRecentlyAuthenticated(currentUser(request).authenticatedAt)) throw reauthRequired();
}
