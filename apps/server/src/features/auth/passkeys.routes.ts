import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  loginResponseSchema,
  passkeyLoginSchema,
  passkeyRegisterSchema,
  passkeyRenameSchema,
  passkeySummarySchema,
  recoveryCodesResponseSchema,
  webauthnOptionsSchema,
} from '@kinchart/shared/auth';
import { messageSchema } from '@kinchart/shared/common';
import type { SessionCookies } from '../../plugins/session';
import { currentUser } from '../../plugins/session';
import { requireRecentAuth } from '../../common/recent-auth';
import type { AuthService, RequestMeta } from './auth.service';
import { PendingLoginEndedError } from './auth.service';
import type { MfaService } from './mfa.service';
import type { SignedIn } from './sign-in';
import type { PasskeyService } from './passkeys.service';

const meta = (request: FastifyRequest): RequestMeta => ({ ip: request.ip, userAgent: request.headers['user-agent'] ?? null });
const passkeyParams = z.object({ id: z.string().max(64) });
const passkeyAddedSchema = z.object({
  message: z.string(),
  passkey: passkeySummarySchema,
  /** Only when this passkey is the account's first second factor: shown once. */
  recovery_codes: recoveryCodesResponseSchema.shape.recovery_codes.optional(),
});

// Passkeys (DESIGN §5, docs/decisions/0027-passkeys.md). Every ceremony has two requests: the
// options (a fresh challenge, kept server-side for its purpose and its asker) and the answer.
export async function passkeyRoutes(
  app: FastifyInstance,
  opts: {
    passkeys: PasskeyService;
    mfa: MfaService;
    auth: AuthService;
    pendingCookies: SessionCookies;
    signedIn: SignedIn;
    requireUser: (r: FastifyRequest) => Promise<void>;
  },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { passkeys, mfa, auth, pendingCookies, requireUser, signedIn } = opts;
  const optionsSchema = { response: { 200: webauthnOptionsSchema } };

  // Managing the account's passkeys: adding and removing one changes its factors, so it needs a
  // recent password or passkey (ASVS 7.5.1, decision 0024); renaming does not.
  r.post('/api/auth/mfa/passkeys/options', { onRequest: [requireUser, requireRecentAuth], schema: optionsSchema }, async (request) => {
    const user = currentUser(request);
    return passkeys.registrationOptions(user, user.sessionId);
  });

  r.post(
    '/api/auth/mfa/passkeys',
    { onRequest: [requireUser, requireRecentAuth], schema: { body: passkeyRegisterSchema, response: { 201: passkeyAddedSchema } } },
    async (request, reply) => {
      const user = currentUser(request);
      const passkey = await passkeys.register(user.id, user.sessionId, request.body.name, request.body.response);
      const codes = await mfa.passkeyAdded(user.id, passkey.id, meta(request));
      return reply.code(201).send({ message: 'Passkey added', passkey, ...(codes ? { recovery_codes: codes } : {}) });
    },
  );

  r.put(
    '/api/auth/mfa/passkeys/:id',
    {
      onRequest: requireUser,
      schema: { params: passkeyParams, body: passkeyRenameSchema, response: { 200: messageSchema, 404: messageSchema } },
    },
    async (request) => {
      await passkeys.rename(currentUser(request).id, request.params.id, request.body.name);
      return { message: 'Passkey renamed' };
    },
  );

  r.delete(
    '/api/auth/mfa/passkeys/:id',
    {
      onRequest: [requireUser, requireRecentAuth],
      schema: { params: passkeyParams, response: { 200: messageSchema, 404: messageSchema } },
    },
    async (request) => {
      const user = currentUser(request);
      await passkeys.remove(user.id, request.params.id);
      await mfa.passkeyRemoved(user.id, request.params.id, meta(request));
      return { message: 'Passkey removed' };
    },
  );

  // Signing in with a passkey alone (a discoverable credential: the browser offers the site's passkeys).
  r.post('/api/auth/login/passkey/options', { schema: optionsSchema }, async () => passkeys.assertionOptions('login', {}));

  r.post(
    '/api/auth/login/passkey',
    { schema: { body: passkeyLoginSchema, response: { 200: loginResponseSchema } } },
    async (request, reply) => {
      return signedIn(request, reply, await auth.loginWithPasskey(request.body.response, meta(request)));
    },
  );

  // The second step of a login, with one of that account's passkeys (answered at POST /api/auth/login/mfa).
  r.post('/api/auth/login/mfa/options', { schema: optionsSchema }, async (request, reply) => {
    try {
      const { userId, pendingLoginId } = await auth.pendingLoginUser(pendingCookies.read(request) ?? '');
      return await passkeys.assertionOptions('second_factor', { userId, pendingLoginId });
    } catch (error) {
      if (error instanceof PendingLoginEndedError) pendingCookies.clear(reply);
      throw error;
    }
  });

  // Re-authentication with a passkey (answered at POST /api/auth/reauth).
  r.post('/api/auth/reauth/options', { onRequest: requireUser, schema: optionsSchema }, async (request) => {
    const user = currentUser(request);
    return passkeys.assertionOptions('reauth', { userId: user.id, sessionId: user.sessionId });
  });
}
