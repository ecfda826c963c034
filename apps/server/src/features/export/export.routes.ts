import type { FastifyInstance, FastifyRequest } from 'fastify';
import { EXPORT_PATH } from '@kinchart/shared/export';
import { currentUser } from '../../plugins/session';
import type { ExportService } from './export.service';

/** GET /api/user/export: the top bar's Export button (SPEC §2; the call itself is decided in decision 0004). */
export async function exportRoutes(app: FastifyInstance, opts: { exports: ExportService; requireUser: (r: FastifyRequest) => Promise<void> }) {
  // No 200 schema: the answer is a byte stream, not JSON.
  app.get(EXPORT_PATH, { onRequest: opts.requireUser }, async (request, reply) => {
    const zip = await opts.exports.export(currentUser(request).id, request.ip);
    void reply.headers({
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="${zip.filename}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    if (zip.size >= 0) void reply.header('Content-Length', String(zip.size));
    return reply.send(zip.body);
  });
}
