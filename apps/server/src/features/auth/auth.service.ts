import type { ChangeEmailInput, ChangePasswordInput, LoginInput, SignupInput } from '@kinchart/shared/auth';
import type { Db } from '../../db/database';
import { recordAudit } from '../audit/audit.repository';
import { badRequest, conflict, tooManyRequests, unauthorized } from '../../lib/http-errors';
import { hashSecret, verifyAgainstDummy, verifySecret } from '../../lib/passwords';
import { createAuthRepository } from './auth.repository';
import type { SessionRepository } from './session.repository';
import { isCommonPassword } from './common-passwords';

export const LOGIN_WINDOW_MS = 15 * 60_000;
/**
 * DESIGN §5: 10 failures per account and address in 15 minutes → 429. Counted per pair, so nobody
 * can lock a person out of their own account from somewhere else.
 */
export const MAX_FAILURES_PER_ACCOUNT = 10;
/** A wider per-address ceiling, across accounts, so one address cannot walk through many accounts. */
export const MAX_FAILURES_PER_IP = 50;

const INVALID_LOGIN = 'Invalid email or password';
const COMMON_PASSWORD = 'This password is too common. Please choose a less predictable one.';

/** Work that must follow an account deletion once the rows are gone (e.g. removing file blobs). */
export type AccountDeletionHook = (userId: string) => Promise<(() => Promise<void>) | void>;

export interface RequestMeta {
  ip: string;
  userAgent: string | null;
}

export function createAuthService(deps: {
  db: Db;
  sessions: SessionRepository;
  accountDeletionHooks: AccountDeletionHook[];
}) {
  const repo = createAuthRepository(deps.db);

  async function assertPasswordMatches(userId: string, password: string, message: string) {
    const user = await repo.findUserById(userId);
    if (!user || !(await verifySecret(user.password_hash, password))) throw badRequest(message);
    return user;
  }

  return {
    async signup(input: SignupInput, meta: RequestMeta) {
      if (await isCommonPassword(input.password)) throw badRequest(COMMON_PASSWORD);
      if (await repo.findUserByEmail(input.email)) throw conflict('An account with this email already exists');
      const passwordHash = await hashSecret(input.password);
      try {
        const id = await repo.createUser({ email: input.email, username: input.username, passwordHash });
        await recordAudit(deps.db, { userId: id, action: 'signup', ip: meta.ip });
        return id;
      } catch (error) {
        // Two sign-ups racing for one email: the unique index decides.
        if (await repo.findUserByEmail(input.email)) throw conflict('An account with this email already exists');
        throw error;
      }
    },

    async login(input: LoginInput, meta: RequestMeta) {
      const since = new Date(Date.now() - LOGIN_WINDOW_MS);
      const [byAccount, byIp] = await Promise.all([
        repo.countLoginFailures(since, { email: input.email, ip: meta.ip }),
        repo.countLoginFailures(since, { ip: meta.ip }),
      ]);
      if (byAccount >= MAX_FAILURES_PER_ACCOUNT || byIp >= MAX_FAILURES_PER_IP) {
        throw tooManyRequests('Too many failed login attempts. Please try again in 15 minutes.', LOGIN_WINDOW_MS / 1000);
      }
      const user = await repo.findUserByEmail(input.email);
      const ok = user ? await verifySecret(user.password_hash, input.password) : await verifyAgainstDummy(input.password);
      if (!user || !ok) {
        await repo.recordLoginFailure(input.email, meta.ip);
        throw unauthorized(INVALID_LOGIN);
      }
      await repo.clearLoginFailures(input.email, meta.ip);
      const token = await deps.sessions.create(user.id, { ip: meta.ip, userAgent: meta.userAgent });
      await recordAudit(deps.db, { userId: user.id, action: 'login', ip: meta.ip });
      return { token, user: { id: user.id, username: user.username, email: user.email } };
    },

    async logout(userId: string, sessionId: string, meta: RequestMeta) {
      await deps.sessions.delete(sessionId);
      await recordAudit(deps.db, { userId, action: 'logout', ip: meta.ip });
    },

    async changePassword(userId: string, sessionId: string, input: ChangePasswordInput, meta: RequestMeta) {
      await assertPasswordMatches(userId, input.currentPassword, 'Current password is incorrect');
      if (await isCommonPassword(input.newPassword)) throw badRequest(COMMON_PASSWORD);
      await repo.updatePassword(userId, await hashSecret(input.newPassword));
      // DESIGN §5: every other session ends; this one goes on.
      await deps.sessions.deleteOthers(userId, sessionId);
      await recordAudit(deps.db, { userId, action: 'password_change', ip: meta.ip });
    },

    async changeEmail(userId: string, sessionId: string, input: ChangeEmailInput, meta: RequestMeta) {
      const user = await assertPasswordMatches(userId, input.password, 'Password is incorrect');
      if (user.email !== input.newEmail) {
        if (await repo.findUserByEmail(input.newEmail)) throw conflict('An account with this email already exists');
        await repo.updateEmail(userId, input.newEmail);
      }
      await deps.sessions.deleteOthers(userId, sessionId);
      await recordAudit(deps.db, { userId, action: 'email_change', ip: meta.ip });
    },

    async deleteAccount(userId: string, password: string, meta: RequestMeta) {
      await assertPasswordMatches(userId, password, 'Password is incorrect');
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
