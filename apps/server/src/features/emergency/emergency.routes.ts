import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  emergencyCardsSchema,
  emergencyQuerySchema,
  emergencyResponseSchema,
  PIN_STATUS_HEADER,
  pinBodySchema,
  qrConfigSchema,
  qrConfigWithMessageSchema,
  qrSettingsBodySchema,
  qrSetupBodySchema,
  toggleBodySchema,
} from '@kinchart/shared/emergency';
import { messageSchema } from '@kinchart/shared/common';
import { currentUser } from '../../plugins/session';
import type { PersonAccessService } from '../../common/person-access';
import { actorOf, routePerson } from '../../common/request-actor';
import { notFound } from '../../lib/http-errors';
import type { EmergencyService } from './emergency.service';
import { NOT_FOUND_MESSAGE } from './emergency.service';

type Guard = (r: FastifyRequest) => Promise<void>;
const memberParams = z.object({ id: z.string().max(64) });
const shareParams = z.object({ shareId: z.string().max(128) });
/** share ids are 43 base64url characters; anything else cannot exist. */
export const SHARE_ID = /^[A-Za-z0-9_-]{43}$/;

/**
 * The owner's side: personal code and per-member codes, one service mounted twice (SPEC §7 QR). A
 * member's code is run by its owner or a manager of the person (DESIGN §11); a viewer or an editor
 * gets 403, anyone else the same 404 as for a missing id.
 */
export async function qrRoutes(
  app: FastifyInstance,
  opts: { emergency: EmergencyService; access: PersonAccessService; requireUser: Guard },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { emergency, access } = opts;
  app.addHook('onRequest', opts.requireUser);
  /** The person whose code a route names: the user's own (no id) or a member's, needing a manager. */
  const person = (request: FastifyRequest, memberId?: string) => routePerson(access, request, memberId, 'manager');

  // Personal code.
  r.get('/api/user/wearable-qr', { schema: { response: { 200: qrConfigSchema } } }, async (request) =>
    emergency.getConfig(await person(request)),
  );
  r.post(
    '/api/user/wearable-qr',
    { schema: { body: qrSetupBodySchema, response: { 201: qrConfigWithMessageSchema } } },
    async (request, reply) => {
      const config = await emergency.setup(await person(request), actorOf(request), request.body.pin, request.body.essentials_without_pin);
      return reply.code(201).send({ ...config, message: 'QR code set up successfully' });
    },
  );
  r.put('/api/user/wearable-qr/toggle', { schema: { body: toggleBodySchema, response: { 200: qrConfigSchema } } }, async (request) =>
    emergency.toggle(await person(request), actorOf(request), request.body.is_active),
  );
  r.put(
    '/api/user/wearable-qr/update-pin',
    { schema: { body: pinBodySchema, response: { 200: qrConfigWithMessageSchema } } },
    async (request) => {
      const config = await emergency.changePin(await person(request), actorOf(request), request.body.pin);
      return { ...config, message: 'PIN updated successfully' };
    },
  );

  // DESIGN §7: essentials without the PIN, and the owner's one action on a locked or disabled PIN.
  r.put('/api/user/wearable-qr/settings', { schema: { body: qrSettingsBodySchema, response: { 200: qrConfigSchema } } }, async (request) =>
    emergency.setEssentialsWithoutPin(await person(request), actorOf(request), request.body.essentials_without_pin),
  );
  r.put('/api/user/wearable-qr/unlock', { schema: { response: { 200: qrConfigSchema } } }, async (request) =>
    emergency.unlockPin(await person(request), actorOf(request)),
  );

  // DESIGN §7: every person's emergency card in one answer, for the owner's own device (PWA).
  r.get('/api/user/emergency-cards', { schema: { response: { 200: emergencyCardsSchema } } }, async (request) => ({
    cards: await emergency.cardsForOwner(currentUser(request).id),
  }));

  // A member's code (a family member, or a person shared with the user).
  r.get('/api/user/family/members/:id/qr', { schema: { params: memberParams, response: { 200: qrConfigSchema } } }, async (request) =>
    emergency.getConfig(await person(request, request.params.id)),
  );
  r.post(
    '/api/user/family/members/:id/qr',
    { schema: { params: memberParams, body: qrSetupBodySchema, response: { 201: qrConfigWithMessageSchema } } },
    async (request, reply) => {
      const config = await emergency.setup(
        await person(request, request.params.id),
        actorOf(request),
        request.body.pin,
        request.body.essentials_without_pin,
      );
      return reply.code(201).send({ ...config, message: 'QR code set up successfully' });
    },
  );
  r.put(
    '/api/user/family/members/:id/qr/toggle',
    { schema: { params: memberParams, body: toggleBodySchema, response: { 200: qrConfigSchema } } },
    async (request) => emergency.toggle(await person(request, request.params.id), actorOf(request), request.body.is_active),
  );
  r.put(
    '/api/user/family/members/:id/qr/pin',
    { schema: { params: memberParams, body: pinBodySchema, response: { 200: qrConfigWithMessageSchema } } },
    async (request) => {
      const config = await emergency.changePin(await person(request, request.params.id), actorOf(request), request.body.pin);
      return { ...config, message: 'PIN updated successfully' };
    },
  );
  r.put(
    '/api/user/family/members/:id/qr/settings',
    { schema: { params: memberParams, body: qrSettingsBodySchema, response: { 200: qrConfigSchema } } },
    async (request) =>
      emergency.setEssentialsWithoutPin(await person(request, request.params.id), actorOf(request), request.body.essentials_without_pin),
  );
  r.put(
    '/api/user/family/members/:id/qr/unlock',
    { schema: { params: memberParams, response: { 200: qrConfigSchema } } },
    async (request) => emergency.unlockPin(await person(request, request.params.id), actorOf(request)),
  );
}

/** The public side (SPEC §7 Emergency): no session; each route answers only its own kind of code. */
export async function emergencyPublicRoutes(app: FastifyInstance, opts: { emergency: EmergencyService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const schema = {
    params: shareParams,
    querystring: emergencyQuerySchema,
    response: { 200: emergencyResponseSchema, 404: messageSchema, 423: messageSchema },
  };
  for (const [path, kind] of [
    ['/api/user/emergency/:shareId', 'self'],
    ['/api/user/family/emergency/:shareId', 'family'],
  ] as const) {
    r.get(path, { schema }, async (request, reply) => {
      void reply.header('Cache-Control', 'no-store');
      if (!SHARE_ID.test(request.params.shareId)) throw notFound(NOT_FOUND_MESSAGE);
      const { body, pinStatus } = await opts.emergency.view(kind, request.params.shareId, request.query.pin, request.ip);
      // DESIGN §7: an opted-in answer says how the PIN stands, in a header so the body stays exact.
      if (pinStatus) void reply.header(PIN_STATUS_HEADER, pinStatus);
      return body;
    });
  }
}
