import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adherenceQuerySchema,
  adherenceSchema,
  asNeededDoseInputSchema,
  doseLogInputSchema,
  doseSchema,
  dosesQuerySchema,
  dosesSchema,
  scheduleInputSchema,
  scheduleSchema,
} from '@kinchart/shared/care';
import { messageSchema } from '@kinchart/shared/common';
import { actorOf, needOf } from '../../common/request-actor';
import type { DoseService } from './dose.service';
import type { ScheduleService } from './schedule.service';

/** Path ids are opaque: any short string; one that names nothing the user can see is a 404. */
const pathId = z.string().max(64, 'must be at most 64 characters');
const personParams = z.object({ personId: pathId });
const scheduleParams = personParams.extend({ medicationId: pathId });
const doseParams = personParams.extend({ doseId: pathId });
const errors = { 400: messageSchema, 403: messageSchema, 404: messageSchema };

/**
 * Issue 32, DESIGN §13: a medication's schedule, the person's doses and their log, and adherence,
 * under the people access rules (DESIGN §11): a viewer reads, an editor writes, no access is 404.
 */
export async function careRoutes(
  app: FastifyInstance,
  opts: { schedules: ScheduleService; doses: DoseService; requireUser: (r: FastifyRequest) => Promise<void> },
) {
  const { schedules, doses } = opts;
  app.addHook('onRequest', opts.requireUser);
  const r = app.withTypeProvider<ZodTypeProvider>();
  /** The route's name for the owner's access history (the service knows which role it needs). */
  const route = (request: FastifyRequest) => needOf(request, 'viewer').what;

  const schedulePath = '/api/user/people/:personId/medications/:medicationId/schedule';
  r.get(schedulePath, { schema: { params: scheduleParams, response: { 200: scheduleSchema, ...errors } } }, async (request) =>
    schedules.get(actorOf(request), request.params.personId, request.params.medicationId, route(request)),
  );
  r.put(
    schedulePath,
    { schema: { params: scheduleParams, body: scheduleInputSchema, response: { 200: scheduleSchema, ...errors } } },
    async (request) => schedules.put(actorOf(request), request.params.personId, request.params.medicationId, request.body, route(request)),
  );
  r.delete(schedulePath, { schema: { params: scheduleParams, response: { 200: messageSchema, ...errors } } }, async (request) => {
    await schedules.remove(actorOf(request), request.params.personId, request.params.medicationId, route(request));
    return { message: 'Schedule removed' };
  });

  r.get(
    '/api/user/people/:personId/doses',
    { schema: { params: personParams, querystring: dosesQuerySchema, response: { 200: dosesSchema, ...errors } } },
    async (request) => ({ doses: await doses.list(actorOf(request), request.params.personId, request.query, route(request)) }),
  );
  r.post(
    '/api/user/people/:personId/doses',
    { schema: { params: personParams, body: asNeededDoseInputSchema, response: { 201: doseSchema, ...errors } } },
    async (request, reply) =>
      reply.code(201).send(await doses.logAsNeeded(actorOf(request), request.params.personId, request.body, route(request))),
  );
  r.put(
    '/api/user/people/:personId/doses/:doseId',
    { schema: { params: doseParams, body: doseLogInputSchema, response: { 200: doseSchema, ...errors } } },
    async (request) => doses.log(actorOf(request), request.params.personId, request.params.doseId, request.body, route(request)),
  );
  r.delete(
    '/api/user/people/:personId/doses/:doseId',
    { schema: { params: doseParams, response: { 200: messageSchema, ...errors } } },
    async (request) => {
      await doses.undo(actorOf(request), request.params.personId, request.params.doseId, route(request));
      return { message: 'Dose log removed' };
    },
  );

  r.get(
    '/api/user/people/:personId/adherence',
    { schema: { params: personParams, querystring: adherenceQuerySchema, response: { 200: adherenceSchema, ...errors } } },
    async (request) => doses.adherence(actorOf(request), request.params.personId, request.query.days, route(request)),
  );
}
