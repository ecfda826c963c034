import type { Db } from '../../db/database';
import { nowIso } from '../../lib/ids';
import type { StorageQuota } from './storage-quota';
import { reserveQuota, storageUsed } from './storage-quota';

// The only place that speaks SQL for medical_files and file_share_links. Every query that reads or
// changes a user's rows is filtered by user_id (DESIGN §4).

/** What the list and the API need — never storage_key or wrapped_key. */
const LISTED = [
  'id',
  'display_name',
  'original_name',
  'file_type',
  'size',
  'record_date',
  'provider_name',
  'visit_location',
  'visit_reason',
  'created_at',
] as const;

export interface MedicalFileRow {
  id: string;
  display_name: string;
  original_name: string;
  file_type: string;
  size: number;
  record_date: string | null;
  provider_name: string | null;
  visit_location: string | null;
  visit_reason: string | null;
  created_at: string;
}

export interface StoredFileRow extends MedicalFileRow {
  user_id: string;
  storage_key: string;
  wrapped_key: string;
}

export interface NewMedicalFile {
  id: string;
  userId: string;
  displayName: string;
  originalName: string;
  fileType: string;
  size: number;
  storageKey: string;
  wrappedKey: string;
  recordDate: string | null;
  providerName: string | null;
  visitLocation: string | null;
  visitReason: string | null;
  createdAt: string;
}

export function createMedicalFileRepository(db: Db) {
  return {
    /** Inserts the row if it fits the account's storage quota (413 otherwise, nothing inserted). */
    async insert(file: NewMedicalFile, quota: StorageQuota): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await reserveQuota(trx, file.userId, file.size, quota, 'this file needs');
        await trx
          .insertInto('medical_files')
          .values({
            id: file.id,
            user_id: file.userId,
            profile_id: null,
            display_name: file.displayName,
            original_name: file.originalName,
            file_type: file.fileType,
            size: file.size,
            storage_key: file.storageKey,
            wrapped_key: file.wrappedKey,
            record_date: file.recordDate,
            provider_name: file.providerName,
            visit_location: file.visitLocation,
            visit_reason: file.visitReason,
            created_at: file.createdAt,
            updated_at: file.createdAt,
          })
          .execute();
      });
    },

    /** The account's stored bytes (the storage quota's measure). */
    async storageUsed(userId: string): Promise<number> {
      return storageUsed(db, userId);
    },

    /** Newest first; served by the (user_id, created_at) index. */
    async list(userId: string): Promise<MedicalFileRow[]> {
      return db
        .selectFrom('medical_files')
        .select(LISTED)
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
    },

    async find(userId: string, id: string): Promise<MedicalFileRow | undefined> {
      return db.selectFrom('medical_files').select(LISTED).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
    },

    /** A row with what it takes to read its blob. */
    async findStored(userId: string, id: string): Promise<StoredFileRow | undefined> {
      return db
        .selectFrom('medical_files')
        .select([...LISTED, 'user_id', 'storage_key', 'wrapped_key'])
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** The newest of the user's files with exactly this display name. */
    async findNewestByName(userId: string, displayName: string): Promise<{ id: string } | undefined> {
      return db
        .selectFrom('medical_files')
        .select('id')
        .where('user_id', '=', userId)
        .where('display_name', '=', displayName)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    async rename(userId: string, id: string, displayName: string): Promise<boolean> {
      const res = await db
        .updateTable('medical_files')
        .set({ display_name: displayName, updated_at: nowIso() })
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },

    /** Deletes the row; answers its storage key so the caller can remove the blob afterwards. */
    async delete(userId: string, id: string): Promise<string | undefined> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('medical_files')
          .select('storage_key')
          .where('user_id', '=', userId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (!row) return undefined;
        await trx.deleteFrom('medical_files').where('user_id', '=', userId).where('id', '=', id).execute();
        return row.storage_key;
      });
    },

    /** Which of `ids` the user owns. */
    async ownedIds(userId: string, ids: readonly string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await db.selectFrom('medical_files').select('id').where('user_id', '=', userId).where('id', 'in', ids).execute();
      return rows.map((r) => r.id);
    },

    /** The user's files among `ids`, in the order given (missing ones are left out). */
    async listByIds(userId: string, ids: readonly string[]): Promise<MedicalFileRow[]> {
      if (ids.length === 0) return [];
      const rows = await db.selectFrom('medical_files').select(LISTED).where('user_id', '=', userId).where('id', 'in', ids).execute();
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },

    async storageKeysOfUser(userId: string): Promise<string[]> {
      const rows = await db.selectFrom('medical_files').select('storage_key').where('user_id', '=', userId).execute();
      return rows.map((r) => r.storage_key);
    },

    // For the start-up sweep, across all users.
    async allStorageKeys(): Promise<Set<string>> {
      const rows = await db.selectFrom('medical_files').select('storage_key').execute();
      return new Set(rows.map((r) => r.storage_key));
    },

    async storageKeyExists(key: string): Promise<boolean> {
      const row = await db.selectFrom('medical_files').select('id').where('storage_key', '=', key).executeTakeFirst();
      return !!row;
    },
  };
}
export type MedicalFileRepository = ReturnType<typeof createMedicalFileRepository>;
