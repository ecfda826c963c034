import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { clientConfigSchema } from '@kinchart/shared/files';

/**
 * GET /api/config: the limits the web app states and checks before sending (DESIGN §6: an upload
 * over MAX_UPLOAD_MB is refused with 413). Signed-in only: only signed-in screens upload.
 */
export async function clientConfigRoutes(app: FastifyInstance, opts: { maxUploadBytes: number; requireUser: (r: FastifyRequest) => Promise<void> }) {
  const answer = clientConfigSchema.parse({ max_upload_bytes: opts.maxUploadBytes });
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/config',
    { onRequest: opts.requireUser, schema: { response: { 200: clientConfigSchema } } },
    async () => answer,
  );
}
