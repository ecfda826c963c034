import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// DESIGN §6 envelope encryption; the format and its reasons are in docs/decisions/0003-file-encryption.md.
//
// Each file has its own random 256-bit data key. The data key is stored wrapped (AES-256-GCM under
// the master key), and the file is encrypted as a sequence of independently authenticated
// AES-256-GCM segments — the "STREAM" construction (Hoang, Reyhanitabar, Rogaway, Vizár 2015,
// as used by Google Tink's streaming AEAD and age): each segment's nonce is a random per-file
// prefix, the segment's counter and a last-segment flag, so segments cannot be reordered, dropped
// or the file truncated without a tag failing. Decryption releases a segment's plaintext only
// after its tag has verified, which keeps downloads streaming and memory flat while never letting
// an altered byte reach the client.
//
// Blob layout:
//   header (16 bytes): "KCF" | version | segment size (u32 BE) | nonce prefix (8 bytes)
//   segment i:         AES-256-GCM(dataKey, nonce_i, plaintext_i, aad) ‖ 16-byte tag
//   nonce_i (12 bytes): nonce prefix (7 bytes) ‖ i (u32 BE) ‖ last ? 0x01 : 0x00
//   aad:               header ‖ UTF-8 "{fileId}" (version 2) or "{fileId}:{ownerId}" (version 1)
// Version 2 (docs/decisions/0031) binds the segments to the file alone: the owner is bound by the
// data key's wrap ("{fileId}:{ownerId}", as ever), which is made once the upload is complete — so an
// upload can stream before the person it is for, and so the owner, is known. The data key is the
// file's own, so a blob still opens only with its own row's wrapped key.
// Every segment holds exactly `segment size` plaintext bytes except the last, which holds
// 0..segment size bytes and carries the last flag (an empty file is one empty last segment).

/** Plaintext bytes per segment of new blobs (64 KiB before decision 0008; the header records it). */
export const SEGMENT_SIZE = 256 * 1024;
const TAG_BYTES = 16;
const HEADER_BYTES = 16;
const MAGIC = Buffer.from('KCF', 'ascii');
/** New blobs are version 2; version 1 blobs (owner in every segment's associated data) still open. */
const VERSION = 2;
const NONCE_PREFIX_BYTES = 7;
const MAX_SEGMENT_SIZE = 16 * 1024 * 1024;
const WRAP_VERSION = 1;

/** A blob or wrapped key that does not decrypt: tampered with, truncated, or under another key. */
export class IntegrityError extends Error {
  constructor(message = 'Stored file failed its integrity check') {
    super(message);
    this.name = 'IntegrityError';
  }
}

/** Associated data binding a wrapped key (and a version 1 blob) to one file of one owner. */
export const fileAssociatedData = (fileId: string, ownerId: string): Buffer => Buffer.from(`${fileId}:${ownerId}`, 'utf8');

/** Associated data of a new (version 2) blob's segments: its file alone. */
export const blobAssociatedData = (fileId: string): Buffer => Buffer.from(fileId, 'utf8');

/** Associated data for a blob's segments: fixed, or chosen by the version its header names. */
export type SegmentAssociatedData = Buffer | ((version: number) => Buffer);

/** What a stored file's blob is bound to, whichever version sealed it. */
export const fileBlobAssociatedData =
  (fileId: string, ownerId: string): SegmentAssociatedData =>
  (version) =>
    version === 1 ? fileAssociatedData(fileId, ownerId) : blobAssociatedData(fileId);

export const newDataKey = (): Buffer => randomBytes(32);

/** base64( version ‖ iv (12) ‖ AES-256-GCM(masterKey, dataKey) (32) ‖ tag (16) ). */
export function wrapDataKey(masterKey: Buffer, dataKey: Buffer, aad: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', masterKey, iv);
  cipher.setAAD(aad);
  const sealed = Buffer.concat([cipher.update(dataKey), cipher.final()]);
  return Buffer.concat([Buffer.from([WRAP_VERSION]), iv, sealed, cipher.getAuthTag()]).toString('base64');
}

export function unwrapDataKey(masterKey: Buffer, wrapped: string, aad: Buffer): Buffer {
  const raw = Buffer.from(wrapped, 'base64');
  if (raw.length !== 1 + 12 + 32 + TAG_BYTES || raw[0] !== WRAP_VERSION) throw new IntegrityError('Wrapped key is malformed');
  try {
    const decipher = createDecipheriv('aes-256-gcm', masterKey, raw.subarray(1, 13));
    decipher.setAAD(aad);
    decipher.setAuthTag(raw.subarray(45));
    return Buffer.concat([decipher.update(raw.subarray(13, 45)), decipher.final()]);
  } catch {
    throw new IntegrityError('Wrapped key does not open under the master key');
  }
}

function nonce(prefix: Buffer, index: number, last: boolean): Buffer {
  const n = Buffer.alloc(12);
  prefix.copy(n, 0, 0, NONCE_PREFIX_BYTES);
  n.writeUInt32BE(index, NONCE_PREFIX_BYTES);
  n[11] = last ? 1 : 0;
  return n;
}

function checkIndex(index: number): void {
  if (index > 0xffffffff) throw new Error('File too large for the segment counter');
}

/** Ciphertext size for a plaintext of `size` bytes. */
export function encryptedSize(size: number, segmentSize = SEGMENT_SIZE): number {
  const segments = Math.max(1, Math.ceil(size / segmentSize));
  return HEADER_BYTES + size + segments * TAG_BYTES;
}

/**
 * Seals the segments of one blob in order. A class rather than a closure inside encryptStream: its
 * method is the same function for every upload, so V8's optimised encryptStream keeps calling it
 * instead of being thrown away at the end of each upload for a "wrong call target" and compiled
 * again during the next one (docs/decisions/0008).
 */
class SegmentSealer {
  private index = 0;

  constructor(
    private readonly dataKey: Buffer,
    private readonly noncePrefix: Buffer,
    private readonly aad: Buffer,
  ) {}

  /** One segment's ciphertext, piece by piece as given, then its tag. */
  seal(pieces: readonly Buffer[], last: boolean): Buffer[] {
    checkIndex(this.index);
    const cipher = createCipheriv('aes-256-gcm', this.dataKey, nonce(this.noncePrefix, this.index, last));
    cipher.setAAD(this.aad);
    const sealed: Buffer[] = [];
    for (const piece of pieces) sealed.push(cipher.update(piece));
    // GCM is a stream mode: final() adds no bytes, it only completes the tag.
    const rest = cipher.final();
    if (rest.length > 0) sealed.push(rest);
    sealed.push(cipher.getAuthTag());
    this.index += 1;
    return sealed;
  }
}

/**
 * Encrypts a byte stream; yields the header, then each segment's ciphertext followed by its tag.
 *
 * A segment's plaintext is kept as references to the incoming chunks (never copied: callers hand
 * over chunks they no longer change, as Node streams do) and sealed once it is known whether it is
 * the last: a full segment is sealed only when more data arrives, so the final one always carries
 * the last flag. The cipher reads the chunks in place and its output is yielded as is, so this
 * function copies nothing (docs/decisions/0007). Node's `cipher.update` still copies its GCM
 * output once internally, which no caller can avoid (docs/decisions/0008).
 */
export async function* encryptStream(
  source: AsyncIterable<Uint8Array>,
  dataKey: Buffer,
  aad: Buffer,
  segmentSize = SEGMENT_SIZE,
): AsyncGenerator<Buffer> {
  const header = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(header, 0);
  header[3] = VERSION;
  header.writeUInt32BE(segmentSize, 4);
  randomBytes(8).copy(header, 8);
  const sealer = new SegmentSealer(dataKey, header.subarray(8, 8 + NONCE_PREFIX_BYTES), Buffer.concat([header, aad]));

  let pieces: Buffer[] = [];
  let fill = 0;
  yield header;
  for await (const input of source) {
    const chunk = Buffer.isBuffer(input) ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
    let offset = 0;
    while (offset < chunk.length) {
      if (fill === segmentSize) {
        for (const sealed of sealer.seal(pieces, false)) yield sealed;
        pieces = [];
        fill = 0;
      }
      const n = Math.min(segmentSize - fill, chunk.length - offset);
      pieces.push(n === chunk.length ? chunk : chunk.subarray(offset, offset + n));
      fill += n;
      offset += n;
    }
  }
  for (const sealed of sealer.seal(pieces, true)) yield sealed;
}

/**
 * Decrypts a blob; yields each segment's plaintext only after its tag verified. Throws
 * IntegrityError on any altered, reordered, missing or extra byte.
 */
export async function* decryptStream(
  source: AsyncIterable<Uint8Array>,
  dataKey: Buffer,
  aad: SegmentAssociatedData,
): AsyncGenerator<Buffer> {
  let header: Buffer | undefined;
  let prefix: Buffer | undefined;
  let segmentAad: Buffer | undefined;
  let sealedSize = 0;
  let index = 0;

  const open = (sealed: Buffer, last: boolean): Buffer => {
    if (!prefix || !segmentAad || sealed.length < TAG_BYTES) throw new IntegrityError();
    checkIndex(index);
    try {
      const decipher = createDecipheriv('aes-256-gcm', dataKey, nonce(prefix, index, last));
      decipher.setAAD(segmentAad);
      decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
      const plain = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]);
      index += 1;
      return plain;
    } catch {
      throw new IntegrityError();
    }
  };

  // Chunks are gathered and joined once per segment, so any chunking costs linear time, and at most
  // two sealed segments are held at once (memory stays flat).
  let parts: Buffer[] = [];
  let have = 0;
  const take = (n: number): Buffer => {
    const joined = parts.length === 1 ? parts[0]! : Buffer.concat(parts, have);
    const rest = joined.subarray(n);
    parts = rest.length ? [rest] : [];
    have = rest.length;
    return joined.subarray(0, n);
  };

  for await (const input of source) {
    const chunk = Buffer.isBuffer(input) ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
    parts.push(chunk);
    have += chunk.length;
    if (!header) {
      if (have < HEADER_BYTES) continue;
      header = Buffer.from(take(HEADER_BYTES));
      const version = header[3] ?? 0;
      if (!header.subarray(0, 3).equals(MAGIC) || version < 1 || version > VERSION) throw new IntegrityError('Unknown blob format');
      const segmentSize = header.readUInt32BE(4);
      if (segmentSize < 1 || segmentSize > MAX_SEGMENT_SIZE) throw new IntegrityError('Unknown blob format');
      sealedSize = segmentSize + TAG_BYTES;
      prefix = header.subarray(8, 8 + NONCE_PREFIX_BYTES);
      segmentAad = Buffer.concat([header, typeof aad === 'function' ? aad(version) : aad]);
    }
    // A segment is known not to be the last only when at least one more byte follows it.
    while (have > sealedSize) yield open(take(sealedSize), false);
  }
  if (!header) throw new IntegrityError('Blob is truncated');
  yield open(take(have), true);
}
