import { hkdfSync } from 'node:crypto';

/**
 * The link's 32-byte AES key (SHL payload `key`), derived from the master key and the manifest id
 * with HKDF-SHA256 (RFC 5869): nothing secret is stored per link, and the key is the same every
 * time the owner asks for their link. A different master key gives different keys.
 */
export function shlKey(masterKey: Buffer, manifestId: string): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', masterKey, Buffer.from('kinchart-shl-v1', 'utf8'), Buffer.from(manifestId, 'utf8'), 32));
}
