import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Config } from '../config';
import { assertBlobKey } from '../storage/blob-store';
import { openBlobStore } from '../storage/create-storage';
import { fileAssociatedData, unwrapDataKey } from '../storage/envelope';
import { MASTER_KEY_FILE, decodeMasterKey, readMasterKey } from '../storage/master-key';
import { syncDir } from '../storage/temp-spool';
import type { BackupManifest } from './backup';
import { BACKUP_FORMAT, BACKUP_VERSION, MANIFEST_FILE } from './backup';
import type { OpsLog } from './ops-common';
import { OpsError, assertSqlite, sqliteFileOf } from './ops-common';
import type { FileRow } from './snapshot.repository';
import { fileRows, integrityCheck } from './snapshot.repository';

/**
 * `npm run restore -- <backup dir>`: brings a backup made by `npm run backup` back into an empty
 * DATA_DIR (and its blob store: local disk or the configured bucket). Everything is checked before
 * anything is written — the manifest, the snapshot's integrity, that the master key opens every
 * data key — and each blob's SHA-256 as it is copied. The database goes in last, so an interrupted
 * restore leaves no database and can simply be run again.
 */
export async function restore(config: Config, options: { from: string; log: OpsLog }): Promise<{ files: number }> {
  assertSqlite(config, 'restore');
  const from = path.resolve(options.from);
  const manifest = readManifest(from);
  const target = sqliteFileOf(config);
  if (fs.existsSync(target)) throw new OpsError(`${target} already exists: restore only into an empty DATA_DIR`);

  // The master key: the configured one (MASTER_KEY, or a master.key already in DATA_DIR), else the
  // backup's own. When both exist they must agree.
  const inBackup = fs.existsSync(path.join(from, MASTER_KEY_FILE))
    ? decodeMasterKey(fs.readFileSync(path.join(from, MASTER_KEY_FILE), 'utf8'), `${from}/${MASTER_KEY_FILE}`)
    : undefined;
  const configured = readMasterKey(config);
  if (configured && inBackup && !configured.equals(inBackup)) {
    throw new OpsError('The master key in the backup differs from MASTER_KEY (or DATA_DIR/master.key); unset one of them');
  }
  const masterKey = configured ?? inBackup;
  if (!masterKey) {
    throw new OpsError('The backup holds no master key: set MASTER_KEY to the key of the deployment it was taken from');
  }

  const snapshotFile = path.join(from, manifest.database.file);
  const rows = readSnapshot(snapshotFile);
  for (const row of rows) {
    try {
      unwrapDataKey(masterKey, row.wrapped_key, fileAssociatedData(row.id, row.user_id));
    } catch {
      throw new OpsError('The master key does not open the files of this backup (is MASTER_KEY the one of the backed-up deployment?)');
    }
  }

  const blobs = await openBlobStore(config);
  const listed = new Set(manifest.files.map((f) => f.key));
  for await (const blob of blobs.list()) {
    if (!listed.has(blob.key))
      throw new OpsError('The file store already holds files that are not in this backup: restore only into an empty one');
  }

  for (const file of manifest.files) {
    const hash = createHash('sha256');
    const source = fs.createReadStream(path.join(from, 'files', file.key));
    async function* hashed() {
      for await (const chunk of source as AsyncIterable<Buffer>) {
        hash.update(chunk);
        yield chunk;
      }
    }
    const temp = await blobs.putTemp(hashed());
    if (temp.size !== file.size || hash.digest('hex') !== file.sha256) {
      await blobs.discard(temp);
      throw new OpsError(`files/${file.key} in the backup is damaged (its size or SHA-256 differs from the manifest)`);
    }
    await blobs.commit(temp, file.key);
  }

  await fsp.mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  if (!configured) {
    await fsp.writeFile(path.join(config.dataDir, MASTER_KEY_FILE), `${masterKey.toString('base64')}\n`, {
      mode: 0o600,
      flag: 'wx',
      flush: true,
    });
  }
  const partial = `${target}.restoring`;
  await fsp.rm(partial, { force: true });
  await fsp.copyFile(snapshotFile, partial, fs.constants.COPYFILE_EXCL);
  const handle = await fsp.open(partial, 'r+');
  await handle.sync();
  await handle.close();
  await fsp.rename(partial, target);
  await syncDir(config.dataDir);
  options.log.info(
    `Restored the database and ${manifest.files.length} file(s) into ${config.dataDir}${configured ? '' : ' (with the master key from the backup)'}`,
  );
  return { files: manifest.files.length };
}

function readManifest(from: string): BackupManifest {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(from, MANIFEST_FILE), 'utf8')) as BackupManifest;
  } catch {
    throw new OpsError(`${from} holds no readable ${MANIFEST_FILE}: not a complete Kinchart backup`);
  }
  if (manifest.format !== BACKUP_FORMAT || manifest.version !== BACKUP_VERSION || manifest.database?.dialect !== 'sqlite') {
    throw new OpsError(`${from} is not a Kinchart SQLite backup of a version this command knows`);
  }
  for (const file of manifest.files) {
    try {
      assertBlobKey(file.key);
    } catch {
      throw new OpsError('The manifest names a file that is not a blob key');
    }
  }
  return manifest;
}

function readSnapshot(file: string): FileRow[] {
  if (!fs.existsSync(file)) throw new OpsError(`${file} is missing`);
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const check = integrityCheck(db);
    if (check !== 'ok') throw new OpsError(`The backup's database failed its integrity check: ${check}`);
    return fileRows(db);
  } finally {
    db.close();
  }
}
