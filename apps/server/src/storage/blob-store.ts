import type { Readable } from 'node:stream';

// DESIGN §6: "The blob store is an interface with a local-disk driver (default) and an S3 driver."
// A blob is opaque ciphertext (storage/envelope.ts encrypts before anything reaches a driver).
// Writing is two-phase so nothing half written is ever visible under a real key:
//   putTemp(stream) → a temporary blob on local disk (flushed to the device before it resolves)
//   commit(temp, key) → the blob appears whole under `key` (rename, or one S3 PutObject)
//   discard(temp)     → a failed upload leaves nothing behind

export interface TempBlob {
  /** Local path of the spooled bytes. */
  readonly path: string;
  /** Bytes written. */
  readonly size: number;
}

export interface StoredBlob {
  key: string;
  lastModified: Date;
}

export interface BlobStore {
  readonly driver: 'local' | 's3';
  /**
   * Streams `source` into a new temporary blob. If anything fails, the partial blob is gone before
   * this rejects. Chunks are written in batches, so `source` must not reuse a chunk's memory once it
   * has yielded it (Node streams and our generators never do).
   */
  putTemp(source: AsyncIterable<Uint8Array>): Promise<TempBlob>;
  /** Makes the temporary blob durable under `key`; the temporary blob is consumed. */
  commit(temp: TempBlob, key: string): Promise<void>;
  /** Removes a temporary blob; never throws for one that is already gone. */
  discard(temp: TempBlob): Promise<void>;
  /** Streams a committed blob; rejects with BlobNotFoundError when there is none. */
  get(key: string): Promise<Readable>;
  /** Removes a committed blob; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Every committed blob, for the start-up orphan sweep. */
  list(): AsyncIterable<StoredBlob>;
  /** Removes temporary blobs left by a crash (another host's once older than `olderThan`); returns how many. */
  sweepTemp(olderThan: Date): Promise<number>;
  /** Graceful exit: removes this process's spool folder. */
  close(): Promise<void>;
}

export class BlobNotFoundError extends Error {
  constructor() {
    super('Blob not found');
    this.name = 'BlobNotFoundError';
  }
}

/** Keys are server-generated UUIDs; anything else is refused before it can reach a path or an S3 key. */
export function assertBlobKey(key: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9-]{7,63}$/.test(key)) throw new Error('Invalid blob key');
}
