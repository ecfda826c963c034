import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SEARCH_PATH, searchQuerySchema, searchResponseSchema } from '@kinchart/shared/search';
import { actorOf, needOf } from '../../common/request-actor';
import type { SearchService } from './search.service';

// Issue 33: one search over everything the signed-in user may see (DESIGN §14).
export async function searchRoutes(
  app: FastifyInstance,
  opts: { search: SearchService; requireUser: (r: FastifyRequest) => Promise<void> },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', opts.requireUser);

  r.get(SEARCH_PATH, { schema: { querystring: searchQuerySchema, response: { 200: searchResponseSchema } } }, async (request) =>
    opts.search.search(actorOf(request), needOf(request, 'viewer').what, request.query),
  );
}
