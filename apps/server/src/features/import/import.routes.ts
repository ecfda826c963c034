import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { messageSchema } from '@kinchart/shared/common';
import { IMPORT_PATH, importResultSchema } from '@kinchart/shared/export';
import { registerMultipart } from '../../plugins/multipart';
import { actorOf, needOf } from '../../common/request-actor';
import { badRequest } from '../../lib/http-errors';
import type { ImportService } from './import.service';

/**
 * POST /api/user/import: multipart with `file` (a Kinchart export zip, a FHIR R4 Bundle or a C-CDA document, decision 0050) and,
 * for a FHIR Bundle or C-CDA, `profileId` ('self', a family member's id, or a person shared with the user as
 * editor or manager — DESIGN §11). The mobile menu's Import and
 * Settings' Import send it (SPEC §2 leaves the call unshown; decision 0004 decides it).
 */
export async function importRoutes(
  app: FastifyInstance,
  opts: { imports: ImportService; requireUser: (r: FastifyRequest) => Promise<void>; maxImportBytes: number },
) {
  await registerMultipart(app, { maxUploadBytes: opts.maxImportBytes });
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    IMPORT_PATH,
    {
      onRequest: opts.requireUser,
      schema: { response: { 200: importResultSchema, 400: messageSchema, 404: messageSchema, 413: messageSchema, 415: messageSchema } },
    },
    async (request) => {
      if (!request.isMultipart()) throw badRequest('Send the file as multipart/form-data');
      return opts.imports.import(actorOf(request), needOf(request, 'editor').what, request.parts());
    },
  );
}
