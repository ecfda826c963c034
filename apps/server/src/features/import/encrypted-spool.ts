import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform, pipeline } from 'node:stream';
import type { Readable } from 'node:stream';
import { pipeline as pipelineAsync } from 'node:stream/promises';
import yauzl from 'yauzl';
import { newId } from '../../lib/ids';

// An uploaded import (a zip, or a FHIR Bundle) is health data: DESIGN §6 lets no plaintext reach
// the disk. A zip cannot be read front to back (its directory is at the end), so the upload is
// spooled to a temporary file — encrypted with AES-256-CTR under a key that lives only in memory
// for this one request. CTR can decrypt from any 16-byte block, which gives yauzl the random
// access it needs; integrity is not at stake (the file is ours, and gone when the request ends).
// A file left by a crash can never be read again (its key died with the process) and is swept
// on the next start.

const BLOCK = 16;

export interface Spool {
  /** Plaintext bytes written. */
  readonly size: number;
  /** The first bytes of the plaintext, to tell a zip from JSON. */
  readonly head: Buffer;
  /** A yauzl reader over the decrypted bytes. */
  reader(): yauzl.RandomAccessReader;
  /** Decrypted bytes [start, end). */
  stream(start?: number, end?: number): Readable;
  /** Removes the file; never throws. */
  remove(): Promise<void>;
}

/** The CTR counter block for block number `n`: the initial counter plus n, as a 128-bit big-endian number. */
function counterAt(iv: Buffer, n: number): Buffer {
  const value = (BigInt(`0x${iv.toString('hex')}`) + BigInt(n)) & ((1n << 128n) - 1n);
  return Buffer.from(value.toString(16).padStart(32, '0'), 'hex');
}

/** Drops the first `skip` bytes that pass through it. */
function dropFirst(skip: number): Transform {
  let left = skip;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (left >= chunk.length) {
        left -= chunk.length;
        return done();
      }
      const out = left ? chunk.subarray(left) : chunk;
      left = 0;
      done(null, out);
    },
  });
}

/**
 * Streams `source` into a new encrypted spool file in `dir`. `limit` is checked as bytes arrive:
 * past it, `tooLarge()` is thrown and nothing is left behind.
 */
export async function spoolEncrypted(source: AsyncIterable<Uint8Array>, dir: string, limit: number, tooLarge: () => Error): Promise<Spool> {
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `${newId()}.spool`);
  const key = randomBytes(32);
  const iv = randomBytes(BLOCK);
  let size = 0;
  let head = Buffer.alloc(0);

  async function* counted() {
    for await (const input of source) {
      const chunk = Buffer.isBuffer(input) ? input : Buffer.from(input);
      size += chunk.length;
      if (size > limit) throw tooLarge();
      if (head.length < 64) head = Buffer.concat([head, chunk.subarray(0, 64 - head.length)]);
      yield chunk;
    }
  }

  try {
    await pipelineAsync(counted, createCipheriv('aes-256-ctr', key, iv), fs.createWriteStream(file, { flags: 'wx', mode: 0o600 }));
  } catch (error) {
    await fsp.rm(file, { force: true });
    throw error;
  }

  const stream = (start = 0, end = size): Readable => {
    const block = Math.floor(start / BLOCK);
    const decipher = createDecipheriv('aes-256-ctr', key, counterAt(iv, block));
    const out = dropFirst(start - block * BLOCK);
    if (end <= start) {
      out.end();
      return out;
    }
    return pipeline(fs.createReadStream(file, { start: block * BLOCK, end: end - 1, highWaterMark: 64 * 1024 }), decipher, out, () => {});
  };

  class DecryptingReader extends yauzl.RandomAccessReader {
    override _readStreamForRange(start: number, end: number): Readable {
      return stream(start, end);
    }
  }

  return {
    size,
    head,
    reader: () => new DecryptingReader(),
    stream,
    remove: () => fsp.rm(file, { force: true }).catch(() => undefined),
  };
}
