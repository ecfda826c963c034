import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageSchema } from '@kinchart/shared/common';
import {
  pushActionInputSchema,
  pushSubscriptionInputSchema,
  pushSubscriptionsSchema,
  reminderSettingsInputSchema,
  reminderSettingsSchema,
} from '@kinchart/shared/care';
import { actorOf, needOf } from '../../common/request-actor';
import { currentUser } from '../../plugins/session';
import type { ReminderSettingsService } from './reminder-settings.service';
import type { PushSubscriptionService } from './push-subscriptions.service';
import type { PushActionService } from './push-actions.service';

const pathId = z.string().max(64, 'must be at most 64 characters');
const errors = { 400: messageSchema, 403: messageSchema, 404: messageSchema };

/**
 * Issue 32: GET/PUT /api/user/people/{personId}/reminder-settings (the reader's own choice: a
 * viewer and up), and the user's Web Push subscriptions.
 */
export async function reminderRoutes(
  app: FastifyInstance,
  opts: { settings: ReminderSettingsService; subscriptions: PushSubscriptionService; requireUser: (r: FastifyRequest) => Promise<void> },
) {
  app.addHook('onRequest', opts.requireUser);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const personParams = z.object({ personId: pathId });

  r.get(
    '/api/user/people/:personId/reminder-settings',
    { schema: { params: personParams, response: { 200: reminderSettingsSchema, ...errors } } },
    async (request) => opts.settings.read(actorOf(request), request.params.personId, needOf(request, 'viewer')),
  );
  r.put(
    '/api/user/people/:personId/reminder-settings',
    { schema: { params: personParams, body: reminderSettingsInputSchema, response: { 200: reminderSettingsSchema, ...errors } } },
    async (request) => opts.settings.save(actorOf(request), request.params.personId, request.body, needOf(request, 'viewer')),
  );

  r.post(
    '/api/user/push-subscriptions',
    { schema: { body: pushSubscriptionInputSchema, response: { 201: z.object({ id: z.string() }), 400: messageSchema } } },
    async (request, reply) => {
      const user = currentUser(request);
      const from = { userId: user.id, sessionId: user.sessionId, userAgent: request.headers['user-agent'] ?? null };
      return reply.code(201).send(await opts.subscriptions.subscribe(from, request.body));
    },
  );
  r.get('/api/user/push-subscriptions', { schema: { response: { 200: pushSubscriptionsSchema } } }, async (request) => {
    const user = currentUser(request);
    return opts.subscriptions.list(user.id, user.sessionId);
  });
  r.delete(
    '/api/user/push-subscriptions/:id',
    { schema: { params: z.object({ id: pathId }), response: { 200: messageSchema, 404: messageSchema } } },
    async (request) => {
      await opts.subscriptions.remove(currentUser(request).id, request.params.id);
      return { message: 'Push subscription removed' };
    },
  );
  // Settings → "Send a test notification": proves, at once, that reminders reach this device.
  r.post(
    '/api/user/push-subscriptions/:id/test',
    { schema: { params: z.object({ id: pathId }), response: { 200: messageSchema, 404: messageSchema, 502: messageSchema } } },
    async (request) => {
      await opts.subscriptions.test(currentUser(request).id, request.params.id);
      return { message: 'Test notification sent' };
    },
  );
}

/**
 * Public: a push notification's Taken / Snooze 10 min buttons (the service worker, no session).
 * The single-use token the payload carried is the credential: tied to one dose and one user, 12 hours.
 */
export async function pushActionRoutes(app: FastifyInstance, opts: { actions: PushActionService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/push-actions',
    { schema: { body: pushActionInputSchema, response: { 200: messageSchema, 400: messageSchema, 404: messageSchema } } },
    async (request) => opts.actions.act(request.body.token, request.body.action),
  );
}
