import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import SQLite from 'better-sqlite3';
import type { Config } from '../config';
import { BlobNotFoundError } from '../storage/blob-store';
import { openBlobStore } from '../storage/create-storage';
import { fileAssociatedData, unwrapDataKey } from '../storage/envelope';
import { MASTER_KEY_FILE, readMasterKey } from '../storage/master-key';
import { syncDir } from '../storage/temp-spool';
import type { OpsLog } from './ops-common';
import { DB_FILE, OpsError, assertSqlite, sqliteFileOf } from './ops-common';
import type { FileRow } from './snapshot.repository';
import { deleteFileRows, fileRows, hasFileRow, integrityCheck } from './snapshot.repository';

// `npm run backup` (README "Deployment"): an online backup of a SQLite deployment, taken while the
// server runs. Layout of the backup directory:
//   kinchart.db    SQLite snapshot (one read transaction of the live database, via the backup API)
//   files/<key>    every blob a snapshot row points to, exactly as stored (still encrypted)
//   master.key     only with --include-key
//   manifest.json  written last: a backup without it is incomplete
// The data keys are wrapped inside the rows, so the snapshot carries them; without the master key
// they open nothing.

export const BACKUP_FORMAT = 'kinchart-backup';
export const BACKUP_VERSION = 1;
export const MANIFEST_FILE = 'manifest.json';
/** Blobs copied at once (see step 2). */
const COPIES_AT_ONCE = 16;

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  created_at: string;
  database: { dialect: 'sqlite'; file: string };
  files: { key: string; size: number; sha256: string }[];
  master_key_included: boolean;
}

/** Copies `source` to `target`, answering its size and SHA-256. */
export async function copyHashed(source: Readable, target: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  await pipeline(source, tap, fs.createWriteStream(target, { flags: 'wx', mode: 0o600, flush: true }));
  return { size, sha256: hash.digest('hex') };
}

export async function backup(config: Config, options: { out: string; includeKey: boolean; log: OpsLog }): Promise<BackupManifest> {
  assertSqlite(config, 'backup');
  const { log } = options;
  const liveFile = sqliteFileOf(config);
  if (!fs.existsSync(liveFile)) throw new OpsError(`No database at ${liveFile} (is DATA_DIR right?)`);
  const masterKey = readMasterKey(config);
  if (options.includeKey && !masterKey) throw new OpsError('--include-key: there is no MASTER_KEY and no DATA_DIR/master.key');

  const out = path.resolve(options.out);
  if (fs.existsSync(out) && fs.readdirSync(out).length > 0) throw new OpsError(`${out} is not empty`);
  await fsp.mkdir(path.join(out, 'files'), { recursive: true, mode: 0o700 });

  // 1. The snapshot. The progress callback asks for every remaining page in the next step, so the
  //    copy is one step inside one read transaction: a consistent instant even while the server
  //    writes (WAL lets it go on meanwhile), and never restarted by a concurrent write.
  const snapshotFile = path.join(out, DB_FILE);
  const live = new SQLite(liveFile, { fileMustExist: true });
  try {
    live.pragma('busy_timeout = 5000');
    await live.backup(snapshotFile, { progress: () => 0x7fffffff });
  } finally {
    live.close();
  }
  const snapshot = new SQLite(snapshotFile);
  let rows: FileRow[];
  try {
    // A self-contained file: no -wal beside it.
    snapshot.pragma('journal_mode = DELETE');
    const check = integrityCheck(snapshot);
    if (check !== 'ok') throw new OpsError(`The snapshot failed its integrity check: ${check}`);
    rows = fileRows(snapshot);
  } catch (error) {
    snapshot.close();
    throw error;
  }

  // 2. The blobs of the snapshot's rows. A blob is written once and never changed, so copying it
  //    after the snapshot copies the bytes the row points to. One that is gone now belonged to a
  //    record deleted since the snapshot (rows go first, then blobs): that record leaves the backup
  //    too, as if deleted just before it. A blob missing while its record still exists is reported.
  //    Several blobs are copied at once: each copy ends in its own flush to the disk, and flushes
  //    made together share the file system's journal commits (10,000 families hold 200,000 small
  //    blobs: one at a time, the flushes alone took minutes; docs/decisions/0041). The manifest
  //    lists them in the snapshot's order whatever order they finish in.
  const blobs = await openBlobStore(config);
  const copied: (BackupManifest['files'][number] | undefined)[] = rows.map(() => undefined);
  const deletedSince: string[] = [];
  let missing = 0;
  let unopenable = 0;
  const copyRow = async (row: FileRow, index: number): Promise<void> => {
    if (masterKey) {
      try {
        unwrapDataKey(masterKey, row.wrapped_key, fileAssociatedData(row.id, row.user_id));
      } catch {
        unopenable += 1;
      }
    }
    let source: Readable;
    try {
      source = await blobs.get(row.storage_key);
    } catch (error) {
      if (!(error instanceof BlobNotFoundError)) throw error;
      if (stillRecorded(liveFile, row.id)) missing += 1;
      else deletedSince.push(row.id);
      return;
    }
    copied[index] = { key: row.storage_key, ...(await copyHashed(source, path.join(out, 'files', row.storage_key))) };
  };
  try {
    let next = 0;
    let failed = false;
    const worker = async () => {
      // After a failure no copy starts: the error is the answer, and the backup has no manifest.
      while (next < rows.length && !failed) {
        const index = next++;
        await copyRow(rows[index]!, index).catch((error: unknown) => {
          failed = true;
          throw error;
        });
      }
    };
    await Promise.all(Array.from({ length: Math.min(COPIES_AT_ONCE, rows.length) }, worker));
    if (deletedSince.length) deleteFileRows(snapshot, deletedSince);
  } finally {
    snapshot.close();
  }
  const files = copied.filter((f) => f !== undefined);
  if (missing) log.warn(`${missing} file record(s) have no stored file in the live deployment either; they are in the backup as they are`);
  if (unopenable) log.warn(`${unopenable} file key(s) do not open under the current master key`);

  // 3. The key, only when asked; 4. the manifest, last.
  if (options.includeKey && masterKey) {
    await fsp.writeFile(path.join(out, MASTER_KEY_FILE), `${masterKey.toString('base64')}\n`, { mode: 0o600, flag: 'wx', flush: true });
  } else {
    log.warn(
      'The backup does not contain the master key. Keep MASTER_KEY (or DATA_DIR/master.key) safe and separate: without it the files in this backup cannot be opened. (--include-key puts it in the backup.)',
    );
  }
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    created_at: new Date().toISOString(),
    database: { dialect: 'sqlite', file: DB_FILE },
    files,
    master_key_included: Boolean(options.includeKey && masterKey),
  };
  await fsp.writeFile(path.join(out, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600, flush: true });
  await syncDir(path.join(out, 'files'));
  await syncDir(out);
  const bytes = files.reduce((n, f) => n + f.size, 0);
  log.info(`Backed up the database and ${files.length} file(s) (${bytes} bytes) to ${out}`);
  return manifest;
}

function stillRecorded(liveFile: string, id: string): boolean {
  const live = new SQLite(liveFile, { fileMustExist: true });
  try {
    live.pragma('busy_timeout = 5000');
    return hasFileRow(live, id);
  } finally {
    live.close();
  }
}
