import { randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import type { FastifyBaseLogger } from 'fastify';
import type { SignupMode, SsoCallbackQuery, SsoPurpose, SsoStartInput } from '@kinchart/shared/auth';
import { emailSchema, usernameSchema } from '@kinchart/shared/auth';
import type { SsoErrorCode } from '@kinchart/shared/auth-texts';
import { SSO_ERRORS } from '@kinchart/shared/auth-texts';
import { stripInvisible } from '@kinchart/shared/text';
import type { OidcConfig } from '../../config';
import type { Db } from '../../db/database';
import { reserveAddressAttempt } from '../../db/attempt-limits.repository';
import { recordAudit } from '../../common/audit';
import type { SessionRepository, SessionUser } from '../../common/session.repository';
import { HttpError, notFound, tooManyRequests, unauthorized } from '../../lib/http-errors';
import { newId, nowIso, randomToken, sha256Hex } from '../../lib/ids';
import { hashSecret } from '../../lib/passwords';
import { hasUnstorableText } from '../../lib/storable-text';
import { createAuthRepository } from './auth.repository';
import { createOidcRepository } from './oidc.repository';
import type { AuthService, LoginOutcome, RequestMeta } from './auth.service';
import type { EmailVerificationService } from './email-verification.service';
import { LOGIN_WINDOW_MS, SIGNUP_WINDOW_MS } from './auth.service';
import { signupLanguage } from '../../i18n/signup-language';

// Single sign-on with OpenID Connect (docs/decisions/0029-single-sign-on.md): the authorization code
// flow with PKCE (RFC 7636, S256), `state` and `nonce`, through openid-client, which checks the ID
// token (signature, issuer, audience, expiry, nonce) and the authorization response (state, RFC
// 9207 `iss`). What is decided here: whose account a provider's account is, and what signing in
// with it may do.

/** How long a sign-on may take at the provider (and how long its cookie lives). */
export const SSO_REQUEST_MS = 10 * 60_000;
/** Unfinished sign-ons per client address in 15 minutes (DESIGN §5); a finished one is given back. */
export const MAX_UNFINISHED_PER_ADDRESS = 30;
const SCOPE = 'openid email profile';
/** For a re-authentication: the provider's `auth_time` may be this much before our start (clock skew). */
const CLOCK_SKEW_MS = 60_000;
/** How long a sign-on may wait for the password of the account it would link to. */
export const SSO_LINK_MS = 10 * 60_000;
export const SSO_LINK_GONE = 'This sign-in has expired. Please sign in with your identity provider again.';
/** Whose account a provider's account is, or which account must first confirm its password. */
type AccountMatch = { kind: 'account'; userId: string } | { kind: 'confirm'; userId: string; email: string };
/** A token this server made for the `oidc` cookie: 32 random bytes, base64url. */
const BROWSER_TOKEN = /^[\w-]{43}$/;

/** What the callback came to: a login's outcome, a re-authenticated session, or a failure's short code. */
export type SsoOutcome =
  | { kind: 'login'; outcome: LoginOutcome; next: string | null }
  /** The verified email names an account whose email is not proven: its password links them (docs/decisions/0030). */
  | { kind: 'confirm'; next: string | null }
  | { kind: 'reauthenticated'; next: string | null }
  | { kind: 'failed'; code: SsoErrorCode; purpose: SsoPurpose | null; next: string | null };

class SsoFailure extends Error {
  constructor(readonly code: SsoErrorCode) {
    super(code);
  }
}

/** The claims Kinchart reads, from the ID token or else the UserInfo answer. */
interface ProviderAccount {
  issuer: string;
  subject: string;
  email: string | undefined;
  emailVerified: boolean;
  name: string | undefined;
  preferredUsername: string | undefined;
  authTime: number | undefined;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

/**
 * The new account's name: the provider's `name`, else `preferred_username`, else the email's local
 * part — without invisible characters and cut to the sign-up form's limit.
 */
export function usernameFrom(account: Pick<ProviderAccount, 'name' | 'preferredUsername'>, email: string): string {
  for (const candidate of [account.name, account.preferredUsername, email.slice(0, email.indexOf('@'))]) {
    if (candidate === undefined || hasUnstorableText(candidate)) continue;
    const parsed = usernameSchema.safeParse(Array.from(stripInvisible(candidate).trim()).slice(0, 100).join(''));
    if (parsed.success) return parsed.data;
  }
  return 'Kinchart user';
}

export function createOidcService(deps: {
  db: Db;
  oidc: OidcConfig;
  publicUrl: string;
  auth: AuthService;
  sessions: SessionRepository;
  signupMode: SignupMode;
  signupLimitPerHour: number;
  emailVerification: EmailVerificationService;
  log: FastifyBaseLogger;
}) {
  const { oidc } = deps;
  const repo = createOidcRepository(deps.db);
  const users = createAuthRepository(deps.db);
  const redirectUri = `${deps.publicUrl}/api/auth/oidc/callback`;

  // Discovery (OpenID Connect Discovery 1.0) at first use, kept for the process's life; a failure
  // is not kept, so the next sign-in asks the provider again.
  let discovered: Promise<client.Configuration> | undefined;
  function provider(): Promise<client.Configuration> {
    discovered ??= client
      .discovery(
        new URL(oidc.issuer),
        oidc.clientId,
        { client_secret: oidc.clientSecret, redirect_uris: [redirectUri], response_types: ['code'] },
        client.ClientSecretBasic(oidc.clientSecret),
        {
          // http:// only for an issuer on this machine (config.ts); openid-client refuses it otherwise.
          ...(oidc.allowInsecureRequests ? { execute: [client.allowInsecureRequests] } : {}),
          timeout: 10,
        },
      )
      .catch((error: unknown) => {
        discovered = undefined;
        deps.log.warn(
          { err: { name: (error as Error).name, code: (error as { code?: unknown }).code } },
          'single sign-on: the identity provider could not be discovered',
        );
        throw new HttpError(503, SSO_ERRORS.unavailable);
      });
    return discovered;
  }

  /** The provider's account behind a callback: the code exchanged (PKCE), the ID token checked. */
  async function exchange(
    config: client.Configuration,
    search: string,
    request: { state: string; code_verifier: string; nonce: string },
  ): Promise<ProviderAccount> {
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(config, new URL(`${redirectUri}${search}`), {
        pkceCodeVerifier: request.code_verifier,
        expectedState: request.state,
        expectedNonce: request.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      // Names and codes only: the provider's answer may carry tokens or an email (DESIGN §5).
      const e = error as { name?: unknown; code?: unknown; error?: unknown; status?: unknown };
      deps.log.warn(
        { err: { name: e.name, code: e.code, error: e.error, status: e.status } },
        'single sign-on: the callback could not be completed',
      );
      throw new SsoFailure('failed');
    }
    const claims = tokens.claims();
    // A subject the database could not keep as sent (NUL, a lone surrogate) names no account here.
    if (!claims || hasUnstorableText([claims.iss, claims.sub])) throw new SsoFailure('failed');
    let source: Record<string, unknown> = claims;
    // OpenID Connect Core 5.4: with an access token, the profile and email claims may come from UserInfo only.
    if (text(claims.email) === undefined && tokens.access_token) {
      try {
        source = { ...claims, ...(await client.fetchUserInfo(config, tokens.access_token, claims.sub)), sub: claims.sub };
      } catch (error) {
        deps.log.warn(
          { err: { name: (error as Error).name, code: (error as { code?: unknown }).code } },
          'single sign-on: UserInfo could not be read',
        );
        throw new SsoFailure('failed');
      }
    }
    return {
      issuer: claims.iss,
      subject: claims.sub,
      email: text(source.email),
      // Only a JSON true counts: some providers send "true" as text, or nothing, for addresses they never checked.
      emailVerified: source.email_verified === true,
      name: text(source.name),
      preferredUsername: text(source.preferred_username),
      authTime: typeof claims.auth_time === 'number' ? claims.auth_time : undefined,
    };
  }

  /** Makes an account for a verified email nobody here uses, when sign-up is open (docs/decisions/0025). */
  async function createAccount(account: ProviderAccount, email: string, meta: RequestMeta): Promise<string> {
    if (deps.signupMode !== 'open') throw new SsoFailure('no_account');
    if (
      deps.signupLimitPerHour > 0 &&
      !(await reserveAddressAttempt(deps.db, 'signup_attempts', meta.ip, {
        now: new Date(),
        max: deps.signupLimitPerHour,
        windowMs: SIGNUP_WINDOW_MS,
      }))
    ) {
      throw new SsoFailure('limited');
    }
    // A password nobody knows: the account signs in through the provider, or sets one with
    // "Forgot password?" (the reset link goes to this very email).
    const passwordHash = await hashSecret(randomBytes(32).toString('base64url'));
    try {
      // The provider verified the email: the new account's email is proven (DESIGN §5).
      const id = await users.createUser({
        email,
        username: usernameFrom(account, email),
        passwordHash,
        emailVerified: true,
        ...signupLanguage(meta.acceptLanguage),
      });
      await recordAudit(deps.db, { userId: id, action: 'signup', ip: meta.ip, detail: { method: 'oidc' } });
      return id;
    } catch (error) {
      // Two first sign-ins racing for one email: the unique index decides, and both link to it.
      const user = await users.findUserByEmail(email);
      // A password sign-up won the race: its email is not proven, so nothing links to it now.
      if (user) {
        if (user.email_verified_at === null) throw new SsoFailure('failed');
        return user.id;
      }
      throw error;
    }
  }

  /**
   * Whose account this is: the one already linked to (issuer, subject); else, for an email the
   * provider verified, the account with that email — linked now only when its email is proven
   * (DESIGN §5: by its emailed link or the provider), else its password is asked first — or a new
   * one (sign-in only). An unverified email never links or creates. A re-authentication links only
   * the signed-in account: its session shows who holds it, and the provider just showed the email is
   * theirs.
   */
  async function accountOf(
    account: ProviderAccount,
    purpose: SsoPurpose,
    meta: RequestMeta,
    sessionUserId?: string,
  ): Promise<AccountMatch> {
    const linked = await repo.findIdentity(account.issuer, account.subject);
    if (linked) {
      await repo.touchIdentity(linked.id);
      return { kind: 'account', userId: linked.user_id };
    }
    if (!account.emailVerified || account.email === undefined) throw new SsoFailure('unverified');
    const parsed = emailSchema.safeParse(account.email);
    if (!parsed.success) throw new SsoFailure('unverified');
    const email = parsed.data;
    const existing = await users.findUserByEmail(email);
    // A re-authentication proves who is signed in; it never makes an account or links another.
    if (purpose === 'reauth' && existing?.id !== sessionUserId) throw new SsoFailure('other_account');
    // Someone may have signed up with this address without owning it: their password first.
    if (existing && existing.email_verified_at === null && purpose === 'login') return { kind: 'confirm', userId: existing.id, email };
    const userId = existing ? existing.id : await createAccount(account, email, meta);
    const link = await repo.linkIdentity(userId, account.issuer, account.subject);
    if (link.created) await recordAudit(deps.db, { userId: link.userId, action: 'oidc_link', ip: meta.ip, detail: { purpose } });
    if (existing && existing.email_verified_at === null && link.userId === existing.id)
      await deps.emailVerification.provenBy(existing.id, email, 'oidc', meta);
    return { kind: 'account', userId: link.userId };
  }

  /** This browser's sign-on waiting for a password, while it lasts; else 404 with words. */
  async function waitingLink(browserToken: string | undefined) {
    const row =
      browserToken !== undefined && BROWSER_TOKEN.test(browserToken) ? await repo.findLinkRequest(sha256Hex(browserToken)) : undefined;
    if (!row || Date.parse(row.expires_at) <= Date.now()) throw notFound(SSO_LINK_GONE);
    return row;
  }

  return {
    /**
     * POST /api/auth/oidc/start: the provider's authorization address with PKCE (S256), state and
     * nonce, and the token for the browser's cookie (one already there is kept, so two tabs can sign
     * in at once). A re-authentication asks the provider to sign the person in again.
     */
    async start(
      input: SsoStartInput,
      ctx: { ip: string; browserToken: string | undefined; session: SessionUser | null },
    ): Promise<{ url: string; browserToken: string }> {
      if (input.purpose === 'reauth' && !ctx.session) throw unauthorized();
      const now = new Date();
      const attemptId = await repo.reserveAttempt(ctx.ip, { now, max: MAX_UNFINISHED_PER_ADDRESS, windowMs: LOGIN_WINDOW_MS });
      if (!attemptId) throw tooManyRequests(SSO_ERRORS.limited, LOGIN_WINDOW_MS / 1000);
      let config: client.Configuration;
      try {
        config = await provider();
      } catch (error) {
        await repo.releaseAttempt(attemptId);
        throw error;
      }
      const state = client.randomState();
      const nonce = client.randomNonce();
      const codeVerifier = client.randomPKCECodeVerifier();
      const browserToken = ctx.browserToken !== undefined && BROWSER_TOKEN.test(ctx.browserToken) ? ctx.browserToken : randomToken();
      await repo.createRequest({
        id: sha256Hex(state),
        browser_hash: sha256Hex(browserToken),
        purpose: input.purpose,
        code_verifier: codeVerifier,
        nonce,
        next: input.next ?? null,
        session_id: input.purpose === 'reauth' ? (ctx.session?.sessionId ?? null) : null,
        attempt_id: attemptId,
        created_at: nowIso(now),
        expires_at: nowIso(new Date(now.getTime() + SSO_REQUEST_MS)),
      });
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: SCOPE,
        state,
        nonce,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        // OpenID Connect Core 3.1.2.1: sign in again now, whatever session the provider has.
        ...(input.purpose === 'reauth' ? { prompt: 'login', max_age: '0' } : {}),
      });
      return { url: url.href, browserToken };
    },

    /**
     * GET /api/auth/oidc/callback. Never throws for what a person or the provider can cause: any
     * failure is an outcome with a short code the page turns into words.
     */
    async finish(
      query: SsoCallbackQuery,
      ctx: { meta: RequestMeta; search: string; browserToken: string | undefined; session: SessionUser | null },
    ): Promise<SsoOutcome> {
      if (!query.state) return { kind: 'failed', code: 'expired', purpose: null, next: null };
      // Taken out first: a state works once, whatever happens next.
      const request = await repo.takeRequest(sha256Hex(query.state));
      if (!request) return { kind: 'failed', code: 'expired', purpose: null, next: null };
      const { purpose, next } = request;
      try {
        if (Date.parse(request.expires_at) <= Date.now()) throw new SsoFailure('expired');
        // The browser that started it: a callback address copied elsewhere finds no cookie of its own.
        if (ctx.browserToken === undefined || sha256Hex(ctx.browserToken) !== request.browser_hash) throw new SsoFailure('browser');
        if (query.error !== undefined) throw new SsoFailure('denied');
        const config = await provider().catch(() => {
          throw new SsoFailure('unavailable');
        });
        const account = await exchange(config, ctx.search, {
          state: query.state,
          code_verifier: request.code_verifier,
          nonce: request.nonce,
        });
        if (purpose === 'reauth') {
          const session = ctx.session;
          if (!session || session.sessionId !== request.session_id) throw new SsoFailure('session');
          // The provider must have signed the person in after we asked (prompt=login, max_age=0).
          if (account.authTime === undefined || account.authTime * 1000 < Date.parse(request.created_at) - CLOCK_SKEW_MS)
            throw new SsoFailure('failed');
          const match = await accountOf(account, purpose, ctx.meta, session.id);
          if (match.kind !== 'account' || match.userId !== session.id) throw new SsoFailure('other_account');
          await deps.sessions.markAuthenticated(session.sessionId, new Date());
          await recordAudit(deps.db, { userId: session.id, action: 'reauthenticate', ip: ctx.meta.ip, detail: { method: 'oidc' } });
          if (request.attempt_id) await repo.releaseAttempt(request.attempt_id);
          return { kind: 'reauthenticated', next };
        }
        const match = await accountOf(account, purpose, ctx.meta);
        if (match.kind === 'confirm') {
          const now = new Date();
          await repo.createLinkRequest({
            id: newId(),
            browser_hash: request.browser_hash,
            user_id: match.userId,
            issuer: account.issuer,
            subject: account.subject,
            email: match.email,
            next,
            created_at: nowIso(now),
            expires_at: nowIso(new Date(now.getTime() + SSO_LINK_MS)),
          });
          if (request.attempt_id) await repo.releaseAttempt(request.attempt_id);
          return { kind: 'confirm', next };
        }
        const outcome = await deps.auth.signInVerified(match.userId, ctx.meta, { method: 'oidc' });
        if (request.attempt_id) await repo.releaseAttempt(request.attempt_id);
        return { kind: 'login', outcome, next };
      } catch (error) {
        if (error instanceof SsoFailure) return { kind: 'failed', code: error.code, purpose, next };
        throw error;
      }
    },

    /** GET /api/auth/oidc/link: which address and provider this browser's waiting sign-on is for. */
    async pendingLink(browserToken: string | undefined): Promise<{ email: string; provider: string }> {
      const row = await waitingLink(browserToken);
      return { email: row.email, provider: oidc.name };
    },

    /**
     * POST /api/auth/oidc/link: the password of the account the provider's email named. It counts
     * as a login attempt of that account and address (auth.checkPassword); right, the provider's
     * account is linked, the email is proven (the provider verified it, the password shows the
     * account is this person's), and the sign-in goes on like any other — to the second step when
     * the account has one.
     */
    async completeLink(
      browserToken: string | undefined,
      password: string,
      meta: RequestMeta,
    ): Promise<{ outcome: LoginOutcome; next: string | null }> {
      const row = await waitingLink(browserToken);
      await deps.auth.checkPassword(row.user_id, password, meta);
      // Taken out once: of two right passwords racing, one links.
      if (!(await repo.takeLinkRequest(row.id))) throw notFound(SSO_LINK_GONE);
      const link = await repo.linkIdentity(row.user_id, row.issuer, row.subject);
      if (link.userId !== row.user_id) throw notFound(SSO_LINK_GONE);
      if (link.created)
        await recordAudit(deps.db, {
          userId: row.user_id,
          action: 'oidc_link',
          ip: meta.ip,
          detail: { purpose: 'login', confirmed: 'password' },
        });
      await deps.emailVerification.provenBy(row.user_id, row.email, 'oidc', meta);
      return { outcome: await deps.auth.signInVerified(row.user_id, meta, { method: 'oidc' }), next: row.next };
    },
  };
}
export type OidcService = ReturnType<typeof createOidcService>;
