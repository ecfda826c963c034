import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { SignupMode } from '@kinchart/shared/auth';
import { clientConfigSchema } from '@kinchart/shared/config';

/**
 * GET /api/config: the limits the web app states and checks before sending (DESIGN §6: an upload
 * over MAX_UPLOAD_MB is refused with 413) and SIGNUP_MODE, which the sign-up page needs before
 * anyone is signed in, and the single sign-on provider's name when there is one
 * (docs/decisions/0029). Public (docs/decisions/0025): it tells the server's settings, nothing of an
 * account, and the same to everyone. The VAPID public key is what a browser subscribes to Web Push with (issue 32).
 */
export async function clientConfigRoutes(
  app: FastifyInstance,
  opts: { maxUploadBytes: number; signupMode: SignupMode; passkeys: boolean; ssoName: string | null; vapidPublicKey: string },
) {
  const answer = clientConfigSchema.parse({
    max_upload_bytes: opts.maxUploadBytes,
    signup_mode: opts.signupMode,
    passkeys: opts.passkeys,
    sso: opts.ssoName === null ? null : { name: opts.ssoName },
    vapid_public_key: opts.vapidPublicKey,
  });
  app.withTypeProvider<ZodTypeProvider>().get('/api/config', { schema: { response: { 200: clientConfigSchema } } }, async () => answer);
}
