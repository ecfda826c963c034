import type { Kysely } from 'kysely';
import { formatFileSize } from '@kinchart/shared/files';
import { lockAccount } from '../../db/account-lock.repository';
import type { Database } from '../../db/schema';
import { HttpError } from '../../lib/http-errors';
import { storageUsed } from './storage-quota.repository';

// The per-account storage quota (DESIGN §1 STORAGE_QUOTA_MB, §5; docs/decisions/0012-reimport-and-quota.md).
// An account's stored bytes are the plaintext sizes of its files (medical_files.size, the size the
// app shows everywhere); uploads and imports both count against it. The check that decides runs in
// the transaction that inserts the rows, after taking the account's row lock, so two uploads or
// imports of one account are counted one after the other — on PostgreSQL across instances too
// (SQLite has a single writer anyway). Callers may also check early, without the lock, to avoid
// storing bytes that would be refused; that check alone never decides.

export interface StorageQuota {
  bytes: number;
  mb: number;
}

type Q = Kysely<Database>;

export function quotaExceeded(quota: StorageQuota, used: number, adding: number, what: string): HttpError {
  const free = Math.max(0, quota.bytes - used);
  return new HttpError(
    413,
    `Storage quota of ${quota.mb} MB reached: ${what} ${formatFileSize(adding)}, and ${formatFileSize(free)} is free. Delete files you no longer need to make room.`,
  );
}

/** Refuses early when `adding` bytes cannot fit (no lock: a hint that saves storing what would be refused). */
export async function checkQuota(q: Q, userId: string, adding: number, quota: StorageQuota, what: string): Promise<void> {
  if (adding <= 0) return;
  const used = await storageUsed(q, userId);
  if (used + adding > quota.bytes) throw quotaExceeded(quota, used, adding, what);
}

/**
 * Inside the inserting transaction: locks the account's row so that concurrent writers of this
 * account wait here, then refuses when `adding` bytes do not fit beside what is already stored.
 */
export async function reserveQuota(trx: Q, userId: string, adding: number, quota: StorageQuota, what: string): Promise<void> {
  if (adding <= 0) return;
  await lockAccount(trx, userId);
  await checkQuota(trx, userId, adding, quota, what);
}
