import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { preferencesInputSchema, preferencesSchema } from '@kinchart/shared/care';
import { messageSchema } from '@kinchart/shared/common';
import { currentUser } from '../../plugins/session';
import type { PreferencesService } from './preferences.service';

// Issue 32: the account's time zone and reminder channels, the signed-in user's own.
export async function preferencesRoutes(
  app: FastifyInstance,
  opts: { preferences: PreferencesService; requireUser: (r: FastifyRequest) => Promise<void> },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { preferences } = opts;
  app.addHook('onRequest', opts.requireUser);

  r.get('/api/user/preferences', { schema: { response: { 200: preferencesSchema } } }, async (request) =>
    preferences.get(currentUser(request).id),
  );

  r.put(
    '/api/user/preferences',
    { schema: { body: preferencesInputSchema, response: { 200: preferencesSchema, 400: messageSchema } } },
    async (request) => preferences.update(currentUser(request).id, request.body),
  );
}
