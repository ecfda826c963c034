import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * A folder of this process's own under `root`, for temporary files (the upload spool, the import
 * spool). DESIGN §6: each process has its own spool folder, emptied at start — so what a crash
 * leaves behind is removed at the next start rather than after a grace period, and one instance
 * never removes another's files in flight when several share DATA_DIR.
 *
 * The folder is named `<host>~<pid>~<random>`. At start, `sweepStale` removes the folders of
 * processes that are gone: on this host, a pid that no longer runs — or our own pid with another
 * random part, a previous life of this process (a container restarts as pid 1). A folder of
 * another host (a volume shared between machines) cannot be checked that way; its files are
 * removed once older than the caller's cutoff. `remove` takes the folder away at graceful exit.
 */
export interface ProcessDir {
  /** This process's folder (created on first use by its writer). */
  readonly dir: string;
  /** Removes dead processes' folders, other hosts' files older than `olderThan`, and loose files of older layouts older than it; returns how many files went. */
  sweepStale(olderThan: Date): Promise<number>;
  /** Removes this process's folder and everything in it. */
  remove(): Promise<void>;
}

const SEPARATOR = '~';
const host = os.hostname().replace(/[^A-Za-z0-9.-]/g, '_') || 'host';

export function createProcessDir(root: string, options: { pid?: number; isAlive?: (pid: number) => boolean } = {}): ProcessDir {
  const pid = options.pid ?? process.pid;
  const isAlive = options.isAlive ?? processIsAlive;
  const own = [host, String(pid), randomBytes(6).toString('hex')].join(SEPARATOR);
  const dir = path.join(root, own);

  return {
    dir,

    async sweepStale(olderThan: Date): Promise<number> {
      const entries = await fsp.readdir(root, { withFileTypes: true }).catch(() => []);
      let removed = 0;
      for (const entry of entries) {
        if (entry.name === own) continue;
        const full = path.join(root, entry.name);
        if (!entry.isDirectory()) {
          removed += await removeIfOlder(full, olderThan);
          continue;
        }
        const [entryHost, entryPid, rest] = entry.name.split(SEPARATOR);
        const otherPid = Number(entryPid);
        if (entryHost === undefined || rest === undefined || !Number.isSafeInteger(otherPid)) continue;
        if (entryHost === host && (otherPid === pid || !isAlive(otherPid))) {
          removed += await countFiles(full);
          await fsp.rm(full, { recursive: true, force: true });
        } else if (entryHost !== host) {
          for (const name of await fsp.readdir(full).catch(() => [] as string[]))
            removed += await removeIfOlder(path.join(full, name), olderThan);
        }
      }
      return removed;
    },

    async remove(): Promise<void> {
      await fsp.rm(dir, { recursive: true, force: true });
    },
  };
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function removeIfOlder(file: string, olderThan: Date): Promise<number> {
  const stat = await fsp.stat(file).catch(() => null);
  if (!stat?.isFile() || stat.mtime >= olderThan) return 0;
  await fsp.rm(file, { force: true });
  return 1;
}

async function countFiles(dir: string): Promise<number> {
  const names = await fsp.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return names.filter((d) => d.isFile()).length;
}
