import path from 'node:path';
import { ConfigError, loadConfig } from './config';
import { createDatabase, migrateToLatest } from './db/database';
import { buildApp } from './app';
import { createStorage } from './storage/create-storage';
import { scheduleOrphanSweep } from './features/files/file-orphans';

// Config, listen, graceful shutdown — nothing else (DESIGN §2).
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const database = createDatabase({ databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, 'kinchart.db') });
  await migrateToLatest(database.db);
  const storage = await createStorage(config);
  const app = await buildApp({ config, database, storage });

  let closing = false;
  let stopSweeps = () => {};
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // close() stops accepting connections and waits for in-flight requests to finish.
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    // Fastify closes idle keep-alive connections as it starts closing, but a connection whose
    // request is still running only goes idle after its answer — and a browser keeps it open, so
    // close() would wait for the keep-alive timeout. Reap connections as they go idle.
    setInterval(() => app.server.closeIdleConnections(), 100).unref();
    stopSweeps();
    app
      .close()
      .then(() => database.db.destroy())
      .then(() => process.exit(0))
      .catch(() => process.exit(1));
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  // Sweeps of blobs left without a record (and a count of records without a blob): at start-up, then hourly.
  stopSweeps = scheduleOrphanSweep({
    db: database.db,
    blobs: storage.blobs,
    log: app.log,
    onError: (error: unknown) => app.log.error({ err: error }, 'file store sweep failed'),
  });
}

main().catch((error: unknown) => {
  console.error('Kinchart failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
