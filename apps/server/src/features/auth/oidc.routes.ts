import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  loginAnswerSchema,
  ssoCallbackQuerySchema,
  ssoLinkInfoSchema,
  ssoLinkSchema,
  ssoStartResponseSchema,
  ssoStartSchema,
} from '@kinchart/shared/auth';
import { SECOND_FACTOR_PARAM, SSO_CONFIRMED_PARAM, SSO_CONFIRMED_VALUE, SSO_ERROR_PARAM, SSO_LINK_PATH } from '@kinchart/shared/auth-texts';
import { NEXT_PARAM } from '@kinchart/shared/next-path';
import { notFound } from '../../lib/http-errors';
import type { SessionRepository, SessionUser } from '../../common/session.repository';
import type { SessionCookies } from '../../plugins/session';
import type { SignedIn } from './sign-in';
import type { OidcService, SsoOutcome } from './oidc.service';

const NOT_CONFIGURED = 'Single sign-on is not set up on this server.';

/** `path` (a path on this site) with `params` added to its query. */
function withParams(path: string, params: Record<string, string>): string {
  const url = new URL(path, 'http://kinchart.invalid');
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Where the browser goes after the callback; never anywhere but a path on this site. */
export function landingOf(outcome: SsoOutcome): string {
  switch (outcome.kind) {
    case 'login':
      if (outcome.outcome.kind === 'session') return outcome.next ?? '/dashboard';
      // DESIGN §5: the provider is one factor; the login page asks for the second (docs/decisions/0029).
      return withParams('/login', {
        [SECOND_FACTOR_PARAM]: outcome.outcome.methods.join(','),
        ...(outcome.next ? { [NEXT_PARAM]: outcome.next } : {}),
      });
    case 'confirm':
      // The account's password first (docs/decisions/0030); the page asks for it.
      return withParams(SSO_LINK_PATH, outcome.next ? { [NEXT_PARAM]: outcome.next } : {});
    case 'reauthenticated':
      return withParams(outcome.next ?? '/dashboard', { [SSO_CONFIRMED_PARAM]: SSO_CONFIRMED_VALUE });
    case 'failed':
      // A re-authentication goes back to its page (still signed in) unless the session is what failed.
      if (outcome.purpose === 'reauth' && outcome.next && outcome.code !== 'session')
        return withParams(outcome.next, { [SSO_ERROR_PARAM]: outcome.code });
      return withParams('/login', {
        [SSO_ERROR_PARAM]: outcome.code,
        ...(outcome.next && outcome.purpose === 'login' ? { [NEXT_PARAM]: outcome.next } : {}),
      });
  }
}

/**
 * Single sign-on with OpenID Connect (docs/decisions/0029). Mounted whether or not the server has a
 * provider, so the route table — and the tests that read it — always list it; without one, both
 * answer 404 before anything else is read.
 */
export async function oidcRoutes(
  app: FastifyInstance,
  opts: {
    oidc: OidcService | undefined;
    sessions: SessionRepository;
    cookies: SessionCookies;
    pendingCookies: SessionCookies;
    /** The browser's half of a sign-on on its way (plugins/session.ts). */
    browserCookies: SessionCookies;
    /** The end of every way of signing in: session cookie, and the new-browser email (sign-in.ts). */
    signedIn: SignedIn;
  },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { oidc, cookies, pendingCookies, browserCookies } = opts;
  const configured = async () => {
    if (!oidc) throw notFound(NOT_CONFIGURED);
  };
  const sessionOf = async (request: FastifyRequest): Promise<SessionUser | null> => {
    const token = cookies.read(request);
    return token ? opts.sessions.findUser(token) : null;
  };
  const service = (): OidcService => {
    if (!oidc) throw notFound(NOT_CONFIGURED);
    return oidc;
  };

  r.post(
    '/api/auth/oidc/start',
    { onRequest: configured, schema: { body: ssoStartSchema, response: { 200: ssoStartResponseSchema } } },
    async (request, reply) => {
      const started = await service().start(request.body, {
        ip: request.ip,
        browserToken: browserCookies.read(request),
        session: await sessionOf(request),
      });
      browserCookies.set(reply, started.browserToken);
      return { url: started.url };
    },
  );

  // The one GET that changes state (DESIGN §5): the provider sends the browser here, and only a GET can follow.
  r.get('/api/auth/oidc/callback', { onRequest: configured, schema: { querystring: ssoCallbackQuerySchema } }, async (request, reply) => {
    const cut = request.url.indexOf('?');
    let outcome: SsoOutcome;
    try {
      outcome = await service().finish(request.query, {
        meta: { ip: request.ip, userAgent: request.headers['user-agent'] ?? null, acceptLanguage: request.headers['accept-language'] },
        search: cut < 0 ? '' : request.url.slice(cut),
        browserToken: browserCookies.read(request),
        session: await sessionOf(request),
      });
    } catch (error) {
      // A person followed a link from their provider: they get the login page's words, not a JSON 500.
      request.log.error({ err: error }, 'single sign-on callback failed');
      outcome = { kind: 'failed', code: 'failed', purpose: null, next: null };
    }
    // A sign-on waiting for a password stays bound to this browser by the same cookie, for as long as it waits.
    if (outcome.kind === 'confirm') browserCookies.set(reply, browserCookies.read(request) ?? '');
    else browserCookies.clear(reply);
    if (outcome.kind === 'login') {
      if (outcome.outcome.kind === 'session') await opts.signedIn(request, reply, outcome.outcome);
      else pendingCookies.set(reply, outcome.outcome.pendingToken);
    }
    return reply.redirect(landingOf(outcome), 303);
  });

  // Single sign-on into an account whose email is not proven: its password links the two (docs/decisions/0030).
  r.get('/api/auth/oidc/link', { onRequest: configured, schema: { response: { 200: ssoLinkInfoSchema } } }, async (request) => {
    return service().pendingLink(browserCookies.read(request));
  });

  r.post(
    '/api/auth/oidc/link',
    { onRequest: configured, schema: { body: ssoLinkSchema, response: { 200: loginAnswerSchema } } },
    async (request, reply) => {
      const meta = { ip: request.ip, userAgent: request.headers['user-agent'] ?? null };
      const { outcome } = await service().completeLink(browserCookies.read(request), request.body.password, meta);
      browserCookies.clear(reply);
      if (outcome.kind === 'session') return opts.signedIn(request, reply, outcome);
      // DESIGN §5: the provider and the password are one factor; the login page asks for the second.
      pendingCookies.set(reply, outcome.pendingToken);
      return { mfa_required: true as const, methods: outcome.methods };
    },
  );
}
