import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database';
import type { BlobStore } from '../../storage/blob-store';
import { createMedicalFileRepository } from './medical-file.repository';

/**
 * Younger blobs may belong to an upload between its commit and its row, or to an import whose blobs
 * are committed before its one transaction (decision 0004) — on this or another instance.
 */
export const ORPHAN_GRACE_MS = 60 * 60_000;
/** How often a running server sweeps again (docs/decisions/0031): a crash-left blob goes within two hours. */
export const ORPHAN_SWEEP_EVERY_MS = 60 * 60_000;

export interface SweepResult {
  removedBlobs: number;
  removedTemp: number;
  /** Rows whose blob is missing: reported (count only), never deleted — that is for a person to look at. */
  rowsWithoutBlob: number;
}

/**
 * The sweep at start-up and then every `everyMs` while the server runs (docs/decisions/0031): what
 * another instance's crash left, or a blob whose removal failed, does not wait for a restart. One
 * sweep at a time; each is timed from now. Answers the function that stops it.
 */
export function scheduleOrphanSweep(
  deps: Omit<SweepDeps, 'now'> & { everyMs?: number; onError: (error: unknown) => void; onSwept?: (result: SweepResult) => void },
): () => void {
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    sweepOrphanBlobs(deps)
      .then((result) => deps.onSwept?.(result), deps.onError)
      .finally(() => {
        running = false;
      });
  };
  tick();
  const timer = setInterval(tick, deps.everyMs ?? ORPHAN_SWEEP_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Start-up and periodic sweep (decision 0006): blobs without a row are removed, crash-left temporary blobs too, and
 * rows without a blob are counted in the log. Logs carry counts only — no names, no ids.
 */
interface SweepDeps {
  db: Db;
  blobs: BlobStore;
  log: FastifyBaseLogger;
  graceMs?: number;
  now?: Date;
}

export async function sweepOrphanBlobs(deps: SweepDeps): Promise<SweepResult> {
  const repo = createMedicalFileRepository(deps.db);
  const now = deps.now ?? new Date();
  const cutoff = new Date(now.getTime() - (deps.graceMs ?? ORPHAN_GRACE_MS));

  const removedTemp = await deps.blobs.sweepTemp(cutoff);
  const known = await repo.allStorageKeys();
  const seen = new Set<string>();
  let removedBlobs = 0;
  let failed = 0;
  for await (const blob of deps.blobs.list()) {
    seen.add(blob.key);
    if (known.has(blob.key) || blob.lastModified > cutoff) continue;
    // Re-check one by one: a row may have arrived since the key set was read.
    if (await repo.storageKeyExists(blob.key)) continue;
    try {
      await deps.blobs.delete(blob.key);
      removedBlobs += 1;
    } catch {
      failed += 1;
    }
  }
  if (failed) deps.log.warn({ count: failed }, 'could not remove some unreferenced file blobs');
  let rowsWithoutBlob = 0;
  for (const key of known) if (!seen.has(key)) rowsWithoutBlob += 1;

  if (removedBlobs || removedTemp) deps.log.info({ removedBlobs, removedTemp }, 'removed file blobs that had no record');
  if (rowsWithoutBlob) deps.log.warn({ count: rowsWithoutBlob }, 'medical file records without a stored blob');
  return { removedBlobs, removedTemp, rowsWithoutBlob };
}
