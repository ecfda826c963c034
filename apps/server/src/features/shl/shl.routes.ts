import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageSchema } from '@kinchart/shared/common';
import { emergencyQuerySchema, wrongPinSchema } from '@kinchart/shared/emergency';
import { shlLinkSchema, shlManifestRequestSchema, shlManifestSchema } from '@kinchart/shared/shl';
import type { PersonAccessService } from '../../common/person-access';
import { actorOf, routePerson } from '../../common/request-actor';
import { notFound } from '../../lib/http-errors';
import { NOT_FOUND_MESSAGE } from '../emergency/emergency.service';
import type { ShlService } from './shl.service';
import { SHL_LOCATION_PATH } from './shl.service';

/** Share ids, manifest ids and location tokens are 43 base64url characters; anything else cannot exist. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const publicErrors = { 400: messageSchema, 401: wrongPinSchema, 404: messageSchema, 429: messageSchema };

/**
 * The owner's SMART Health Link for an active code, personal and per member (the QR panels offer
 * it). POST makes it (201) or answers the one already made (200); GET only reads it (404 until made).
 * A member's link is the code's, so it is for the person's owner and managers (DESIGN §11).
 */
export async function shlOwnerRoutes(
  app: FastifyInstance,
  opts: { shl: ShlService; access: PersonAccessService; requireUser: (r: FastifyRequest) => Promise<void> },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', opts.requireUser);
  const responses = { 200: shlLinkSchema, 201: shlLinkSchema, 404: messageSchema };
  const memberParams = z.object({ id: z.string().max(64) });
  for (const create of [false, true]) {
    const method = create ? r.post.bind(r) : r.get.bind(r);
    method('/api/user/wearable-qr/shl', { schema: { response: responses } }, async (request, reply) => {
      const person = await routePerson(opts.access, request, undefined, 'manager');
      const { link, created } = await opts.shl.link(person, actorOf(request), { create });
      return reply.code(created ? 201 : 200).send(link);
    });
    method('/api/user/family/members/:id/qr/shl', { schema: { params: memberParams, response: responses } }, async (request, reply) => {
      const person = await routePerson(opts.access, request, request.params.id, 'manager');
      const { link, created } = await opts.shl.link(person, actorOf(request), { create });
      return reply.code(created ? 201 : 200).send(link);
    });
  }
}

/**
 * Public: the SHL manifest, its files' `location` URLs and the emergency page's FHIR download. The
 * manifest and the locations live outside /api/ on purpose: SHL receivers (clinicians' apps, other
 * servers, web viewers on other origins) call them without our Origin and without cookies, so the
 * CSRF origin check — which protects cookie-authenticated /api/ calls — does not apply, and CORS
 * lets any origin read them.
 */
export async function shlPublicRoutes(app: FastifyInstance, opts: { shl: ShlService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const cors = (reply: FastifyReply, methods = 'POST, OPTIONS') =>
    reply.headers({
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': methods,
      'Access-Control-Allow-Headers': 'Content-Type',
      'Access-Control-Max-Age': '600',
      'Cache-Control': 'no-store',
    });
  const manifestParams = z.object({ manifestId: z.string().max(128) });

  r.options('/shl/:manifestId', { schema: { params: manifestParams } }, async (_request, reply) => cors(reply).code(204).send());
  r.post(
    '/shl/:manifestId',
    {
      // Receivers on other origins POST here by design: the one exception to the CSRF check (DESIGN §5).
      config: { crossOriginWrites: true },
      schema: { params: manifestParams, body: shlManifestRequestSchema, response: { 200: shlManifestSchema, ...publicErrors } },
      // Errors (401 wrong passcode, 404, 429) must be readable cross-origin too.
      onRequest: async (_request, reply) => void cors(reply),
    },
    async (request) => {
      if (!TOKEN.test(request.params.manifestId)) throw notFound(NOT_FOUND_MESSAGE);
      return opts.shl.manifest(request.params.manifestId, request.body, request.ip);
    },
  );

  // STU1 .files.location: a GET answers the file's JWE as application/jose. No 200 schema: the body
  // is the compact JWE string itself (errors still answer { message }).
  const locationParams = z.object({ token: z.string().max(128) });
  r.options(`${SHL_LOCATION_PATH}:token`, { schema: { params: locationParams } }, async (_request, reply) =>
    cors(reply, 'GET, OPTIONS').code(204).send(),
  );
  r.get(
    `${SHL_LOCATION_PATH}:token`,
    {
      schema: { params: locationParams },
      onRequest: async (_request, reply) => void cors(reply, 'GET, OPTIONS'),
    },
    async (request, reply) => {
      if (!TOKEN.test(request.params.token)) throw notFound(NOT_FOUND_MESSAGE);
      const jwe = await opts.shl.locationFile(request.params.token);
      return reply.header('Content-Type', 'application/jose').send(jwe);
    },
  );

  const shareParams = z.object({ shareId: z.string().max(128) });
  for (const [path, kind] of [
    ['/api/user/emergency/:shareId/fhir', 'self'],
    ['/api/user/family/emergency/:shareId/fhir', 'family'],
  ] as const) {
    // No response schema: the 200 is the Bundle as a FHIR JSON download (errors still answer { message }).
    r.get(path, { schema: { params: shareParams, querystring: emergencyQuerySchema } }, async (request, reply) => {
      if (!TOKEN.test(request.params.shareId)) throw notFound(NOT_FOUND_MESSAGE);
      const bundle = await opts.shl.emergencyFhir(kind, request.params.shareId, request.query.pin, request.ip);
      return reply
        .headers({
          'Content-Type': 'application/fhir+json; charset=utf-8',
          'Content-Disposition': 'attachment; filename="emergency-summary.fhir.json"',
          'Cache-Control': 'no-store',
        })
        .send(JSON.stringify(bundle));
    });
  }
}
