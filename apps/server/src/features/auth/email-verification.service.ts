import { z } from 'zod';
import type { EmailVerificationStatus, VerifyEmailInput } from '@kinchart/shared/auth';
import { EMAIL_VERIFICATION_TTL_HOURS } from '@kinchart/shared/auth';
import type { Db } from '../../db/database';
import { recordAudit } from '../../common/audit';
import type { Mailer } from '../../common/mailer';
import type { HttpError } from '../../lib/http-errors';
import { badRequest, conflict, notFound, tooManyRequests, unauthorized } from '../../lib/http-errors';
import { randomToken, sha256Hex } from '../../lib/ids';
import type { RequestMeta } from './auth.service';
import { createEmailVerificationRepository } from './email-verification.repository';
import { mailDateTime } from '../../i18n/formats';
import { translatorOfUser } from '../../i18n/recipients';
import { translator, type Translator } from '../../i18n/translator';

// An email is proven by a link (DESIGN §5, docs/decisions/0030): a password sign-up, a changed
// email and a person's own request get a single-use link by email, valid a day, its token kept
// only as its SHA-256. It never stands in the way of signing in; what it opens is single sign-on's
// automatic link to the account (oidc.service.ts). Without SMTP_URL no link is made.

export const VERIFY_SUBJECT = 'Kinchart: confirm your email address';
export const EMAIL_CHANGED_SUBJECT = 'Kinchart: your email address was changed';
/** Links per account an hour, whoever asks: the sign-up's, an email change's and the resends. */
export const VERIFY_LINKS_PER_HOUR = 3;
const WINDOW_MS = 3_600_000;
const TTL_MS = EMAIL_VERIFICATION_TTL_HOURS * 3_600_000;
/** randomToken(): 32 bytes as base64url. Anything else is refused before it is hashed. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const VERIFY_LINK_UNKNOWN = 'This confirmation link is not valid. Please sign in and ask for a new one in Settings.';
export const VERIFY_LINK_USED =
  'This confirmation link has already been used. If Settings still says your email is not confirmed, ask for a new link there.';
export const VERIFY_LINK_EXPIRED = 'This confirmation link has expired. Please sign in and ask for a new one in Settings.';
export const VERIFY_LINK_STALE =
  'This confirmation link was sent to an email address the account no longer uses. Please ask for a new one in Settings.';
export const VERIFY_LIMITED = 'Too many confirmation emails. Please try again in an hour.';
export const VERIFY_EMAIL_OFF = 'This server does not send email, so it cannot send a confirmation link.';
export const ALREADY_VERIFIED = 'Your email address is already confirmed.';

/** The link of a token: the web app's confirmation page (a query, which the logs redact). */
export const verifyLink = (publicUrl: string, token: string): string =>
  `${publicUrl}/verify-email?${new URLSearchParams({ token }).toString()}`;

/** The second wall (STYLE: privacy boundary as a list): subject and text, nothing else of the account. */
const mailSchema = z.strictObject({ subject: z.string().max(120), text: z.string().max(2000) });

/** The confirmation email, in its recipient's language (exported for tests of the wording). */
export function composeVerifyMail(link: string, tr: Translator = translator('en')) {
  return mailSchema.parse({
    subject: tr.t('email.verify.subject'),
    text: tr.t('email.verify.text', { hours: EMAIL_VERIFICATION_TTL_HOURS, link }),
  });
}

/** "p***@example.org": enough for the owner to recognise the new address, not enough to hand it on. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return `${Array.from(email.slice(0, at))[0] ?? ''}***${email.slice(at)}`;
}

/** The email to the address an account just left, in the account's language (exported for tests of the wording). */
export function composeEmailChangedMail(newEmail: string, at: Date, publicUrl: string, tr: Translator = translator('en')) {
  return mailSchema.parse({
    subject: tr.t('email.email_changed.subject'),
    text: tr.t('email.email_changed.text', { email: maskEmail(newEmail), time: mailDateTime(at, tr.language), url: publicUrl }),
  });
}

export function createEmailVerificationService(deps: { db: Db; mailer: Mailer | undefined; publicUrl: string }) {
  const repo = createEmailVerificationRepository(deps.db);

  /** A new link for `email` of the account, or undefined when the account has had its links this hour. */
  async function issue(userId: string, email: string): Promise<string | undefined> {
    const token = randomToken();
    const now = new Date();
    const made = await repo.insertLink(
      { userId, email, tokenHash: sha256Hex(token), now, expiresAt: new Date(now.getTime() + TTL_MS) },
      { max: VERIFY_LINKS_PER_HOUR, windowMs: WINDOW_MS },
    );
    return made ? verifyLink(deps.publicUrl, token) : undefined;
  }

  /** Queues a link to `email` (made after the caller's answer, like a reset link); nothing without SMTP. */
  function queueLink(userId: string, email: string) {
    deps.mailer?.send(
      async () => {
        const link = await issue(userId, email);
        return link ? { to: email, ...composeVerifyMail(link, await translatorOfUser(deps.db, userId)) } : undefined;
      },
      { message: 'email confirmation failed' },
    );
  }

  return {
    /** After a password sign-up: the new address gets its link. */
    signedUp(user: { id: string; email: string }) {
      queueLink(user.id, user.email);
    },

    /** After an email change: the old address is told, the new one gets its link (it is unproven again). */
    emailChanged(user: { id: string; oldEmail: string; newEmail: string }, at = new Date()) {
      deps.mailer?.send(
        async () => ({
          to: user.oldEmail,
          ...composeEmailChangedMail(user.newEmail, at, deps.publicUrl, await translatorOfUser(deps.db, user.id)),
        }),
        { message: 'email change notice failed' },
      );
      queueLink(user.id, user.newEmail);
    },

    /** GET /api/auth/email-verification. */
    async status(userId: string): Promise<EmailVerificationStatus> {
      const account = await repo.findAccount(userId);
      if (!account) throw unauthorized();
      return { email: account.email, verified: account.email_verified_at !== null, can_send: deps.mailer !== undefined };
    },

    /** POST /api/auth/email-verification: a new link, within the account's hourly links. */
    async resend(userId: string): Promise<void> {
      const account = await repo.findAccount(userId);
      if (!account) throw unauthorized();
      if (account.email_verified_at !== null) throw conflict(ALREADY_VERIFIED);
      const mailer = deps.mailer;
      // Like single sign-on without a provider: 404 with words, a server set up without it.
      if (!mailer) throw notFound(VERIFY_EMAIL_OFF);
      const link = await issue(account.id, account.email);
      if (!link) throw tooManyRequests(VERIFY_LIMITED, WINDOW_MS / 1000);
      const tr = await translatorOfUser(deps.db, account.id);
      mailer.send({ to: account.email, ...composeVerifyMail(link, tr) }, { message: 'email confirmation failed' });
    },

    /**
     * POST /api/auth/verify-email: the link proves the address it was sent to, once, within a day,
     * while the account still uses that address. No session is needed: the token is the proof.
     */
    async verify(input: VerifyEmailInput, meta: RequestMeta): Promise<void> {
      const tokenHash = TOKEN_PATTERN.test(input.token) ? sha256Hex(input.token) : undefined;
      const link = tokenHash ? await repo.findLink(tokenHash) : undefined;
      if (!tokenHash || !link) throw notFound(VERIFY_LINK_UNKNOWN);
      const refusal = (row: typeof link): HttpError | undefined => {
        if (row.used_at) return badRequest(VERIFY_LINK_USED);
        if (Date.parse(row.expires_at) <= Date.now()) return badRequest(VERIFY_LINK_EXPIRED);
        return undefined;
      };
      const early = refusal(link);
      if (early) throw early;
      const outcome = await repo.completeVerification(tokenHash, new Date());
      if (outcome === 'stale') throw badRequest(VERIFY_LINK_STALE);
      if (outcome === undefined) {
        // Another use of this link got there first (or it ended meanwhile).
        const after = await repo.findLink(tokenHash);
        throw (after && refusal(after)) ?? notFound(VERIFY_LINK_UNKNOWN);
      }
      await recordAudit(deps.db, { userId: outcome.userId, action: 'email_verified', ip: meta.ip, detail: { via: 'link' } });
    },

    /** The email is proven another way (the provider, a reset link that reached it), while it is still `email`. */
    async provenBy(userId: string, email: string, via: 'oidc' | 'password_reset', meta: { ip: string | null }): Promise<void> {
      await repo.markVerified(userId, email);
      await recordAudit(deps.db, { userId, action: 'email_verified', ip: meta.ip, detail: { via } });
    },
  };
}
export type EmailVerificationService = ReturnType<typeof createEmailVerificationService>;
