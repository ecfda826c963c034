import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  changeEmailSchema,
  changePasswordSchema,
  checkAuthResponseSchema,
  deleteAccountSchema,
  loginAnswerSchema,
  loginMfaSchema,
  FORGOT_PASSWORD_ANSWER,
  forgotPasswordSchema,
  loginResponseSchema,
  loginSchema,
  PASSWORD_RESET_DONE,
  VERIFICATION_SENT,
  EMAIL_VERIFIED,
  emailVerificationStatusSchema,
  resetLinkQuerySchema,
  resetLinkStatusSchema,
  resetPasswordSchema,
  verifyEmailSchema,
  reauthResponseSchema,
  reauthSchema,
  signupSchema,
} from '@kinchart/shared/auth';
import { messageSchema } from '@kinchart/shared/common';
import type { SessionCookies } from '../../plugins/session';
import { currentUser } from '../../plugins/session';
import type { SessionRepository } from '../../common/session.repository';
import { PendingLoginEndedError, SessionEndedError } from './auth.service';
import type { AuthService, RequestMeta } from './auth.service';
import type { SignedIn } from './sign-in';
import type { PasswordResetService } from './password-reset.service';
import type { EmailVerificationService } from './email-verification.service';

const meta = (request: FastifyRequest): RequestMeta => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'] ?? null,
  acceptLanguage: request.headers['accept-language'],
});

// SPEC §7 Authentication — exact paths and `message` fields.
export async function authRoutes(
  app: FastifyInstance,
  opts: {
    auth: AuthService;
    passwordResets: PasswordResetService;
    emailVerification: EmailVerificationService;
    sessions: SessionRepository;
    cookies: SessionCookies;
    /** The marker of a login waiting for its second factor (plugins/session.ts). */
    pendingCookies: SessionCookies;
    requireUser: (r: FastifyRequest) => Promise<void>;
    /** Signed in, with one factor or two: the same cookies and answer (SPEC §7). */
    signedIn: SignedIn;
  },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth, cookies, pendingCookies, requireUser, signedIn } = opts;

  /** Too many wrong re-confirmations end the session (DESIGN §5): the browser's cookie goes with it. */
  async function reconfirming<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof SessionEndedError) cookies.clear(reply);
      throw error;
    }
  }

  r.post('/api/auth/signup', { schema: { body: signupSchema, response: { 201: messageSchema } } }, async (request, reply) => {
    await auth.signup(request.body, meta(request));
    return reply.code(201).send({ message: 'Account created successfully!' });
  });

  r.post('/api/auth/login', { schema: { body: loginSchema, response: { 200: loginAnswerSchema } } }, async (request, reply) => {
    const outcome = await auth.login(request.body, meta(request));
    if (outcome.kind === 'session') return signedIn(request, reply, outcome);
    // DESIGN §5: the right password of an account with a second factor sets no session.
    pendingCookies.set(reply, outcome.pendingToken);
    return { mfa_required: true as const, methods: outcome.methods };
  });

  r.post('/api/auth/login/mfa', { schema: { body: loginMfaSchema, response: { 200: loginResponseSchema } } }, async (request, reply) => {
    const token = pendingCookies.read(request);
    try {
      const outcome = await auth.completeLogin(token ?? '', request.body, meta(request));
      // The marker is spent; it goes before the session cookie is set.
      pendingCookies.clear(reply);
      return await signedIn(request, reply, outcome);
    } catch (error) {
      // An expired or unknown marker is of no further use; a wrong code leaves it for the next try.
      if (error instanceof PendingLoginEndedError) pendingCookies.clear(reply);
      throw error;
    }
  });

  // A way back in (docs/decisions/0025): one answer whether or not an account has the email.
  r.post(
    '/api/auth/forgot-password',
    { schema: { body: forgotPasswordSchema, response: { 202: messageSchema } } },
    async (request, reply) => {
      await opts.passwordResets.request(request.body, meta(request));
      return reply.code(202).send({ message: FORGOT_PASSWORD_ANSWER });
    },
  );

  r.post(
    '/api/auth/reset-password',
    { schema: { body: resetPasswordSchema, response: { 200: messageSchema } } },
    async (request, reply) => {
      await opts.passwordResets.reset(request.body, meta(request));
      // Every session ended, this browser's too (it may have been signed in as someone else).
      cookies.clear(reply);
      return { message: PASSWORD_RESET_DONE };
    },
  );

  // The reset page asks as it opens whether its link still works (no state changes; the token is a
  // query the request log redacts).
  r.get(
    '/api/auth/reset-password',
    { schema: { querystring: resetLinkQuerySchema, response: { 200: resetLinkStatusSchema } } },
    async (request) => {
      const { expiresAt } = await opts.passwordResets.checkLink(request.query.token);
      return { valid: true as const, expires_at: expiresAt };
    },
  );

  // Proving an email (DESIGN §5, docs/decisions/0030): the emailed link's page posts its token; no session needed.
  r.post('/api/auth/verify-email', { schema: { body: verifyEmailSchema, response: { 200: messageSchema } } }, async (request) => {
    await opts.emailVerification.verify(request.body, meta(request));
    return { message: EMAIL_VERIFIED };
  });

  r.get(
    '/api/auth/email-verification',
    { onRequest: requireUser, schema: { response: { 200: emailVerificationStatusSchema } } },
    async (request) => opts.emailVerification.status(currentUser(request).id),
  );

  r.post(
    '/api/auth/email-verification',
    { onRequest: requireUser, schema: { response: { 202: messageSchema } } },
    async (request, reply) => {
      await opts.emailVerification.resend(currentUser(request).id);
      return reply.code(202).send({ message: VERIFICATION_SENT });
    },
  );

  r.get('/api/auth/check-auth', { onRequest: requireUser, schema: { response: { 200: checkAuthResponseSchema } } }, async (request) => {
    const { id, username, email } = currentUser(request);
    return { authenticated: true as const, user: { id, username, email } };
  });

  r.post('/api/auth/logout', { schema: { response: { 200: messageSchema } } }, async (request, reply) => {
    // Logging out is idempotent: an absent or expired session still ends with a cleared cookie.
    const token = cookies.read(request);
    const user = token ? await opts.sessions.findUser(token) : null;
    if (user) await auth.logout(user.id, user.sessionId, meta(request));
    cookies.clear(reply);
    return { message: 'Logged out successfully' };
  });

  // DESIGN §5: the password or a passkey again before exporting everything, creating a share or
  // changing factors (common/recent-auth.ts).
  r.post(
    '/api/auth/reauth',
    { onRequest: requireUser, schema: { body: reauthSchema, response: { 200: reauthResponseSchema } } },
    async (request, reply) => {
      const user = currentUser(request);
      const { password, passkey } = request.body;
      const proof = passkey ? { passkey } : { password: password ?? '' };
      const until = await reconfirming(reply, () => auth.reauthenticate(user.id, user.sessionId, proof, meta(request)));
      return { message: passkey ? 'Passkey confirmed' : 'Password confirmed', authenticated_until: until.toISOString() };
    },
  );

  r.put(
    '/api/auth/changePassword',
    { onRequest: requireUser, schema: { body: changePasswordSchema, response: { 200: messageSchema } } },
    async (request, reply) => {
      const user = currentUser(request);
      await reconfirming(reply, () => auth.changePassword(user.id, user.sessionId, request.body, meta(request)));
      return { message: 'Password updated successfully' };
    },
  );

  r.put(
    '/api/auth/change-email',
    { onRequest: requireUser, schema: { body: changeEmailSchema, response: { 200: messageSchema } } },
    async (request, reply) => {
      const user = currentUser(request);
      await reconfirming(reply, () => auth.changeEmail(user.id, user.sessionId, request.body, meta(request)));
      return { message: 'Email updated successfully' };
    },
  );

  r.delete(
    '/api/auth/deleteAccount',
    { onRequest: requireUser, schema: { body: deleteAccountSchema, response: { 200: messageSchema } } },
    async (request, reply) => {
      const user = currentUser(request);
      await reconfirming(reply, () => auth.deleteAccount(user.id, user.sessionId, request.body.password, meta(request)));
      cookies.clear(reply);
      return { message: 'Account deleted successfully' };
    },
  );
}
