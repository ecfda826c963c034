import { LOGIN_EXPIRED_ERROR, TOTP_CODE_USED } from '@kinchart/shared/auth-texts';
import type {
  AuthUser,
  ChangeEmailInput,
  ChangePasswordInput,
  LoginInput,
  LoginMfaInput,
  MfaMethod,
  PasskeyAssertion,
  SignupInput,
  SignupMode,
} from '@kinchart/shared/auth';
import { REAUTH_WINDOW_MS, SIGNUP_CLOSED, SIGNUP_INVITE_ONLY } from '@kinchart/shared/auth';
import type { Db } from '../../db/database';
import { recordAudit } from '../../common/audit';
import { addNotification } from '../../common/notify';
import { reserveAddressAttempt } from '../../db/attempt-limits.repository';
import { HttpError, badRequest, conflict, forbidden, tooManyRequests, unauthorized } from '../../lib/http-errors';
import { hashSecret, verifyAgainstDummy, verifySecret } from '../../lib/passwords';
import { createAuthRepository } from './auth.repository';
import type { SessionRepository } from '../../common/session.repository';
import { isCommonPassword } from './common-passwords';
import type { MfaService } from './mfa.service';
import type { PasskeyService } from './passkeys.service';
import type { EmailVerificationService } from './email-verification.service';
import { translatorOfUser } from '../../i18n/recipients';
import { signupLanguage } from '../../i18n/signup-language';

export const LOGIN_WINDOW_MS = 15 * 60_000;
/**
 * DESIGN §5: 10 failures per account and address in 15 minutes → 429. Counted per pair, so nobody
 * can lock a person out of their own account from somewhere else.
 */
export const MAX_FAILURES_PER_ACCOUNT = 10;
/** A wider per-address ceiling, across accounts, so one address cannot walk through many accounts. */
export const MAX_FAILURES_PER_IP = 50;
/**
 * DESIGN §5: a ceiling per account across addresses, so many addresses together cannot guess without
 * end either: wrong passwords (logins and re-confirmations), and wrong second-factor codes. Reaching
 * the second one stops the second step: the password step starts over and the owner is told.
 */
export const MAX_PASSWORD_FAILURES_PER_ACCOUNT = 30;
export const MAX_SECOND_FACTOR_FAILURES_PER_ACCOUNT = 10;
/** DESIGN §5: sign-up is limited per address; the number is SIGNUP_LIMIT_PER_HOUR. */
export const SIGNUP_WINDOW_MS = 3_600_000;
const LOGIN_LIMIT = {
  windowMs: LOGIN_WINDOW_MS,
  perPair: MAX_FAILURES_PER_ACCOUNT,
  perAddress: MAX_FAILURES_PER_IP,
  perAccount: { password: MAX_PASSWORD_FAILURES_PER_ACCOUNT, second_factor: MAX_SECOND_FACTOR_FAILURES_PER_ACCOUNT },
};

const INVALID_LOGIN = 'Invalid email or password';
export const COMMON_PASSWORD = 'This password is too common. Please choose a less predictable one.';
const LOGIN_LIMITED = 'Too many failed login attempts. Please try again in 15 minutes.';
const REAUTH_LIMITED = 'Too many incorrect passwords. You have been signed out; please sign in again in 15 minutes.';
const SIGNUP_LIMITED = 'Too many sign-ups from this address. Please try again later.';
const LOGIN_EXPIRED = 'Your sign-in has expired. Please log in again.';
const INVALID_CODE = 'Invalid authentication code';
const INCORRECT_PASSWORD = 'Password is incorrect';
const SECOND_STEP_STOPPED = 'Too many wrong codes. For your safety, sign in again with your password in 15 minutes.';
const INVALID_RECOVERY_CODE = 'Invalid recovery code';
const PASSKEY_NOT_ACCEPTED = 'That passkey was not accepted. Please try again or use another way to sign in.';
const PASSKEY_NOT_CONFIRMED = 'That passkey could not confirm it is you. Please try again.';

/** A 429 that has also ended the caller's session on the server: the route clears its cookie too. */
export class SessionEndedError extends HttpError {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, message, {}, { 'Retry-After': String(retryAfterSeconds) });
  }
}

/**
 * A pending login that is gone: a 401 when it expired, finished or was never made; a 429 when too
 * many wrong codes stopped it (DESIGN §5). Either way the route clears its cookie.
 */
export class PendingLoginEndedError extends HttpError {
  constructor(stopped = false) {
    super(
      stopped ? 429 : 401,
      stopped ? SECOND_STEP_STOPPED : LOGIN_EXPIRED,
      stopped ? {} : { error: LOGIN_EXPIRED_ERROR },
      stopped ? { 'Retry-After': String(LOGIN_WINDOW_MS / 1000) } : {},
    );
  }
}

/** Work that must follow an account deletion once the rows are gone (e.g. removing file blobs). */
export type AccountDeletionHook = (userId: string) => Promise<(() => Promise<void>) | void>;

/**
 * Under SIGNUP_MODE=invite, the person-share invitations that admit a sign-up (DESIGN §11): each
 * admits one. A claim is given back when the account could not be made after all.
 */
export interface SignupInvitations {
  claim(token: string): Promise<boolean>;
  release(token: string): Promise<void>;
}

export interface RequestMeta {
  ip: string;
  userAgent: string | null;
  /** The request's Accept-Language (issue 35: a new account's language and units). */
  acceptLanguage?: string | undefined;
}

/** A login's outcome: signed in, or a right password that still needs a second factor (no session yet). */
export type LoginOutcome =
  { kind: 'session'; token: string; user: AuthUser } | { kind: 'second_factor'; pendingToken: string; methods: MfaMethod[] };

/** What the audit trail says of a login beyond its time and address (never a secret). */
type LoginDetail = { second_factor: MfaMethod } | { method: 'oidc' | 'passkey' };

export function createAuthService(deps: {
  db: Db;
  sessions: SessionRepository;
  mfa: MfaService;
  passkeys: PasskeyService;
  accountDeletionHooks: AccountDeletionHook[];
  /** Sign-ups per client address an hour; 0 turns the limit off. */
  signupLimitPerHour: number;
  /** SIGNUP_MODE (docs/decisions/0025). */
  signupMode: SignupMode;
  invitations: SignupInvitations;
  /** Proving emails (docs/decisions/0030): the link after a sign-up or an email change. */
  emailVerification: EmailVerificationService;
}) {
  const repo = createAuthRepository(deps.db);

  /**
   * DESIGN §5: a password re-confirmation is a login attempt. It takes one from the login budget of
   * the account and address before the hash is checked and gives it back when the password is
   * right, so a stolen session cannot guess the password. Once the budget is spent the session is
   * ended (the caller clears its cookie) and the answer is 429. A right password is also this
   * session's re-authentication (common/recent-auth.ts, docs/decisions/0024).
   */
  async function confirmPassword(
    userId: string,
    sessionId: string,
    password: string,
    message: string,
    meta: RequestMeta,
    counted?: () => Promise<void>,
  ) {
    return confirmIdentity(userId, sessionId, (user) => verifySecret(user.password_hash, password), message, meta, counted);
  }

  /** A re-confirmation by any proof (the password, or a passkey for POST /api/auth/reauth), under one budget. */
  async function confirmIdentity(
    userId: string,
    sessionId: string,
    proves: (user: { password_hash: string }) => Promise<boolean>,
    message: string,
    meta: RequestMeta,
    /** Refusals that count like a wrong password (they throw before the attempt is given back). */
    counted?: () => Promise<void>,
  ) {
    const user = await repo.findUserById(userId);
    if (!user) throw badRequest(message);
    const attempt = await repo.reserveLoginAttempt(user.email, meta.ip, 'password', { now: new Date(), ...LOGIN_LIMIT });
    if ('refused' in attempt) {
      await deps.sessions.delete(sessionId);
      await recordAudit(deps.db, { userId, action: 'logout', ip: meta.ip, detail: { reason: 'too_many_password_attempts' } });
      throw new SessionEndedError(REAUTH_LIMITED, LOGIN_WINDOW_MS / 1000);
    }
    if (!(await proves(user))) throw badRequest(message);
    await counted?.();
    await repo.releaseLoginAttempt(attempt.id);
    const authenticatedAt = new Date();
    await deps.sessions.markAuthenticated(sessionId, authenticatedAt);
    return { user, authenticatedAt };
  }

  /**
   * Signed in, with one factor or two: a new session. Only this request's own reservation is given
   * back (`attemptId`): failures still in flight, or made before, go on counting (DESIGN §5).
   * `how` goes into the audit trail (the second factor used, or a first factor other than the password).
   */
  async function startSession(user: AuthUser, meta: RequestMeta, attemptId: string | null, how?: LoginDetail): Promise<LoginOutcome> {
    if (attemptId) await repo.releaseLoginAttempt(attemptId);
    const token = await deps.sessions.create(user.id, { ip: meta.ip, userAgent: meta.userAgent });
    await recordAudit(deps.db, { userId: user.id, action: 'login', ip: meta.ip, ...(how ? { detail: how } : {}) });
    return { kind: 'session', token, user: { id: user.id, username: user.username, email: user.email } };
  }

  /**
   * The owner hears that a second step was stopped: someone knew their password. Once per window,
   * however many stopped second steps follow (the dedupe key).
   */
  async function tellOwnerSecondStepStopped(userId: string, now: Date) {
    const tr = await translatorOfUser(deps.db, userId);
    await addNotification(deps.db, {
      userId,
      type: 'info',
      level: 'warning',
      title: tr.t('notice.sign_in_stopped.title'),
      message: tr.t('notice.sign_in_stopped'),
      dedupeKey: `second_step_stopped:${userId}:${Math.floor(now.getTime() / LOGIN_WINDOW_MS)}`,
    });
  }

  return {
    async signup(input: SignupInput, meta: RequestMeta) {
      // SIGNUP_MODE first: a closed server answers nothing about passwords or addresses.
      const invitation = deps.signupMode === 'invite' ? input.invitation : undefined;
      if (deps.signupMode === 'closed') throw forbidden(SIGNUP_CLOSED);
      if (deps.signupMode === 'invite' && !invitation) throw forbidden(SIGNUP_INVITE_ONLY);
      if (await isCommonPassword(input.password)) throw badRequest(COMMON_PASSWORD);
      // Counted before the email is looked up, so the 409 of a taken address cannot be probed
      // without limit either; held across instances by the database (DESIGN §5, §10).
      if (
        deps.signupLimitPerHour > 0 &&
        !(await reserveAddressAttempt(deps.db, 'signup_attempts', meta.ip, {
          now: new Date(),
          max: deps.signupLimitPerHour,
          windowMs: SIGNUP_WINDOW_MS,
        }))
      ) {
        throw tooManyRequests(SIGNUP_LIMITED, SIGNUP_WINDOW_MS / 1000);
      }
      // The invitation is claimed before the address is looked up: without one, a 409 does not
      // tell an invite-only server's addresses either.
      if (invitation && !(await deps.invitations.claim(invitation))) throw forbidden(SIGNUP_INVITE_ONLY);
      try {
        if (await repo.findUserByEmail(input.email)) throw conflict('An account with this email already exists');
        const passwordHash = await hashSecret(input.password);
        try {
          const id = await repo.createUser({
            email: input.email,
            username: input.username,
            passwordHash,
            timeZone: input.time_zone,
            ...signupLanguage(meta.acceptLanguage),
          });
          await recordAudit(deps.db, { userId: id, action: 'signup', ip: meta.ip, detail: invitation ? { invited: true } : undefined });
          // A link to prove the address, by email after the answer; signing in never waits for it.
          deps.emailVerification.signedUp({ id, email: input.email });
          return id;
        } catch (error) {
          // Two sign-ups racing for one email: the unique index decides.
          if (await repo.findUserByEmail(input.email)) throw conflict('An account with this email already exists');
          throw error;
        }
      } catch (error) {
        if (invitation) await deps.invitations.release(invitation);
        throw error;
      }
    },

    async login(input: LoginInput, meta: RequestMeta): Promise<LoginOutcome> {
      // DESIGN §5: the attempt is reserved before the hash is checked, so parallel requests are
      // held too. An unknown email reserves like a known one: same answers, same timing.
      const attempt = await repo.reserveLoginAttempt(input.email, meta.ip, 'password', { now: new Date(), ...LOGIN_LIMIT });
      if ('refused' in attempt) throw tooManyRequests(LOGIN_LIMITED, LOGIN_WINDOW_MS / 1000);
      const user = await repo.findUserByEmail(input.email);
      const ok = user ? await verifySecret(user.password_hash, input.password) : await verifyAgainstDummy(input.password);
      // A wrong password leaves the reserved attempt in place: it was a failure.
      if (!user || !ok) throw unauthorized(INVALID_LOGIN);
      if (await deps.mfa.required(user.id)) {
        // Half way: this attempt was no failure, but the earlier ones keep counting until the second
        // factor is right too — else a right password would reset the budget for guessing codes.
        await repo.releaseLoginAttempt(attempt.id);
        return { kind: 'second_factor', pendingToken: await deps.mfa.beginLogin(user.id), methods: await deps.mfa.methods(user.id) };
      }
      // Signed in: the reserved attempt was no failure.
      return startSession(user, meta, attempt.id);
    },

    /**
     * The second step of a login (DESIGN §5): within 5 minutes of the right password, one code or
     * recovery code. Each one is a login attempt of the account and address, reserved before it is
     * checked like a password, so codes share the password's budget of 10 failures per address.
     * Across addresses the account's wrong codes stop at MAX_SECOND_FACTOR_FAILURES_PER_ACCOUNT: the
     * one that reaches it ends the pending login and tells the owner (someone has their password),
     * and while the ceiling holds every second step ends the same way, unchecked.
     */
    async completeLogin(pendingToken: string, input: LoginMfaInput, meta: RequestMeta): Promise<LoginOutcome> {
      const pending = await deps.mfa.pendingLogin(pendingToken);
      const user = pending ? await repo.findUserById(pending.userId) : undefined;
      if (!pending || !user) throw new PendingLoginEndedError();
      const now = new Date();
      const attempt = await repo.reserveLoginAttempt(user.email, meta.ip, 'second_factor', { now, ...LOGIN_LIMIT });
      if ('refused' in attempt) {
        if (attempt.refused !== 'account') throw tooManyRequests(LOGIN_LIMITED, LOGIN_WINDOW_MS / 1000);
        await deps.mfa.endPendingLogin(pending.id);
        throw new PendingLoginEndedError(true);
      }
      const method = await deps.mfa.verify(user.id, pending.id, input, meta);
      if (!method || method === 'used_code') {
        if (attempt.accountFailures >= MAX_SECOND_FACTOR_FAILURES_PER_ACCOUNT) {
          await deps.mfa.endPendingLogin(pending.id);
          await tellOwnerSecondStepStopped(user.id, now);
          throw new PendingLoginEndedError(true);
        }
        // Still a failed attempt (the reservation stays), but in words that say what to do.
        if (method === 'used_code') throw unauthorized(TOTP_CODE_USED);
        throw unauthorized(
          input.code !== undefined ? INVALID_CODE : input.passkey !== undefined ? PASSKEY_NOT_ACCEPTED : INVALID_RECOVERY_CODE,
        );
      }
      // One pending login, one session, even when two right codes race.
      if (!(await deps.mfa.endPendingLogin(pending.id))) throw new PendingLoginEndedError();
      return startSession(user, meta, attempt.id, { second_factor: method });
    },

    /** The pending login of a second step, for its passkey challenge; gone → 401 login_expired. */
    async pendingLoginUser(pendingToken: string): Promise<{ userId: string; pendingLoginId: string }> {
      const pending = await deps.mfa.pendingLogin(pendingToken);
      if (!pending) throw new PendingLoginEndedError();
      return { userId: pending.userId, pendingLoginId: pending.id };
    },

    /**
     * Signing in with a discoverable passkey alone (DESIGN §5): a passkey that verifies its user is
     * two factors in one. The attempt is reserved before the signature is checked, on the account
     * the passkey names, like a password. A credential id no account has is refused at once: it
     * names nobody to guess for, and a random id with no private key behind it proves nothing.
     */
    async loginWithPasskey(response: PasskeyAssertion, meta: RequestMeta): Promise<LoginOutcome> {
      const claimed = await deps.passkeys.claimedUser(response);
      const user = claimed ? await repo.findUserById(claimed) : undefined;
      if (!user) throw unauthorized(PASSKEY_NOT_ACCEPTED);
      const attempt = await repo.reserveLoginAttempt(user.email, meta.ip, 'passkey', { now: new Date(), ...LOGIN_LIMIT });
      if ('refused' in attempt) throw tooManyRequests(LOGIN_LIMITED, LOGIN_WINDOW_MS / 1000);
      const proof = await deps.passkeys.verifyAssertion('login', {}, response);
      if (proof?.userId !== user.id) throw unauthorized(PASSKEY_NOT_ACCEPTED);
      return startSession({ id: user.id, username: user.username, email: user.email }, meta, attempt.id, { method: 'passkey' });
    },

    /**
     * A first factor proved elsewhere — single sign-on (docs/decisions/0029) — goes on exactly like a
     * right password: an account with a second factor gets the pending second step and no session.
     */
    async signInVerified(userId: string, meta: RequestMeta, how: { method: 'oidc' }): Promise<LoginOutcome> {
      const user = await repo.findUserById(userId);
      if (!user) throw unauthorized();
      if (await deps.mfa.required(user.id)) {
        return { kind: 'second_factor', pendingToken: await deps.mfa.beginLogin(user.id), methods: await deps.mfa.methods(user.id) };
      }
      return startSession(user, meta, null, how);
    },

    /**
     * The password of an account before single sign-on links to it (docs/decisions/0030): a login
     * attempt of the account and address, reserved before the hash is checked and given back when
     * right, like every other password check.
     */
    async checkPassword(userId: string, password: string, meta: RequestMeta): Promise<void> {
      const user = await repo.findUserById(userId);
      if (!user) throw unauthorized(INCORRECT_PASSWORD);
      const attempt = await repo.reserveLoginAttempt(user.email, meta.ip, 'password', { now: new Date(), ...LOGIN_LIMIT });
      if ('refused' in attempt) throw tooManyRequests(LOGIN_LIMITED, LOGIN_WINDOW_MS / 1000);
      if (!(await verifySecret(user.password_hash, password))) throw unauthorized(INCORRECT_PASSWORD);
      await repo.releaseLoginAttempt(attempt.id);
    },

    async logout(userId: string, sessionId: string, meta: RequestMeta) {
      await deps.sessions.delete(sessionId);
      await recordAudit(deps.db, { userId, action: 'logout', ip: meta.ip });
    },

    /**
     * POST /api/auth/reauth: the password again, for the actions that need a recent one. Counts
     * against the login budget like every re-confirmation; answers until when it holds.
     */
    async reauthenticate(
      userId: string,
      sessionId: string,
      proof: { password: string } | { passkey: PasskeyAssertion },
      meta: RequestMeta,
    ): Promise<Date> {
      const { authenticatedAt } =
        'password' in proof
          ? await confirmPassword(userId, sessionId, proof.password, 'Password is incorrect', meta)
          : await confirmIdentity(
              userId,
              sessionId,
              async () => !!(await deps.passkeys.verifyAssertion('reauth', { userId, sessionId }, proof.passkey)),
              PASSKEY_NOT_CONFIRMED,
              meta,
            );
      await recordAudit(deps.db, { userId, action: 'reauthenticate', ip: meta.ip });
      return new Date(authenticatedAt.getTime() + REAUTH_WINDOW_MS);
    },

    async changePassword(userId: string, sessionId: string, input: ChangePasswordInput, meta: RequestMeta) {
      await confirmPassword(userId, sessionId, input.currentPassword, 'Current password is incorrect', meta);
      if (await isCommonPassword(input.newPassword)) throw badRequest(COMMON_PASSWORD);
      await repo.updatePassword(userId, await hashSecret(input.newPassword));
      // DESIGN §5: every other session ends; this one goes on.
      await deps.sessions.deleteOthers(userId, sessionId);
      await recordAudit(deps.db, { userId, action: 'password_change', ip: meta.ip });
    },

    async changeEmail(userId: string, sessionId: string, input: ChangeEmailInput, meta: RequestMeta) {
      // A taken address spends the re-confirmation like a wrong password (DESIGN §5): otherwise a
      // session could ask the 409 which addresses have accounts without limit.
      const taken = async () => {
        const owner = await repo.findUserByEmail(input.newEmail);
        if (owner && owner.id !== userId) throw conflict('An account with this email already exists');
      };
      const { user } = await confirmPassword(userId, sessionId, input.password, 'Password is incorrect', meta, taken);
      if (user.email !== input.newEmail) {
        try {
          await repo.updateEmail(userId, input.newEmail);
        } catch (error) {
          // Another account took the address meanwhile: the unique index decides.
          if (await repo.findUserByEmail(input.newEmail)) throw conflict('An account with this email already exists');
          throw error;
        }
        // The old address hears of it; the new one is unproven until its own link (docs/decisions/0030).
        deps.emailVerification.emailChanged({ id: userId, oldEmail: user.email, newEmail: input.newEmail });
      }
      await deps.sessions.deleteOthers(userId, sessionId);
      await recordAudit(deps.db, { userId, action: 'email_change', ip: meta.ip });
    },

    async deleteAccount(userId: string, sessionId: string, password: string, meta: RequestMeta) {
      await confirmPassword(userId, sessionId, password, 'Password is incorrect', meta);
      const after: (() => Promise<void>)[] = [];
      for (const hook of deps.accountDeletionHooks) {
        const next = await hook(userId);
        if (next) after.push(next);
      }
      await repo.deleteUser(userId); // sessions and every owned row cascade
      for (const task of after) await task();
      await recordAudit(deps.db, { userId, action: 'account_delete', ip: meta.ip });
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
