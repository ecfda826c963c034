import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EXPORT_PATH } from '@kinchart/shared/export';
import { requireRecentAuth } from '../../common/recent-auth';
import { currentUser } from '../../plugins/session';
import type { ExportService } from './export.service';

/**
 * GET /api/user/export: the top bar's Export button (SPEC §2; the call itself is decided in decision
 * 0004). Everything in the account leaves at once, so it needs a recent password (DESIGN §5).
 */
export async function exportRoutes(
  app: FastifyInstance,
  opts: { exports: ExportService; requireUser: (r: FastifyRequest) => Promise<void> },
) {
  // No 200 schema: the answer is a byte stream, not JSON. `?tz=`: the browser's IANA time zone, for
  // appointment times (decision 0023), checked like the calendar file's.
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    EXPORT_PATH,
    { onRequest: [opts.requireUser, requireRecentAuth], schema: { querystring: z.object({ tz: z.string().max(64).optional() }) } },
    async (request, reply) => {
      const zip = await opts.exports.export(currentUser(request).id, request.ip, request.query.tz);
      void reply.headers({
        'Content-Type': 'application/zip',
        'Content-Disposition': `attachment; filename="${zip.filename}"`,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      });
      if (zip.size >= 0) void reply.header('Content-Length', String(zip.size));
      return reply.send(zip.body);
    },
  );
}
