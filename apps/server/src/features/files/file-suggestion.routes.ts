import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageSchema } from '@kinchart/shared/common';
import { medicalFileSchema } from '@kinchart/shared/files';
import { applySuggestionInputSchema } from '@kinchart/shared/search';
import { actorOf, needOf } from '../../common/request-actor';
import type { FileSuggestionService } from './file-suggestion.service';

const idParams = z.object({ id: z.string().min(1).max(64) });

/**
 * Issue 33: the suggestion a file's text gives its record (docs/decisions/0049). Applying or
 * dismissing it is an editor's right on the file's person (DESIGN §11); 404 when there is none.
 */
export async function fileSuggestionRoutes(
  app: FastifyInstance,
  opts: { suggestions: FileSuggestionService; requireUser: (r: FastifyRequest) => Promise<void> },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { suggestions, requireUser } = opts;
  const route = (request: FastifyRequest) => needOf(request, 'editor').what;

  // `{}` takes every field the suggestion has.
  r.post(
    '/api/user/files/:id/suggestion/apply',
    {
      onRequest: requireUser,
      schema: { params: idParams, body: applySuggestionInputSchema, response: { 200: medicalFileSchema, 404: messageSchema } },
    },
    async (request) => suggestions.apply(actorOf(request), route(request), request.params.id, request.body),
  );

  r.delete(
    '/api/user/files/:id/suggestion',
    { onRequest: requireUser, schema: { params: idParams, response: { 204: z.null(), 404: messageSchema } } },
    async (request, reply) => {
      await suggestions.dismiss(actorOf(request), route(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
