import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { readOrCreateSecretFile } from './secret-file';

export const MASTER_KEY_FILE = 'master.key';

/**
 * DESIGN §1: MASTER_KEY (base64, 32 bytes) when set; otherwise DATA_DIR/master.key, generated
 * with mode 0600 on first start and read back afterwards (storage/secret-file.ts: two processes
 * starting together agree on one key, and a crash never leaves a half-written key behind).
 */
export function loadMasterKey(options: { masterKey: string | undefined; dataDir: string }): Buffer {
  if (options.masterKey) return decode(options.masterKey, 'MASTER_KEY');
  const text = readOrCreateSecretFile(options.dataDir, MASTER_KEY_FILE, () => `${randomBytes(32).toString('base64')}\n`);
  return decode(text.trim(), path.join(options.dataDir, MASTER_KEY_FILE));
}

/** 32 bytes in standard base64 (padding optional). Node's decoder skips bad characters, so the text is checked first. */
const BASE64_KEY = /^[A-Za-z0-9+/]{43}=?$/;

/** True when `value` is a 32-byte key in base64: what MASTER_KEY and master.key must hold. */
export const isMasterKeyText = (value: string): boolean => BASE64_KEY.test(value);

function decode(value: string, source: string): Buffer {
  if (!isMasterKeyText(value)) throw new Error(`${source} must hold a base64-encoded 32-byte key`);
  return Buffer.from(value, 'base64');
}

/** The master key in use, without ever generating one: MASTER_KEY, else DATA_DIR/master.key, else undefined. */
export function readMasterKey(options: { masterKey: string | undefined; dataDir: string }): Buffer | undefined {
  if (options.masterKey) return decode(options.masterKey, 'MASTER_KEY');
  const file = path.join(options.dataDir, MASTER_KEY_FILE);
  return fs.existsSync(file) ? decode(fs.readFileSync(file, 'utf8').trim(), file) : undefined;
}

/** A base64 32-byte key, or an Error naming `source`. */
export function decodeMasterKey(value: string, source: string): Buffer {
  return decode(value.trim(), source);
}
