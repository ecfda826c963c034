import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageSchema } from '@kinchart/shared/common';
import { fileTextSchema } from '@kinchart/shared/search';
import { actorOf, needOf } from '../../common/request-actor';
import type { TextService } from './text.service';

// Issue 33: a file's text, page by page, for anyone who may read the file (as its /content).
export async function textRoutes(app: FastifyInstance, opts: { text: TextService; requireUser: (r: FastifyRequest) => Promise<void> }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/user/files/:id/text',
    {
      onRequest: opts.requireUser,
      schema: { params: z.object({ id: z.string().min(1).max(64) }), response: { 200: fileTextSchema, 404: messageSchema } },
    },
    async (request) => opts.text.text(actorOf(request), needOf(request, 'viewer').what, request.params.id),
  );
}
