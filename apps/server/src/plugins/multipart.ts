import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';

/**
 * Streaming multipart for the upload routes only (registered inside the files plugin, so no other
 * route accepts multipart bodies and no other request pays for its hooks). Nothing is buffered:
 * the file part is handed over as a stream and the route reads the parts in order (DESIGN §6).
 */
export async function registerMultipart(app: FastifyInstance, options: { maxUploadBytes: number }): Promise<void> {
  await app.register(multipart, {
    limits: {
      // One byte over the limit, so the upload pipeline itself sees the excess and answers 413.
      fileSize: options.maxUploadBytes + 1,
      files: 1,
      fields: 10,
      fieldSize: 8 * 1024,
      parts: 12,
      headerPairs: 50,
    },
  });
}
