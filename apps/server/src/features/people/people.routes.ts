import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageSchema } from '@kinchart/shared/common';
import {
  accessHistorySchema,
  createShareSchema,
  invitationAcceptedSchema,
  invitationSchema,
  peopleSchema,
  personDetailSchema,
  shareCreatedSchema,
  shareSchema,
  sharesSchema,
  updateShareSchema,
} from '@kinchart/shared/people';
import type { Actor } from '../../common/person-access';
import { requireRecentAuth } from '../../common/recent-auth';
import { currentUser } from '../../plugins/session';
import type { PeopleService } from './people.service';

/** Path ids are opaque: any short string; one that names nothing the user can see is a 404. */
const pathId = z.string().max(64, 'must be at most 64 characters');
const personParams = z.object({ personId: pathId });
/** A token of any shape reaches the service, which answers every one that opens nothing with the same 404. */
const tokenParams = z.object({ token: z.string() });
const notFoundResponses = { 404: messageSchema };

const actorOf = (request: FastifyRequest): Actor => ({ userId: currentUser(request).id, ip: request.ip });

/** DESIGN §11: the people a user can see, one person's chart, its shares and its access history. */
export async function peopleRoutes(
  app: FastifyInstance,
  opts: { people: PeopleService; requireUser: (request: FastifyRequest) => Promise<void> },
) {
  const { people } = opts;
  app.addHook('onRequest', opts.requireUser);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/user/people', { schema: { response: { 200: peopleSchema } } }, async (request) => people.list(currentUser(request).id));

  r.get(
    '/api/user/people/:personId',
    { schema: { params: personParams, response: { 200: personDetailSchema, ...notFoundResponses } } },
    async (request) => people.get(actorOf(request), request.params.personId),
  );

  // DESIGN §5: giving someone access to a chart needs a recent password.
  r.post(
    '/api/user/people/:personId/shares',
    {
      onRequest: requireRecentAuth,
      schema: { params: personParams, body: createShareSchema, response: { 201: shareCreatedSchema, ...notFoundResponses } },
    },
    async (request, reply) => reply.code(201).send(await people.createShare(actorOf(request), request.params.personId, request.body)),
  );

  r.get(
    '/api/user/people/:personId/shares',
    { schema: { params: personParams, response: { 200: sharesSchema, ...notFoundResponses } } },
    async (request) => people.listShares(actorOf(request), request.params.personId),
  );

  r.delete(
    '/api/user/people/:personId/shares/:shareId',
    { schema: { params: personParams.extend({ shareId: pathId }), response: { 200: messageSchema, ...notFoundResponses } } },
    async (request) => {
      const { left } = await people.removeShare(actorOf(request), request.params.personId, request.params.shareId);
      return { message: left ? 'You no longer have access to this person' : 'Access revoked' };
    },
  );

  r.put(
    '/api/user/people/:personId/shares/:shareId',
    {
      schema: {
        params: personParams.extend({ shareId: pathId }),
        body: updateShareSchema,
        response: { 200: shareSchema, ...notFoundResponses },
      },
    },
    async (request) => people.changeRole(actorOf(request), request.params.personId, request.params.shareId, request.body),
  );

  r.get(
    '/api/user/people/:personId/access-history',
    { schema: { params: personParams, response: { 200: accessHistorySchema, ...notFoundResponses } } },
    async (request) => people.accessHistory(actorOf(request), request.params.personId),
  );

  r.post(
    '/api/user/invitations/:token/accept',
    { schema: { params: tokenParams, response: { 200: invitationAcceptedSchema, ...notFoundResponses } } },
    async (request) => people.acceptInvitation(actorOf(request), request.params.token),
  );
}

/** Public: what an invitation link offers, before the visitor signs in or signs up. */
export async function invitationPublicRoutes(app: FastifyInstance, opts: { people: PeopleService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/invitations/:token',
    { schema: { params: tokenParams, response: { 200: invitationSchema, ...notFoundResponses } } },
    async (request) => opts.people.previewInvitation(request.params.token),
  );
}
