import path from 'node:path';
import pino from 'pino';
import type { Config } from '../config';
import { createDatabase, migrateToLatest } from '../db/database';
import type { DatabaseHandle, Db } from '../db/database';
import { createPersonAccess } from '../common/person-access';
import { createMedicalFileService } from '../features/files/medical-file.service';
import { createStorage } from '../storage/create-storage';
import { createTextRepository } from '../features/text/text.repository';
import { rebuildSearchIndex } from '../features/search/search.repository';
import { nowIso } from '../lib/ids';
import { createTextJobs } from '../text-jobs';
import type { OpsLog } from './ops-common';

// Issue 33, docs/decisions/0047 and 0048: `npm run reindex` (the search index rebuilt, every file read again) and `npm run worker`
// (a process that only reads files' text, for sites that grow: on PostgreSQL any number of them
// and of server instances share the jobs, each job taken once).

function open(config: Config): DatabaseHandle {
  return createDatabase({ databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, 'kinchart.db') });
}

/** `npm run reindex` on the configured database: answers how many files were queued. */
export async function reindex(config: Config, { log }: { log: OpsLog }): Promise<number> {
  const database = open(config);
  try {
    await migrateToLatest(database.db);
    return await reindexDatabase(database.db, log);
  } finally {
    await database.db.destroy();
  }
}

/**
 * Makes the search index again from what the database holds now (docs/decisions/0048), then queues
 * every file to be read again; each file's entry follows its new reading as the runners finish it.
 */
export async function reindexDatabase(db: Db, log: OpsLog): Promise<number> {
  await rebuildSearchIndex(db);
  log.info('Search index rebuilt.');
  const queued = await createTextRepository(db).requeueAll(nowIso());
  log.info(`${queued} file(s) queued to be read again; running servers (and npm run worker) read them in the background.`);
  return queued;
}

/**
 * Reads files' text until SIGTERM or SIGINT, TEXT_WORKERS at a time (at least one); the jobs in
 * progress are then handed back for another worker. No HTTP.
 */
export async function runTextWorker(config: Config, { log }: { log: OpsLog }): Promise<void> {
  const database = open(config);
  await migrateToLatest(database.db);
  const storage = await createStorage(config);
  const logger = pino({ level: config.logLevel });
  const access = createPersonAccess(database.db);
  const files = createMedicalFileService({
    db: database.db,
    ...storage,
    maxUploadBytes: config.maxUploadBytes,
    maxUploadMb: config.maxUploadMb,
    quota: { bytes: config.storageQuotaBytes, mb: config.storageQuotaMb },
    log: logger,
    access,
  });
  const workers = Math.max(1, config.textWorkers);
  const text = createTextJobs({ db: database.db, access, readFile: (id) => files.readForText(id), log: logger, workers });
  log.info(`Reading files' text, ${workers} at a time. Stop with Ctrl-C (SIGINT) or SIGTERM.`);
  text.start();
  // The runner's poll timer does not hold a process open (the server's listening socket does): this does.
  const keepAlive = setInterval(() => {}, 60_000);
  const signal = await new Promise<string>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  clearInterval(keepAlive);
  log.info(`${signal}: handing back the files being read, then stopping.`);
  await text.stop();
  await storage.blobs.close();
  await database.db.destroy();
}
