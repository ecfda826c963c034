import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { hideNotificationResponseSchema, markAllReadResponseSchema, notificationSchema } from '@kinchart/shared/notifications';
import { currentUser } from '../../plugins/session';
import type { NotificationBus } from '../../common/notification-bus';
import type { NotificationService } from './notification.service';

/** A comment line keeps proxies from closing a quiet stream (DESIGN §7). */
export const HEARTBEAT_MS = 25_000;

const idParams = z.object({ id: z.string().max(64) });

// SPEC §7 Notifications: list, per-item toggle and hide, mark-all-read — all owner-scoped.
export async function notificationRoutes(
  app: FastifyInstance,
  opts: {
    notifications: NotificationService;
    bus: NotificationBus;
    requireUser: (r: FastifyRequest) => Promise<void>;
    /** Whether the stream's session is still live (checked without sliding its idle window). */
    sessionLive: (sessionId: string) => Promise<boolean>;
  },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { notifications } = opts;
  app.addHook('onRequest', opts.requireUser);

  // DESIGN §7: server-sent events — each new notification, in the list's own shape, within 2 s.
  // Open streams end when the server starts closing, so graceful shutdown is not held up.
  const openStreams = new Set<() => void>();
  app.addHook('preClose', (done) => {
    for (const end of [...openStreams]) end();
    done();
  });
  app.get('/api/user/notifications/stream', async (request, reply) => {
    const { id: userId, sessionId } = currentUser(request);
    const out = new PassThrough();
    const write = (text: string) => {
      if (!out.writableEnded && !out.destroyed) out.write(text);
    };
    let queue = Promise.resolve();
    const unsubscribe = opts.bus.subscribe(userId, (id) => {
      // In order, one at a time: the row is loaded here, the bus carries only its id.
      queue = queue
        .then(async () => {
          // A session signed out or expired elsewhere hears nothing more: the stream ends.
          if (!(await opts.sessionLive(sessionId))) return end();
          const found = await notifications.visible(userId, id);
          if (found) write(`event: notification\ndata: ${JSON.stringify(notificationSchema.parse(found))}\n\n`);
        })
        .catch((error: unknown) => request.log.warn({ err: error }, 'notification stream could not load a notification'));
    });
    const heartbeat = setInterval(() => {
      opts
        .sessionLive(sessionId)
        .then((live) => (live ? write(': keep-alive\n\n') : end()))
        .catch(() => write(': keep-alive\n\n'));
    }, HEARTBEAT_MS);
    heartbeat.unref();
    const end = () => {
      if (!openStreams.delete(end)) return;
      clearInterval(heartbeat);
      unsubscribe();
      out.end();
    };
    openStreams.add(end);
    reply.raw.on('close', end);
    write('retry: 3000\n: connected\n\n');
    return reply
      .header('Content-Type', 'text/event-stream; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .header('X-Accel-Buffering', 'no')
      .send(out);
  });

  r.get('/api/user/notifications', { schema: { response: { 200: z.array(notificationSchema) } } }, async (request) =>
    notifications.list(currentUser(request).id),
  );

  r.put('/api/user/notifications/mark-all-read', { schema: { response: { 200: markAllReadResponseSchema } } }, async (request) => {
    const updated = await notifications.markAllRead(currentUser(request).id);
    return { message: 'All notifications marked as read', updated };
  });

  r.put('/api/user/notifications/:id/toggle', { schema: { params: idParams, response: { 200: notificationSchema } } }, async (request) =>
    notifications.toggle(currentUser(request).id, request.params.id),
  );

  r.put(
    '/api/user/notifications/:id/hide',
    { schema: { params: idParams, response: { 200: hideNotificationResponseSchema } } },
    async (request) => {
      const notificationId = await notifications.hide(currentUser(request).id, request.params.id);
      return { message: 'Notification hidden', notification_id: notificationId, is_hidden: true as const };
    },
  );
}
