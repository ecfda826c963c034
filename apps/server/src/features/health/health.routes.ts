import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/database';
import { databaseAnswers } from './health.repository';

// DESIGN §1: healthy once the database answers. A load balancer probes it by address, so it answers
// whatever the Host header says (DESIGN §5); it tells nothing but "ok".
export async function healthRoutes(app: FastifyInstance, opts: { db: Db }) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/api/health', { config: { anyHost: true }, schema: { response: { 200: z.object({ status: z.literal('ok') }) } } }, async () => {
      await databaseAnswers(opts.db);
      return { status: 'ok' as const };
    });
}
