import type fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { BlobStore, StoredBlob, TempBlob } from './blob-store';
import { BlobNotFoundError, assertBlobKey } from './blob-store';
import { createTempSpool, syncDir } from './temp-spool';

/**
 * Local-disk driver (DESIGN §6, the default): blobs live in DATA_DIR/files/<2 chars>/<key>, the
 * spool in DATA_DIR/files/.tmp on the same file system, so commit is one atomic rename.
 */
export function createLocalBlobStore(root: string): BlobStore {
  const spool = createTempSpool(path.join(root, '.tmp'));
  const dirOf = (key: string) => path.join(root, key.slice(0, 2).toLowerCase());
  const pathOf = (key: string) => {
    assertBlobKey(key);
    return path.join(dirOf(key), key);
  };

  return {
    driver: 'local',

    putTemp: (source) => spool.write(source),

    async commit(temp: TempBlob, key: string) {
      const target = pathOf(key);
      await fsp.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      await fsp.rename(temp.path, target);
      await syncDir(path.dirname(target));
    },

    discard: (temp) => spool.discard(temp),

    async get(key: string): Promise<Readable> {
      let handle: fsp.FileHandle;
      try {
        handle = await fsp.open(pathOf(key), 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobNotFoundError();
        throw error;
      }
      return handle.createReadStream({ highWaterMark: 64 * 1024 });
    },

    async delete(key: string) {
      await fsp.rm(pathOf(key), { force: true });
    },

    async *list(): AsyncIterable<StoredBlob> {
      const shards = await fsp.readdir(root, { withFileTypes: true }).catch(() => [] as fs.Dirent[]);
      for (const shard of shards) {
        if (!shard.isDirectory() || shard.name.startsWith('.')) continue;
        const dir = path.join(root, shard.name);
        for (const name of await fsp.readdir(dir)) {
          const stat = await fsp.stat(path.join(dir, name)).catch(() => null);
          if (stat?.isFile()) yield { key: name, lastModified: stat.mtime };
        }
      }
    },

    sweepTemp: (olderThan) => spool.sweep(olderThan),

    close: () => spool.close(),
  };
}
