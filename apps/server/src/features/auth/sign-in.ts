import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LoginResponse } from '@kinchart/shared/auth';
import type { SessionCookies } from '../../plugins/session';
import type { SessionRepository } from '../../common/session.repository';
import type { LoginOutcome } from './auth.service';
import type { KnownBrowsers } from './known-browsers.service';

export type SignedIn = (request: FastifyRequest, reply: FastifyReply, outcome: LoginOutcome) => Promise<LoginResponse>;

/**
 * The end of every way of signing in (password, second step, passkey, single sign-on): the session
 * the browser held until now ends on the server (DESIGN §5: a new token at login, and one session
 * per browser — whoever signs in next at a shared computer does not leave the last one's open),
 * then the session cookie, the browser made known (an email to the owner when it is new,
 * docs/decisions/0028), and SPEC §7's answer.
 */
export function createSignedIn(deps: {
  cookies: SessionCookies;
  browserCookies: SessionCookies;
  knownBrowsers: KnownBrowsers;
  sessions: SessionRepository;
}): SignedIn {
  return async (request, reply, outcome) => {
    if (outcome.kind !== 'session') throw new Error('A login that needs a second factor has no session');
    const previous = deps.cookies.read(request);
    const held = previous ? await deps.sessions.findUser(previous) : null;
    if (held)
      await deps.sessions.replace({ sessionId: held.sessionId, userId: held.id }, { token: outcome.token, userId: outcome.user.id });
    deps.cookies.set(reply, outcome.token);
    const place = { ip: request.ip, userAgent: request.headers['user-agent'] ?? null };
    deps.browserCookies.set(reply, await deps.knownBrowsers.signedIn(outcome.user, deps.browserCookies.read(request), place));
    return { message: 'Login successful.', user: outcome.user };
  };
}
