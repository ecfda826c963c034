import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CLINICAL_LABELS } from '@kinchart/shared/clinical';
import { messageSchema } from '@kinchart/shared/common';
import { actorOf, needOf } from '../../common/request-actor';
import { KINDS } from './clinical-kinds';
import type { ClinicalService } from './clinical.service';

/** Path ids are opaque: any short string; one that names nothing the user can see is a 404. */
const pathId = z.string().max(64, 'must be at most 64 characters');
const personParams = z.object({ personId: pathId });
const itemParams = personParams.extend({ id: pathId });
const errors = { 400: messageSchema, 403: messageSchema, 404: messageSchema };

/** A PDF to save, never cached, named after the person only (ASCII, see immunization-record.ts). */
function sendPdf(reply: FastifyReply, file: { body: Buffer; fileName: string }) {
  return reply
    .headers({
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${file.fileName}"`,
      'Cache-Control': 'private, no-store',
    })
    .send(file.body);
}

/**
 * DESIGN §12: GET/POST /api/user/people/{personId}/immunizations | lab-results | conditions |
 * procedures, with PUT/DELETE …/{id}, and GET …/immunizations.pdf (the vaccination record to
 * print), under the people access rules (DESIGN §11).
 */
export async function clinicalRoutes(
  app: FastifyInstance,
  opts: { clinical: ClinicalService; requireUser: (r: FastifyRequest) => Promise<void> },
) {
  const { clinical } = opts;
  app.addHook('onRequest', opts.requireUser);
  const r = app.withTypeProvider<ZodTypeProvider>();
  /** The route's name for the owner's access history (the service knows which role it needs). */
  const route = (request: FastifyRequest) => needOf(request, 'viewer').what;

  // The vaccination record to print (DESIGN §12): a file to save, never cached.
  r.get(
    '/api/user/people/:personId/immunizations.pdf',
    { exposeHeadRoute: false, schema: { params: personParams, response: { 400: messageSchema, 404: messageSchema } } },
    async (request, reply) => sendPdf(reply, await clinical.vaccinationRecord(actorOf(request), route(request), request.params.personId)),
  );

  for (const spec of KINDS) {
    const base = `/api/user/people/:personId/${spec.kind}`;
    const { one } = CLINICAL_LABELS[spec.kind];
    const withMessage = (spec.output as z.ZodObject).extend({ message: z.string() });

    r.get(base, { schema: { params: personParams, response: { 200: z.array(spec.output), ...errors } } }, async (request) =>
      clinical.list(spec, actorOf(request), route(request), request.params.personId),
    );

    r.post(
      base,
      { schema: { params: personParams, body: spec.input, response: { 201: withMessage, ...errors } } },
      async (request, reply) => {
        const created = await clinical.create(
          spec,
          actorOf(request),
          route(request),
          request.params.personId,
          request.body as { codings?: unknown },
        );
        return reply.code(201).send({ ...(created as object), message: `${one} added successfully!` });
      },
    );

    r.put(
      `${base}/:id`,
      { schema: { params: itemParams, body: spec.input, response: { 200: withMessage, ...errors } } },
      async (request) => {
        const { personId, id } = request.params;
        const updated = await clinical.update(spec, actorOf(request), route(request), personId, id, request.body as { codings?: unknown });
        return { ...(updated as object), message: `${one} updated successfully!` };
      },
    );

    r.delete(`${base}/:id`, { schema: { params: itemParams, response: { 200: messageSchema, ...errors } } }, async (request) => {
      await clinical.remove(spec, actorOf(request), route(request), request.params.personId, request.params.id);
      return { message: `${one} deleted successfully` };
    });
  }
}
