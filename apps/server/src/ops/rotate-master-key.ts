import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { createDatabase } from '../db/database';
import { IntegrityError, unwrapDataKey, wrapDataKey } from '../storage/envelope';
import { MASTER_KEY_FILE, decodeMasterKey, readMasterKey } from '../storage/master-key';
import { syncDir } from '../storage/temp-spool';
import type { OpsLog } from './ops-common';
import { OpsError, sqliteFileOf } from './ops-common';
import { countDerivedKeyLinks, inWrappedKeyTransaction } from './wrapped-keys.repository';

export interface RotationResult {
  /** Data keys re-wrapped from the old master key to the new one. */
  rewrapped: number;
  /** Data keys already under the new key (a second run after an interrupted one). */
  alreadyNew: number;
}

export class KeyRotationError extends Error {}

/**
 * MASTER_KEY rotation (DESIGN §6 envelope): every data key is unwrapped with the old master key and
 * wrapped again with the new one, in one transaction — all keys move or none does. File bytes are
 * encrypted under the data keys, which do not change, so no blob is read or rewritten.
 *
 * A key that already opens under the new master key is left alone, so running the command again
 * (say, after a crash between the commit and replacing master.key) is safe. A key that opens under
 * neither aborts the whole rotation.
 */
export async function rotateMasterKey(deps: { db: Db; oldKey: Buffer; newKey: Buffer }): Promise<RotationResult> {
  if (deps.oldKey.equals(deps.newKey)) throw new KeyRotationError('The new master key is the same as the current one');
  return inWrappedKeyTransaction(deps.db, async (repo) => {
    const result: RotationResult = { rewrapped: 0, alreadyNew: 0 };
    for (const row of await repo.all()) {
      const { aad } = row;
      let dataKey: Buffer;
      try {
        dataKey = unwrapDataKey(deps.oldKey, row.wrappedKey, aad);
      } catch (error) {
        if (!(error instanceof IntegrityError)) throw error;
        if (opens(deps.newKey, row.wrappedKey, aad)) {
          result.alreadyNew += 1;
          continue;
        }
        throw new KeyRotationError(
          `The data key of ${row.table} ${row.id} opens under neither the current nor the new master key; nothing was changed`,
        );
      }
      await repo.replace(row, wrapDataKey(deps.newKey, dataKey, aad));
      result.rewrapped += 1;
    }
    return result;
  });
}

function opens(key: Buffer, wrapped: string, aad: Buffer): boolean {
  try {
    unwrapDataKey(key, wrapped, aad);
    return true;
  } catch {
    return false;
  }
}

/**
 * `npm run rotate-key`: rotates the deployment's master key. With MASTER_KEY unset, the new key
 * replaces DATA_DIR/master.key: it is written beside it (master.key.next) before the database
 * changes and renamed over it after the commit, so the new key is on disk before any data key
 * depends on it, and a run interrupted in between is finished by running it again.
 */
export async function rotateDeploymentKey(config: Config, options: { newKey: string; log: OpsLog }): Promise<RotationResult> {
  const oldKey = readMasterKey(config);
  if (!oldKey) throw new OpsError('There is no master key to rotate (MASTER_KEY is unset and DATA_DIR/master.key does not exist)');
  let newKey: Buffer;
  try {
    newKey = decodeMasterKey(options.newKey, 'The new key');
  } catch (error) {
    throw new OpsError((error as Error).message);
  }
  if (!config.databaseUrl && !fs.existsSync(sqliteFileOf(config)))
    throw new OpsError(`No database at ${sqliteFileOf(config)} (is DATA_DIR right?)`);

  const keyFile = config.masterKey ? undefined : path.join(config.dataDir, MASTER_KEY_FILE);
  const next = keyFile && `${keyFile}.next`;
  let leftover = false;
  if (next && fs.existsSync(next)) {
    // Left by a run that committed but did not get to replace master.key: only that key finishes it.
    if (!decodeMasterKey(fs.readFileSync(next, 'utf8'), next).equals(newKey)) {
      throw new OpsError(`${next} is left from an interrupted rotation: run rotate-key again with --new-key-file ${next}`);
    }
    leftover = true;
  }
  if (next) await fsp.writeFile(next, `${newKey.toString('base64')}\n`, { mode: 0o600, flush: true });
  const { db } = createDatabase({ databaseUrl: config.databaseUrl, sqliteFile: sqliteFileOf(config) });
  let result: RotationResult;
  let links: number;
  try {
    links = await countDerivedKeyLinks(db);
    result = await rotateMasterKey({ db, oldKey, newKey });
  } catch (error) {
    if (next && !leftover) await fsp.rm(next, { force: true });
    throw error instanceof KeyRotationError ? new OpsError(error.message) : error;
  } finally {
    await db.destroy();
  }
  options.log.info(
    `Re-wrapped ${result.rewrapped} data key(s) under the new master key${result.alreadyNew ? ` (${result.alreadyNew} already were)` : ''}; no file was re-encrypted.`,
  );
  if (keyFile && next) {
    await fsp.rename(next, keyFile);
    await syncDir(config.dataDir);
    options.log.info(`${keyFile} now holds the new key.`);
  } else {
    options.log.warn('Set MASTER_KEY to the new key on every instance before starting them again: the old key no longer opens any file.');
  }
  if (links)
    options.log.warn(
      `The ${links} SMART Health Link(s) now have new keys: links copied out before stop opening, and their owners copy them again.`,
    );
  options.log.warn('Backups made before this rotation still need the old key: keep it for as long as you keep them.');
  return result;
}
