import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { calendarFeedCreatedSchema, calendarFeedInputSchema, calendarFeedsSchema } from '@kinchart/shared/care';
import { messageSchema } from '@kinchart/shared/common';
import { actorOf } from '../../common/request-actor';
import { notFound } from '../../lib/http-errors';
import { currentUser } from '../../plugins/session';
import type { CalendarService } from './calendar.service';

const idParams = z.object({ id: z.string().max(64, 'must be at most 64 characters') });
const fileParams = z.object({ file: z.string().max(100) });

// Issue 32, docs/decisions/0045: the signed-in user's private calendar feeds.
export async function calendarFeedRoutes(
  app: FastifyInstance,
  opts: { calendar: CalendarService; requireUser: (r: FastifyRequest) => Promise<void> },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { calendar } = opts;
  app.addHook('onRequest', opts.requireUser);

  r.post(
    '/api/user/calendar-feeds',
    { schema: { body: calendarFeedInputSchema, response: { 201: calendarFeedCreatedSchema, 400: messageSchema, 404: messageSchema } } },
    async (request, reply) => reply.code(201).send(await calendar.create(actorOf(request), request.body)),
  );

  r.get('/api/user/calendar-feeds', { schema: { response: { 200: calendarFeedsSchema } } }, async (request) => ({
    feeds: await calendar.list(currentUser(request).id),
  }));

  // A new address for a feed (a restored one has none anyone knows; a leaked one is replaced): the old one answers 404 at once.
  r.post(
    '/api/user/calendar-feeds/:id/renew',
    { schema: { params: idParams, response: { 200: calendarFeedCreatedSchema, 400: messageSchema, 404: messageSchema } } },
    async (request) => calendar.renew(currentUser(request).id, request.params.id),
  );

  r.delete(
    '/api/user/calendar-feeds/:id',
    { schema: { params: idParams, response: { 200: messageSchema, 400: messageSchema, 404: messageSchema } } },
    async (request) => {
      await calendar.revoke(currentUser(request).id, request.params.id);
      return { message: 'Calendar feed revoked' };
    },
  );
}

// The feed's secret address answers without a session (a calendar app fetches it). The token is in
// the path, which the request log redacts (plugins/logging.ts).
export async function calendarPublicRoutes(app: FastifyInstance, opts: { calendar: CalendarService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // The 200 is iCalendar text (plugins/openapi.ts OTHER_ANSWERS); a refusal is JSON like every other.
  r.get('/api/calendar/:file', { schema: { params: fileParams, response: { 404: messageSchema } } }, async (request, reply) => {
    const { file } = request.params;
    const ics = file.endsWith('.ics')
      ? await opts.calendar.read(file.slice(0, -'.ics'.length), { ip: request.ip, what: `GET ${request.routeOptions.url ?? ''}` })
      : null;
    // Revoking is immediate: nothing may keep an answer (docs/decisions/0045).
    reply.header('Cache-Control', 'private, no-store');
    // DESIGN §5: a 4xx is { message }, here as for every other route.
    if (ics === null) throw notFound('Calendar feed not found');
    return sendCalendar(reply, ics);
  });
}

/** The feed's text: its 200 has no JSON schema to be held to (the 404 has). */
const sendCalendar = (reply: FastifyReply, ics: string) => reply.type('text/calendar; charset=utf-8').send(ics);
