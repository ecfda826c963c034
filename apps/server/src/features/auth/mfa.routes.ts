import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { mfaStatusSchema, recoveryCodesResponseSchema, totpConfirmSchema, totpSetupResponseSchema } from '@kinchart/shared/auth';
import { messageSchema } from '@kinchart/shared/common';
import { currentUser } from '../../plugins/session';
import type { MfaService } from './mfa.service';
import { requireRecentAuth } from '../../common/recent-auth';

// The account's second factors (DESIGN §5, docs/decisions/0026). Every route is the signed-in
// user's own; re-authentication before changing factors (DESIGN §5) joins `requireUser` on the writes.
export async function mfaRoutes(app: FastifyInstance, opts: { mfa: MfaService; requireUser: (r: FastifyRequest) => Promise<void> }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { mfa, requireUser } = opts;
  const meta = (request: FastifyRequest) => ({ ip: request.ip });

  // Changing factors needs the password within the last 10 minutes (ASVS 7.5.1, decision 0024).
  r.get('/api/auth/mfa', { onRequest: requireUser, schema: { response: { 200: mfaStatusSchema } } }, async (request) =>
    mfa.status(currentUser(request).id),
  );

  r.post(
    '/api/auth/mfa/totp/setup',
    { onRequest: [requireUser, requireRecentAuth], schema: { response: { 200: totpSetupResponseSchema } } },
    async (request) => {
      const user = currentUser(request);
      return mfa.setupTotp(user.id, user.email);
    },
  );

  r.post(
    '/api/auth/mfa/totp/confirm',
    { onRequest: [requireUser, requireRecentAuth], schema: { body: totpConfirmSchema, response: { 200: recoveryCodesResponseSchema } } },
    async (request) => ({ recovery_codes: await mfa.confirmTotp(currentUser(request).id, request.body.code, meta(request)) }),
  );

  r.delete(
    '/api/auth/mfa/totp',
    { onRequest: [requireUser, requireRecentAuth], schema: { response: { 200: messageSchema } } },
    async (request) => {
      await mfa.disableTotp(currentUser(request).id, meta(request));
      return { message: 'Two-factor authentication is off' };
    },
  );

  r.post(
    '/api/auth/mfa/recovery-codes',
    { onRequest: [requireUser, requireRecentAuth], schema: { response: { 200: recoveryCodesResponseSchema } } },
    async (request) => ({
      recovery_codes: await mfa.replaceRecoveryCodes(currentUser(request).id, meta(request)),
    }),
  );
}
