import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageSchema } from '@kinchart/shared/common';
import {
  acceptLabResultsAnswerSchema,
  acceptLabResultsInputSchema,
  fileLabResultsSchema,
  labTestsQuerySchema,
  labTestsSchema,
} from '@kinchart/shared/labs';
import { actorOf, needOf } from '../../common/request-actor';
import type { LabsService } from './labs.service';

const fileParams = z.object({ id: z.string().min(1).max(64) });
const errors = { 400: messageSchema, 403: messageSchema, 404: messageSchema };

/**
 * Issue 34 (docs/decisions/0052): the lab values a file's text holds (anyone who may read the file),
 * accepting them as lab results (an editor of the file's person), and the table of tests to map a row.
 */
export async function labsRoutes(app: FastifyInstance, opts: { labs: LabsService; requireUser: (r: FastifyRequest) => Promise<void> }) {
  const { labs } = opts;
  app.addHook('onRequest', opts.requireUser);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const route = (request: FastifyRequest) => needOf(request, 'viewer').what;

  r.get(
    '/api/user/files/:id/lab-results',
    { schema: { params: fileParams, response: { 200: fileLabResultsSchema, 404: messageSchema } } },
    async (request) => labs.found(actorOf(request), route(request), request.params.id),
  );

  r.post(
    '/api/user/files/:id/lab-results/accept',
    { schema: { params: fileParams, body: acceptLabResultsInputSchema, response: { 201: acceptLabResultsAnswerSchema, ...errors } } },
    async (request, reply) => reply.code(201).send(await labs.accept(actorOf(request), route(request), request.params.id, request.body)),
  );

  r.get(
    '/api/user/lab-tests',
    { schema: { querystring: labTestsQuerySchema, response: { 200: labTestsSchema, 400: messageSchema } } },
    async (request) => labs.tests(request.query.q),
  );
}
