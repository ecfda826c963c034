import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { IntegrityError, newDataKey, unwrapDataKey, wrapDataKey } from './envelope';

// A small secret kept at rest the way files are (DESIGN §6, docs/decisions/0003): sealed with
// AES-256-GCM under its own data key, and the data key wrapped by the master key. Only the wrapped
// key depends on the master key, so `rotate-key` re-wraps it like a file's (ops/wrapped-keys.repository.ts)
// and the sealed bytes never change.
//
// sealed = base64( version ‖ iv (12) ‖ ciphertext ‖ tag (16) ), with `aad` as associated data.

const SEAL_VERSION = 1;

export interface SealedSecret {
  wrappedKey: string;
  sealed: string;
}

export function sealSecret(masterKey: Buffer, secret: Buffer, aad: Buffer): SealedSecret {
  const dataKey = newDataKey();
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', dataKey, iv);
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(secret), cipher.final()]);
  const sealed = Buffer.concat([Buffer.from([SEAL_VERSION]), iv, body, cipher.getAuthTag()]).toString('base64');
  return { wrappedKey: wrapDataKey(masterKey, dataKey, aad), sealed };
}

/** Throws IntegrityError when either part was altered, belongs to another row, or the master key is another. */
export function openSecret(masterKey: Buffer, stored: SealedSecret, aad: Buffer): Buffer {
  const dataKey = unwrapDataKey(masterKey, stored.wrappedKey, aad);
  const raw = Buffer.from(stored.sealed, 'base64');
  if (raw.length < 1 + 12 + 16 || raw[0] !== SEAL_VERSION) throw new IntegrityError('Sealed secret is malformed');
  try {
    const decipher = createDecipheriv('aes-256-gcm', dataKey, raw.subarray(1, 13));
    decipher.setAAD(aad);
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    return Buffer.concat([decipher.update(raw.subarray(13, raw.length - 16)), decipher.final()]);
  } catch {
    throw new IntegrityError('Sealed secret does not open');
  }
}

/** Associated data binding a TOTP secret to its account. */
export const totpAssociatedData = (userId: string): Buffer => Buffer.from(`totp:${userId}`, 'utf8');
