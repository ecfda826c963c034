import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ALLERGY_MESSAGES, allergyInputSchema, allergyListSchema, allergyWithMessageSchema } from '@kinchart/shared/allergies';
import { messageSchema } from '@kinchart/shared/common';
import { actorOf, needOf } from '../../common/request-actor';
import type { AllergiesService } from './allergies.service';

/** Path ids are opaque: any short string; one that names nothing the user can see is a 404. */
const pathId = z.string().max(64, 'must be at most 64 characters');
const personParams = z.object({ personId: pathId });
const itemParams = personParams.extend({ id: pathId });
const errors = { 400: messageSchema, 403: messageSchema, 404: messageSchema };

/**
 * Issue 34: GET/POST /api/user/people/{personId}/allergies, PUT/DELETE …/allergies/{id}, under the
 * people access rules (DESIGN §11).
 */
export async function allergyRoutes(
  app: FastifyInstance,
  opts: { allergies: AllergiesService; requireUser: (r: FastifyRequest) => Promise<void> },
) {
  const { allergies } = opts;
  app.addHook('onRequest', opts.requireUser);
  const r = app.withTypeProvider<ZodTypeProvider>();
  /** The route's name for the owner's access history (the service knows which role it needs). */
  const route = (request: FastifyRequest) => needOf(request, 'viewer').what;
  const base = '/api/user/people/:personId/allergies';

  r.get(base, { schema: { params: personParams, response: { 200: allergyListSchema, ...errors } } }, async (request) =>
    allergies.list(actorOf(request), route(request), request.params.personId),
  );

  r.post(
    base,
    { schema: { params: personParams, body: allergyInputSchema, response: { 201: allergyWithMessageSchema, ...errors } } },
    async (request, reply) => {
      const created = await allergies.create(actorOf(request), route(request), request.params.personId, request.body);
      return reply.code(201).send({ ...created, message: ALLERGY_MESSAGES.added });
    },
  );

  r.put(
    `${base}/:id`,
    { schema: { params: itemParams, body: allergyInputSchema, response: { 200: allergyWithMessageSchema, ...errors } } },
    async (request) => {
      const { personId, id } = request.params;
      return {
        ...(await allergies.update(actorOf(request), route(request), personId, id, request.body)),
        message: ALLERGY_MESSAGES.updated,
      };
    },
  );

  r.delete(`${base}/:id`, { schema: { params: itemParams, response: { 200: messageSchema, ...errors } } }, async (request) => {
    await allergies.remove(actorOf(request), route(request), request.params.personId, request.params.id);
    return { message: ALLERGY_MESSAGES.deleted };
  });
}
