import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import type { Config } from '../config';
import type { SessionRepository, SessionUser } from '../common/session.repository';
import { unauthorized } from '../lib/http-errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireUser`; routes behind it can rely on it. */
    user: SessionUser | null;
  }
}

export interface SessionCookies {
  name: string;
  read(request: FastifyRequest): string | undefined;
  set(reply: FastifyReply, token: string): void;
  clear(reply: FastifyReply): void;
}

export function sessionCookies(config: Config): SessionCookies {
  // `__Host-` pins the cookie to our exact origin when we are on https (DESIGN §5).
  const name = config.secureCookies ? '__Host-sid' : 'sid';
  const base = { httpOnly: true, sameSite: 'lax' as const, path: '/', secure: config.secureCookies };
  return {
    name,
    read: (request) => request.cookies[name],
    set: (reply, token) => void reply.setCookie(name, token, { ...base, maxAge: Math.floor(config.sessionMaxMs / 1000) }),
    clear: (reply) => void reply.clearCookie(name, base),
  };
}

/**
 * The marker of a login waiting for its second factor (docs/decisions/0026): an opaque token whose
 * SHA-256 names a pending_logins row, for 5 minutes. HttpOnly like the session's; `__Host-` on https.
 */
export function pendingLoginCookies(config: Config, maxAgeMs: number): SessionCookies {
  return markerCookies(config, 'mfa', maxAgeMs);
}

/**
 * The browser's half of a single sign-on on its way (docs/decisions/0029): an opaque token whose
 * SHA-256 the oidc_requests row holds, so the provider's answer is taken only in the browser that
 * asked. SameSite=Lax still comes along on the provider's top-level redirect back to us.
 */
export function ssoBrowserCookies(config: Config, maxAgeMs: number): SessionCookies {
  return markerCookies(config, 'oidc', maxAgeMs);
}

/** A short-lived HttpOnly cookie holding one opaque token; `__Host-` on https like the session's. */
function markerCookies(config: Config, baseName: string, maxAgeMs: number): SessionCookies {
  const name = config.secureCookies ? `__Host-${baseName}` : baseName;
  const base = { httpOnly: true, sameSite: 'lax' as const, path: '/', secure: config.secureCookies };
  return {
    name,
    read: (request) => request.cookies[name],
    set: (reply, token) => void reply.setCookie(name, token, { ...base, maxAge: Math.floor(maxAgeMs / 1000) }),
    clear: (reply) => void reply.clearCookie(name, base),
  };
}

/**
 * The browser's own random token (docs/decisions/0028): tells a browser the account has signed in
 * from before apart from a new one. Kept 400 days (the longest browsers allow, RFC 6265bis).
 */
export function knownBrowserCookies(config: Config): SessionCookies {
  const name = config.secureCookies ? '__Host-browser' : 'browser';
  const base = { httpOnly: true, sameSite: 'lax' as const, path: '/', secure: config.secureCookies };
  return {
    name,
    read: (request) => request.cookies[name],
    set: (reply, token) => void reply.setCookie(name, token, { ...base, maxAge: 400 * 24 * 3600 }),
    clear: (reply) => void reply.clearCookie(name, base),
  };
}

export async function registerSession(app: FastifyInstance): Promise<void> {
  await app.register(cookie);
  app.decorateRequest('user', null);
}

/** onRequest hook: 401 unless a live session cookie is present, before the body is read or validated. */
export function requireUser(sessions: SessionRepository, cookies: SessionCookies) {
  return async (request: FastifyRequest) => {
    const token = cookies.read(request);
    const user = token ? await sessions.findUser(token) : null;
    if (!user) throw unauthorized();
    request.user = user;
  };
}

/** The signed-in user of a route behind `requireUser`. */
export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw unauthorized();
  return request.user;
}
