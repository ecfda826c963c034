import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { TempBlob } from './blob-store';
import { openDirect, writeDirect } from './direct-write';
import { createProcessDir } from './process-dir';

const SUFFIX = '.part';

/**
 * Both drivers spool an upload to a local temporary file first: the local driver then renames it
 * (same file system, atomic), the S3 driver sends it with a known Content-Length (the length of a
 * stream is unknown until it ends, and @aws-sdk/lib-storage is not a dependency). The file is
 * written with O_DIRECT where the file system allows it (direct-write.ts), through the page cache
 * otherwise; `direct: false` forces the page cache. Files go to this process's own folder under
 * `root` (process-dir.ts): a crash's leftovers are swept at the next start, and `close` removes
 * the folder at graceful exit.
 */
export function createTempSpool(root: string, options: { direct?: boolean } = {}) {
  const processDir = createProcessDir(root);
  const dir = processDir.dir;
  let ready: Promise<void> | undefined;
  // Learned from the first upload: once O_DIRECT is refused here, later uploads do not ask again.
  let directSupported = options.direct ?? true;
  const ensureDir = () => (ready ??= fsp.mkdir(dir, { recursive: true, mode: 0o700 }).then(() => undefined));

  return {
    dir,

    async write(source: AsyncIterable<Uint8Array>): Promise<TempBlob> {
      await ensureDir();
      const file = path.join(dir, `${randomUUID()}${SUFFIX}`);
      let handle: fsp.FileHandle | undefined;
      try {
        let size: number;
        const direct = directSupported ? await openDirect(file) : undefined;
        if (direct) {
          handle = direct;
          size = await writeDirect(direct, file, source);
        } else {
          directSupported = false;
          handle = await fsp.open(file, 'wx', 0o600);
          size = await writeBatched(handle, source);
        }
        // fsync before the caller commits, so a commit never publishes bytes not yet on the device.
        await handle.sync();
        await handle.close();
        return { path: file, size };
      } catch (error) {
        await handle?.close().catch(() => {});
        await fsp.rm(file, { force: true });
        throw error;
      }
    },

    async discard(temp: TempBlob): Promise<void> {
      await fsp.rm(temp.path, { force: true });
    },

    /** Removes what crashed processes left (at once) and other hosts' spool files older than `olderThan`. */
    sweep: (olderThan: Date): Promise<number> => processDir.sweepStale(olderThan),

    /** Graceful exit: this process's folder goes, with anything in it. */
    async close(): Promise<void> {
      ready = undefined;
      await processDir.remove();
    },
  };
}

/** Bytes gathered before one write system call. */
const BATCH_BYTES = 4 * 1024 * 1024;
/** Written bytes after which a background fdatasync starts, so the final fsync finds little left to flush. */
const SYNC_BYTES = 16 * 1024 * 1024;

/**
 * Writes `source` in batches of about BATCH_BYTES with one writev each, double-buffered: while one
 * batch is being written (libuv's thread pool), the next is gathered. A write per incoming 64 KiB
 * chunk, each awaited, left the disk idle between chunks and the pipeline idle during each write
 * (docs/decisions/0007). Every SYNC_BYTES a datasync starts in the background, so the disk writes
 * back while the upload is still arriving instead of all at once in the caller's final fsync.
 * Memory stays at about two batches. Returns the bytes written.
 */
async function writeBatched(handle: fsp.FileHandle, source: AsyncIterable<Uint8Array>): Promise<number> {
  let size = 0;
  let batch: Uint8Array[] = [];
  let batchBytes = 0;
  let unsynced = 0;
  let inFlight: Promise<unknown> = Promise.resolve();
  let syncing: Promise<void> | undefined;
  // The first failed datasync fails the upload (a later one can succeed after pages were dropped).
  let syncError: unknown;
  const startSync = () => {
    unsynced = 0;
    syncing = handle
      .datasync()
      .catch((error: unknown) => {
        syncError ??= error;
      })
      .finally(() => {
        syncing = undefined;
      });
  };
  const flush = async () => {
    await inFlight;
    if (syncError) throw syncError;
    const buffers = batch;
    const bytes = batchBytes;
    batch = [];
    batchBytes = 0;
    inFlight = writeAll(handle, buffers).then(() => {
      unsynced += bytes;
      if (unsynced >= SYNC_BYTES && !syncing) startSync();
    });
    // Marked as handled at once: a failure is rethrown by the next flush's await, not reported as unhandled.
    inFlight.catch(() => {});
  };
  for await (const chunk of source) {
    batch.push(chunk);
    batchBytes += chunk.length;
    size += chunk.length;
    if (batchBytes >= BATCH_BYTES) await flush();
  }
  if (batch.length > 0) await flush();
  await inFlight;
  await syncing;
  if (syncError) throw syncError;
  return size;
}

/** writev until every byte is written (a short write continues where it stopped). */
export async function writeAll(handle: Pick<fsp.FileHandle, 'writev'>, buffers: Uint8Array[]): Promise<void> {
  let pending = buffers;
  while (pending.length > 0) {
    const { bytesWritten } = await handle.writev(pending);
    let skip = bytesWritten;
    const rest: Uint8Array[] = [];
    for (const b of pending) {
      if (skip >= b.length) {
        skip -= b.length;
        continue;
      }
      rest.push(skip > 0 ? b.subarray(skip) : b);
      skip = 0;
    }
    pending = rest;
  }
}

/** fsync a directory so a rename or unlink in it survives a power cut (no-op where unsupported). */
export async function syncDir(dir: string): Promise<void> {
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(dir, 'r');
    await handle.sync();
  } catch {
    // Windows cannot open or fsync a directory; the rename is still atomic there.
  } finally {
    await handle?.close();
  }
}
