import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { messageSchema } from '@kinchart/shared/common';
import {
  createShareLinkSchema,
  medicalFileListSchema,
  medicalFileSchema,
  renameFileSchema,
  shareLinkSchema,
  sharedFilesResponseSchema,
  STORAGE_PATH,
  storageUsageSchema,
} from '@kinchart/shared/files';
import { personFilterSchema } from '@kinchart/shared/people';
import { registerMultipart } from '../../plugins/multipart';
import { currentUser } from '../../plugins/session';
import { actorOf, needOf } from '../../common/request-actor';
import { badRequest } from '../../lib/http-errors';
import type { MedicalFileRow } from './medical-file.repository';
import type { MedicalFileService } from './medical-file.service';
import type { FileShareService } from './file-share.service';
import { contentHeaders } from './content-disposition';

const idParams = z.object({ id: z.string().min(1).max(64) });
const notFoundResponses = { 404: messageSchema };

function sendContent(reply: FastifyReply, content: { file: MedicalFileRow; body: Readable }) {
  return reply.headers(contentHeaders({ ...content.file, size: Number(content.file.size) })).send(content.body);
}

/**
 * SPEC §7 Files, plus the content and share-link calls the spec leaves unshown (decision 0006).
 * Every file belongs to a person (DESIGN §4); the service asks the one access function about that
 * person: a viewer reads and downloads, an editor adds, renames and deletes (DESIGN §11).
 */
export async function fileRoutes(
  app: FastifyInstance,
  opts: { files: MedicalFileService; shares: FileShareService; requireUser: (r: FastifyRequest) => Promise<void>; maxUploadBytes: number },
) {
  await registerMultipart(app, { maxUploadBytes: opts.maxUploadBytes });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { files, shares, requireUser } = opts;

  const uploadParts = (request: FastifyRequest) => {
    if (!request.isMultipart()) throw badRequest('Send the file as multipart/form-data');
    return request.parts();
  };

  /** The route's name for the owner's access history (the service knows which role it needs). */
  const route = (request: FastifyRequest) => needOf(request, 'viewer').what;

  // SPEC §7: multipart file, customName, customDate, visitLocation, visitReason, providerName — and
  // DESIGN §11's personId (before or after the file; absent → the uploader's own profile).
  r.post('/api/user/files', { onRequest: requireUser, schema: { response: { 201: medicalFileSchema } } }, async (request, reply) => {
    const file = await files.upload(actorOf(request), route(request), uploadParts(request), 'record');
    return reply.code(201).send(file);
  });

  // SPEC §7: the navigation bar's quick upload — the file alone, named after itself (personId as above).
  r.post('/api/user/upload', { onRequest: requireUser, schema: { response: { 201: medicalFileSchema } } }, async (request, reply) => {
    const file = await files.upload(actorOf(request), route(request), uploadParts(request), 'file-only');
    return reply.code(201).send(file);
  });

  // Every visible person's files; `?person=` one person's (DESIGN §11).
  r.get(
    '/api/user/files',
    { onRequest: requireUser, schema: { querystring: personFilterSchema, response: { 200: medicalFileListSchema, ...notFoundResponses } } },
    async (request) => files.list(actorOf(request), route(request), request.query.person),
  );

  // Settings → Account Settings shows it: the account's stored bytes and STORAGE_QUOTA_MB (DESIGN §5).
  r.get(STORAGE_PATH, { onRequest: requireUser, schema: { response: { 200: storageUsageSchema } } }, async (request) =>
    files.storage(currentUser(request).id),
  );

  r.get(
    '/api/user/files/:id/content',
    { onRequest: requireUser, exposeHeadRoute: false, schema: { params: idParams, response: notFoundResponses } },
    async (request, reply) => sendContent(reply, await files.openContent(actorOf(request), route(request), request.params.id)),
  );

  r.put(
    '/api/user/files/:id',
    {
      onRequest: requireUser,
      schema: { params: idParams, body: renameFileSchema, response: { 200: medicalFileSchema, ...notFoundResponses } },
    },
    async (request) => files.rename(actorOf(request), route(request), request.params.id, request.body.newName),
  );

  r.post(
    '/api/user/files/share-links',
    { onRequest: requireUser, schema: { body: createShareLinkSchema, response: { 201: shareLinkSchema, ...notFoundResponses } } },
    async (request, reply) => {
      const link = await shares.create(actorOf(request), route(request), request.body.fileIds);
      return reply.code(201).send(link);
    },
  );

  r.delete(
    '/api/user/files/share-links/:id',
    { onRequest: requireUser, schema: { params: idParams, response: { 200: messageSchema, ...notFoundResponses } } },
    async (request) => {
      await shares.revoke(currentUser(request).id, request.params.id);
      return { message: 'Share link revoked' };
    },
  );

  // SPEC §7: DELETE /api/user/files/{fileName}, the name URL-encoded. A wildcard rather than a
  // parameter, so names longer than Fastify's 100-character parameter limit still reach us.
  r.delete(
    '/api/user/files/*',
    { onRequest: requireUser, schema: { params: z.object({ '*': z.string() }), response: { 200: messageSchema, ...notFoundResponses } } },
    async (request) => {
      const name = request.params['*'];
      if (!name || name.length > 1024) throw badRequest('Name the file to delete');
      await files.remove(actorOf(request), route(request), name);
      return { message: 'File deleted successfully' };
    },
  );
}

/** Public: what a share link opens, without a session (expired, revoked and unknown are one 404). */
export async function sharedFileRoutes(app: FastifyInstance, opts: { shares: FileShareService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tokenParams = z.object({ token: z.string() });

  r.get(
    '/api/shared/:token',
    { schema: { params: tokenParams, response: { 200: sharedFilesResponseSchema, ...notFoundResponses } } },
    async (request) => opts.shares.open(request.params.token, request.ip),
  );

  r.get(
    '/api/shared/:token/files/:fileId',
    { exposeHeadRoute: false, schema: { params: tokenParams.extend({ fileId: z.string().max(64) }), response: notFoundResponses } },
    async (request, reply) => sendContent(reply, await opts.shares.openFile(request.params.token, request.params.fileId, request.ip)),
  );
}
