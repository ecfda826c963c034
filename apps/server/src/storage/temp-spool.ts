import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import type { TempBlob } from './blob-store';

const SUFFIX = '.part';

/**
 * Both drivers spool an upload to a local temporary file first: the local driver then renames it
 * (same file system, atomic), the S3 driver sends it with a known Content-Length (the length of a
 * stream is unknown until it ends, and @aws-sdk/lib-storage is not a dependency).
 */
export function createTempSpool(dir: string) {
  let ready: Promise<void> | undefined;
  const ensureDir = () => (ready ??= fsp.mkdir(dir, { recursive: true, mode: 0o700 }).then(() => undefined));

  return {
    dir,

    async write(source: AsyncIterable<Uint8Array>): Promise<TempBlob> {
      await ensureDir();
      const file = path.join(dir, `${randomUUID()}${SUFFIX}`);
      let size = 0;
      async function* counted(input: AsyncIterable<Uint8Array>) {
        for await (const chunk of input) {
          size += chunk.length;
          yield chunk;
        }
      }
      // flush: fsync before close, so a commit never publishes bytes still in the page cache.
      const sink = fs.createWriteStream(file, { flags: 'wx', mode: 0o600, flush: true });
      try {
        await pipeline(counted(source), sink);
      } catch (error) {
        // The file is opened asynchronously: wait until the stream has closed, or an open that
        // completes after this removal would leave an empty spool file behind.
        if (!sink.closed) await once(sink, 'close').catch(() => {});
        await fsp.rm(file, { force: true });
        throw error;
      }
      return { path: file, size };
    },

    async discard(temp: TempBlob): Promise<void> {
      await fsp.rm(temp.path, { force: true });
    },

    /** Removes spool files older than `olderThan` (left by a crash mid-upload). */
    async sweep(olderThan: Date): Promise<number> {
      let names: string[];
      try {
        names = await fsp.readdir(dir);
      } catch {
        return 0;
      }
      let removed = 0;
      for (const name of names) {
        if (!name.endsWith(SUFFIX)) continue;
        const file = path.join(dir, name);
        const stat = await fsp.stat(file).catch(() => null);
        if (stat && stat.mtime < olderThan) {
          await fsp.rm(file, { force: true });
          removed += 1;
        }
      }
      return removed;
    },
  };
}
export type TempSpool = ReturnType<typeof createTempSpool>;

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
