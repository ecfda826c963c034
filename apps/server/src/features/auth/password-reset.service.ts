import { z } from 'zod';
import type { ForgotPasswordInput, ResetPasswordInput } from '@kinchart/shared/auth';
import { PASSWORD_RESET_TTL_MINUTES } from '@kinchart/shared/auth';
import type { Db } from '../../db/database';
import { recordAudit } from '../../common/audit';
import type { Mailer } from '../../common/mailer';
import type { HttpError } from '../../lib/http-errors';
import { badRequest, notFound, tooManyRequests } from '../../lib/http-errors';
import { randomToken, sha256Hex } from '../../lib/ids';
import { hashSecret } from '../../lib/passwords';
import { COMMON_PASSWORD } from './auth.service';
import type { RequestMeta } from './auth.service';
import { createAuthRepository } from './auth.repository';
import { isCommonPassword } from './common-passwords';
import { createPasswordResetRepository } from './password-reset.repository';
import { translator, type Translator } from '../../i18n/translator';

// A way back into an account whose password is forgotten (docs/decisions/0025): a single-use link
// valid 30 minutes, by email or printed for the operator. The token is 256 random bits, kept only
// as its SHA-256 hash; it never enters a log or the audit trail.

export const RESET_REQUEST_WINDOW_MS = 3_600_000;
/** Requests per email an hour, whether or not an account has it: enough for a lost email, too few to flood an inbox. */
export const RESET_REQUESTS_PER_ACCOUNT = 3;
/** Requests per client address an hour, across emails. */
export const RESET_REQUESTS_PER_ADDRESS = 10;
const RESET_TTL_MS = PASSWORD_RESET_TTL_MINUTES * 60_000;

/** randomToken(): 32 bytes as base64url. Anything else is refused before it is hashed. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const RESET_LIMITED = 'Too many password reset requests. Please try again later.';
export const LINK_UNKNOWN = 'This password reset link is not valid. Please ask for a new one.';
export const LINK_USED = 'This password reset link has already been used. Please ask for a new one.';
export const LINK_EXPIRED = 'This password reset link has expired. Please ask for a new one.';

/** The link of a token: the web app's reset page (it is a query, which the logs redact). */
export const resetLink = (publicUrl: string, token: string): string =>
  `${publicUrl}/reset-password?${new URLSearchParams({ token }).toString()}`;

/**
 * The second wall (STYLE: privacy boundary as a list): the one link in the email is the reset
 * link on this server, and nothing else of the account goes into it.
 */
const resetEmailSchema = z.strictObject({ subject: z.string().max(120), text: z.string().max(2000) });

/** Subject and plain text of the email, in the account's language (exported for tests of the wording). */
export function composeResetMail(link: string, tr: Translator = translator('en')) {
  return resetEmailSchema.parse({
    subject: tr.t('email.reset.subject'),
    text: tr.t('email.reset.text', { minutes: PASSWORD_RESET_TTL_MINUTES, link }),
  });
}

export function createPasswordResetService(deps: { db: Db; mailer: Mailer | undefined; publicUrl: string }) {
  const repo = createPasswordResetRepository(deps.db);
  const accounts = createAuthRepository(deps.db);

  /** A new link for the account of `email` (replacing its others), or undefined when no account has it. */
  async function issue(email: string, via: 'email' | 'operator', ip: string | null) {
    const user = await accounts.findUserByEmail(email);
    if (!user) return undefined;
    const token = randomToken();
    const now = new Date();
    await repo.replaceLink(user.id, sha256Hex(token), now, new Date(now.getTime() + RESET_TTL_MS), via === 'email' ? user.email : null);
    await recordAudit(deps.db, { userId: user.id, action: 'password_reset_request', ip, detail: { via } });
    return { to: user.email, link: resetLink(deps.publicUrl, token), tr: translator(user.language) };
  }

  /** Why a link no longer works, if it does not. */
  const refusal = (row: { used_at: string | null; expires_at: string }, now: Date): HttpError | undefined => {
    if (row.used_at) return badRequest(LINK_USED);
    if (Date.parse(row.expires_at) <= now.getTime()) return badRequest(LINK_EXPIRED);
    return undefined;
  };

  /** The link of `token` while it works: 404 for one never made (or replaced), 400 for a used or expired one. */
  async function openLink(token: string) {
    const tokenHash = TOKEN_PATTERN.test(token) ? sha256Hex(token) : undefined;
    const link = tokenHash ? await repo.findLink(tokenHash) : undefined;
    if (!tokenHash || !link) throw notFound(LINK_UNKNOWN);
    const refused = refusal(link, new Date());
    if (refused) throw refused;
    return { tokenHash, link };
  }

  return {
    /**
     * GET /api/auth/reset-password?token=…: the reset page asks as it opens, so a used or expired
     * link is said before anyone types a new password twice. Looking spends nothing.
     */
    async checkLink(token: string): Promise<{ expiresAt: string }> {
      const { link } = await openLink(token);
      return { expiresAt: new Date(link.expires_at).toISOString() };
    },

    /**
     * POST /api/auth/forgot-password. The answer is the same whether or not an account has the
     * email, and so is its timing: after the limits (counted by the email as given, known or not)
     * nothing waits for the account lookup — it, the link and the email happen after the answer,
     * through the mailer's queue. Without SMTP_URL nothing is sent: the operator prints links.
     */
    async request(input: ForgotPasswordInput, meta: RequestMeta): Promise<void> {
      const refused = await repo.reserveRequest(input.email, meta.ip, {
        now: new Date(),
        windowMs: RESET_REQUEST_WINDOW_MS,
        perAccount: RESET_REQUESTS_PER_ACCOUNT,
        perAddress: RESET_REQUESTS_PER_ADDRESS,
      });
      if (refused) throw tooManyRequests(RESET_LIMITED, RESET_REQUEST_WINDOW_MS / 1000);
      deps.mailer?.send(
        async () => {
          const issued = await issue(input.email, 'email', meta.ip);
          return issued ? { to: issued.to, ...composeResetMail(issued.link, issued.tr) } : undefined;
        },
        { message: 'password reset email failed' },
      );
    },

    /** `npm run reset-password -- --email …`: the link for the operator to pass on, or undefined when no account has the email. */
    async linkForOperator(email: string): Promise<string | undefined> {
      return (await issue(email, 'operator', null))?.link;
    },

    /**
     * POST /api/auth/reset-password. The new password follows the sign-up rules (the shared schema
     * and the common-password list), checked before the link is used so a refused password does
     * not spend it. Every session of the account ends.
     */
    async reset(input: ResetPasswordInput, meta: RequestMeta): Promise<void> {
      const { tokenHash } = await openLink(input.token);
      const now = new Date();
      if (await isCommonPassword(input.newPassword)) throw badRequest(COMMON_PASSWORD);
      const done = await repo.completeReset(tokenHash, await hashSecret(input.newPassword), now);
      if (!done) {
        // Another reset of this link got there first (or it ended meanwhile).
        const after = await repo.findLink(tokenHash);
        throw (after && refusal(after, new Date())) ?? notFound(LINK_UNKNOWN);
      }
      await recordAudit(deps.db, { userId: done.userId, action: 'password_reset', ip: meta.ip });
      if (done.emailProven)
        await recordAudit(deps.db, { userId: done.userId, action: 'email_verified', ip: meta.ip, detail: { via: 'password_reset' } });
    },
  };
}
export type PasswordResetService = ReturnType<typeof createPasswordResetService>;
