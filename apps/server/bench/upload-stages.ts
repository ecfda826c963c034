// The upload path taken apart, for `npm run bench:stages` (bench/stages.mjs; docs/decisions/0008).
//
// The production app, configured from the environment as src/server.ts does, plus one route per
// stage under /bench/stages/. Each stage adds one step of the upload path to the stage before it,
// using the product's own modules (the multipart plugin as the files routes register it,
// encryptStream, the temporary spool); what a stage costs is the drop in MB/s from the one before.
// The stages run inside the whole app, not a bare server, because the garbage collector's pace
// depends on the heap around them: a small heap collects far more often under the same uploads.
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createDatabase, migrateToLatest } from '../src/db/database';
import { sqliteFileOf } from '../src/ops/ops-common';
import { registerMultipart } from '../src/plugins/multipart';
import { encryptStream } from '../src/storage/envelope';
import { createTempSpool } from '../src/storage/temp-spool';

const aad = Buffer.from('bench:stages', 'utf8');
const encrypt = (source: AsyncIterable<Buffer>) => encryptStream(source, randomBytes(32), aad);

async function drop(source: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of source) {
    // Read and let go.
  }
}

/**
 * The bytes to store: the multipart file part, or (multipart = false) the whole request body as it
 * arrives, which is the most any multipart parser could hand on.
 */
async function* fileOf(request: FastifyRequest, multipart: boolean): AsyncGenerator<Buffer> {
  if (!multipart) {
    yield* request.raw as AsyncIterable<Buffer>;
    return;
  }
  for await (const part of request.parts()) {
    if (part.type === 'file') yield* part.file as AsyncIterable<Buffer>;
  }
}

async function stageRoutes(scope: FastifyInstance, options: { spoolDir: string }): Promise<void> {
  await registerMultipart(scope, { maxUploadBytes: 1024 * 1024 * 1024 });
  const spool = createTempSpool(options.spoolDir);
  const store = async (source: AsyncIterable<Buffer>) => spool.discard(await spool.write(encrypt(source)));
  // Every stage is sent the same multipart body; the plugin leaves it unread until parts() is called.
  const stages: Record<string, (request: FastifyRequest) => Promise<void>> = {
    receive: (request) => drop(fileOf(request, false)),
    encrypt: (request) => drop(encrypt(fileOf(request, false))),
    spool: (request) => store(fileOf(request, false)),
    parse: (request) => drop(fileOf(request, true)),
    'parse-spool': (request) => store(fileOf(request, true)),
  };
  for (const [stage, run] of Object.entries(stages)) {
    scope.post(`/bench/stages/${stage}`, async (request, reply) => {
      await run(request);
      return reply.code(201).send();
    });
  }
}

const config = loadConfig();
const database = createDatabase({ databaseUrl: config.databaseUrl, sqliteFile: sqliteFileOf(config) });
await migrateToLatest(database.db);
const app = await buildApp({ config, database });
await app.register(stageRoutes, { spoolDir: path.join(config.dataDir, 'bench-stages') });
await app.listen({ port: config.port, host: config.host });
process.once('SIGTERM', () => {
  void app
    .close()
    .then(() => database.db.destroy())
    .then(() => process.exit(0));
});
