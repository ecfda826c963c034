import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notificationSchema } from '@kinchart/shared/notifications';
import type { Db } from '../../db/database';
import { currentUser } from '../../plugins/session';
import { notFound } from '../../lib/http-errors';
import { createNotificationRepository } from './notification.repository';

const idParams = z.object({ id: z.string().max(64) });

// SPEC §7 Notifications: list, per-item toggle and hide, mark-all-read — all owner-scoped.
export async function notificationRoutes(app: FastifyInstance, opts: { db: Db; requireUser: (r: FastifyRequest) => Promise<void> }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const repo = createNotificationRepository(opts.db);
  app.addHook('onRequest', opts.requireUser);

  r.get('/api/user/notifications', { schema: { response: { 200: z.array(notificationSchema) } } }, async (request) =>
    repo.list(currentUser(request).id),
  );

  r.put(
    '/api/user/notifications/mark-all-read',
    { schema: { response: { 200: z.object({ message: z.string(), updated: z.number() }) } } },
    async (request) => {
      const updated = await repo.markAllRead(currentUser(request).id);
      return { message: 'All notifications marked as read', updated };
    },
  );

  r.put(
    '/api/user/notifications/:id/toggle',
    { schema: { params: idParams, response: { 200: notificationSchema } } },
    async (request) => {
      const userId = currentUser(request).id;
      const existing = await repo.find(userId, request.params.id);
      if (!existing || existing.is_hidden) throw notFound('Notification not found');
      await repo.setRead(userId, existing.notification_id, !existing.is_read);
      const updated = await repo.find(userId, existing.notification_id);
      if (!updated) throw notFound('Notification not found');
      return updated;
    },
  );

  r.put(
    '/api/user/notifications/:id/hide',
    { schema: { params: idParams, response: { 200: z.object({ message: z.string(), notification_id: z.string(), is_hidden: z.literal(true) }) } } },
    async (request) => {
      const userId = currentUser(request).id;
      const existing = await repo.find(userId, request.params.id);
      if (!existing) throw notFound('Notification not found');
      await repo.hide(userId, existing.notification_id);
      return { message: 'Notification hidden', notification_id: existing.notification_id, is_hidden: true as const };
    },
  );
}
