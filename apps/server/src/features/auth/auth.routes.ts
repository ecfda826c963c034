import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  changeEmailSchema,
  changePasswordSchema,
  checkAuthResponseSchema,
  deleteAccountSchema,
  loginResponseSchema,
  loginSchema,
  reauthResponseSchema,
  reauthSchema,
  signupSchema,
} from '@kinchart/shared/auth';
import { messageSchema } from '@kinchart/shared/common';
import type { SessionCookies } from '../../plugins/session';
import { currentUser } from '../../plugins/session';
import type { SessionRepository } from '../../common/session.repository';
import { SessionEndedError } from './auth.service';
import type { AuthService, RequestMeta } from './auth.service';

const meta = (request: FastifyRequest): RequestMeta => ({ ip: request.ip, userAgent: request.headers['user-agent'] ?? null });

// SPEC §7 Authentication — exact paths and `message` fields.
export async function authRoutes(
  app: FastifyInstance,
  opts: { auth: AuthService; sessions: SessionRepository; cookies: SessionCookies; requireUser: (r: FastifyRequest) => Promise<void> },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth, cookies, requireUser } = opts;

  /** Too many wrong re-confirmations end the session (DESIGN §5): the browser's cookie goes with it. */
  async function reconfirming<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof SessionEndedError) cookies.clear(reply);
      throw error;
    }
  }

  r.post(
    '/api/auth/signup',
    { schema: { body: signupSchema, response: { 201: messageSchema } } },
    async (request, reply) => {
      await auth.signup(request.body, meta(request));
      return reply.code(201).send({ message: 'Account created successfully!' });
    },
  );

  r.post(
    '/api/auth/login',
    { schema: { body: loginSchema, response: { 200: loginResponseSchema } } },
    async (request, reply) => {
      const { token, user } = await auth.login(request.body, meta(request));
      cookies.set(reply, token);
      return { message: 'Login successful.', user };
    },
  );

  r.get(
    '/api/auth/check-auth',
    { onRequest: requireUser, schema: { response: { 200: checkAuthResponseSchema } } },
    async (request) => {
      const { id, username, email } = currentUser(request);
      return { authenticated: true as const, user: { id, username, email } };
    },
  );

  r.post('/api/auth/logout', { schema: { response: { 200: messageSchema } } }, async (request, reply) => {
    // Logging out is idempotent: an absent or expired session still ends with a cleared cookie.
    const token = cookies.read(request);
    const user = token ? await opts.sessions.findUser(token) : null;
    if (user) await auth.logout(user.id, user.sessionId, meta(request));
    cookies.clear(reply);
    return { message: 'Logged out successfully' };
  });

  // DESIGN §5: the password again before exporting everything or creating a share (common/recent-auth.ts).
  r.post(
    '/api/auth/reauth',
    { onRequest: requireUser, schema: { body: reauthSchema, response: { 200: reauthResponseSchema } } },
    async (request, reply) => {
      const user = currentUser(request);
      const until = await reconfirming(reply, () => auth.reauthenticate(user.id, user.sessionId, request.body.password, meta(request)));
      return { message: 'Password confirmed', authenticated_until: until.toISOString() };
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
