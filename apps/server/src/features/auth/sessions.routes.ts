import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { endOtherSessionsResponseSchema, endSessionResponseSchema, sessionsSchema } from '@kinchart/shared/auth';
import { messageSchema } from '@kinchart/shared/common';
import type { SessionCookies } from '../../plugins/session';
import { currentUser } from '../../plugins/session';
import type { CurrentSession, SessionsService } from './sessions.service';

const currentSession = (request: FastifyRequest): CurrentSession => {
  const user = currentUser(request);
  return { userId: user.id, sessionId: user.sessionId, ip: request.ip };
};

/** Settings → Account Settings → Sessions (DESIGN §5, docs/decisions/0024). */
export async function sessionsRoutes(
  app: FastifyInstance,
  opts: { sessions: SessionsService; cookies: SessionCookies; requireUser: (r: FastifyRequest) => Promise<void> },
) {
  const { sessions, cookies } = opts;
  app.addHook('onRequest', opts.requireUser);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/auth/sessions', { schema: { response: { 200: sessionsSchema } } }, async (request) => sessions.list(currentSession(request)));

  r.delete(
    '/api/auth/sessions/:id',
    { schema: { params: z.object({ id: z.string().max(64) }), response: { 200: endSessionResponseSchema, 404: messageSchema } } },
    async (request, reply) => {
      const { current } = await sessions.end(currentSession(request), request.params.id);
      // Ending this very session is a logout: the browser's cookie goes too.
      if (current) cookies.clear(reply);
      return { message: current ? 'Logged out successfully' : 'Session ended', current };
    },
  );

  r.delete('/api/auth/sessions', { schema: { response: { 200: endOtherSessionsResponseSchema } } }, async (request) => {
    const ended = await sessions.endOthers(currentSession(request));
    return { message: ended === 1 ? 'Signed out of 1 other session' : `Signed out of ${ended} other sessions`, ended };
  });
}
