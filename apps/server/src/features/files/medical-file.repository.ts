import type { TextStatus } from '@kinchart/shared/search';
import type { Db } from '../../db/database';
import { nowIso } from '../../lib/ids';
import type { StorageQuota } from './storage-quota';
import { reserveQuota } from './storage-quota';
import { storageUsed } from './storage-quota.repository';

// The files feature's SQL for medical_files and file_share_links (the quota's sum is in
// storage-quota.repository.ts). Every query that reads or changes a user's rows is filtered by the
// owner's user_id, by the person (profile_id) or by the id of a row whose person the service has
// checked with the one access function (DESIGN §4, §11).

/** What the list and the API need — never storage_key or wrapped_key. */
const LISTED = [
  'medical_files.id',
  'medical_files.user_id',
  'medical_files.profile_id',
  'medical_files.display_name',
  'medical_files.original_name',
  'medical_files.file_type',
  'medical_files.size',
  'medical_files.record_date',
  'medical_files.provider_name',
  'medical_files.visit_location',
  'medical_files.visit_reason',
  'medical_files.created_at',
  'profiles.name as person_name',
  // Issue 33: where reading the text stands, and what it suggests (one row each at most: joined on their keys).
  'file_text_jobs.status as text_status',
  'file_text_jobs.pages as text_pages',
  'file_text_jobs.reason as text_reason',
  'file_suggestions.file_id as suggestion_file_id',
  'file_suggestions.record_date as suggested_record_date',
  'file_suggestions.provider_name as suggested_provider_name',
  'file_suggestions.visit_reason as suggested_visit_reason',
] as const;

export interface MedicalFileRow {
  id: string;
  /** The person's owner: the account whose quota, export and deletion the file follows. */
  user_id: string;
  /** The person the file belongs to (DESIGN §4); null only when that person vanished. */
  profile_id: string | null;
  person_name: string | null;
  display_name: string;
  original_name: string;
  file_type: string;
  size: number;
  record_date: string | null;
  provider_name: string | null;
  visit_location: string | null;
  visit_reason: string | null;
  created_at: string;
  /** Issue 33: null only when the file has no text job (none is left without one: a trigger makes it). */
  text_status: TextStatus | null;
  text_pages: number | null;
  text_reason: string | null;
  /** Set when the file has a suggestion (file_suggestions row). */
  suggestion_file_id: string | null;
  suggested_record_date: string | null;
  suggested_provider_name: string | null;
  suggested_visit_reason: string | null;
}

export interface StoredFileRow extends MedicalFileRow {
  storage_key: string;
  wrapped_key: string;
}

export interface NewMedicalFile {
  id: string;
  /** The person's owner (not necessarily who uploads: an editor of a shared person uploads for its owner). */
  userId: string;
  profileId: string;
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
  /** Rows with their person's name (a profile row per file at most: the join is on its key). */
  const listed = () =>
    db
      .selectFrom('medical_files')
      .leftJoin('profiles', 'profiles.id', 'medical_files.profile_id')
      .leftJoin('file_text_jobs', 'file_text_jobs.file_id', 'medical_files.id')
      .leftJoin('file_suggestions', 'file_suggestions.file_id', 'medical_files.id')
      .select(LISTED);

  return {
    /** Inserts the row if it fits its owner's storage quota (413 otherwise, nothing inserted). */
    async insert(file: NewMedicalFile, quota: StorageQuota): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await reserveQuota(trx, file.userId, file.size, quota, 'this file needs');
        await trx
          .insertInto('medical_files')
          .values({
            id: file.id,
            user_id: file.userId,
            profile_id: file.profileId,
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

    /** Every file the account owns, whoever it belongs to; newest first, served by the (user_id, created_at) index. */
    async list(userId: string): Promise<MedicalFileRow[]> {
      return listed()
        .where('medical_files.user_id', '=', userId)
        .orderBy('medical_files.created_at', 'desc')
        .orderBy('medical_files.id', 'desc')
        .execute();
    },

    /**
     * One person's files (`ownerId`'s rows of `profileId`), newest first; `orUnfiled` adds the
     * owner's rows without a person (they belong to the owner's own profile).
     */
    async listOfPerson(ownerId: string, profileId: string, orUnfiled = false): Promise<MedicalFileRow[]> {
      return listed()
        .where('medical_files.user_id', '=', ownerId)
        .where((eb) =>
          orUnfiled
            ? eb.or([eb('medical_files.profile_id', '=', profileId), eb('medical_files.profile_id', 'is', null)])
            : eb('medical_files.profile_id', '=', profileId),
        )
        .orderBy('medical_files.created_at', 'desc')
        .orderBy('medical_files.id', 'desc')
        .execute();
    },

    /** The files of several people (shared with the reader), newest first; the caller checks each row's owner. */
    async listOfPeople(profileIds: readonly string[]): Promise<MedicalFileRow[]> {
      if (profileIds.length === 0) return [];
      return listed()
        .where('medical_files.profile_id', 'in', profileIds)
        .orderBy('medical_files.created_at', 'desc')
        .orderBy('medical_files.id', 'desc')
        .execute();
    },

    /** A row by id alone: the caller decides with the one access function whether the reader reaches it. */
    async findById(id: string): Promise<MedicalFileRow | undefined> {
      return listed().where('medical_files.id', '=', id).executeTakeFirst();
    },

    /** Rows by id alone, in no particular order (missing ones are left out). */
    async findManyById(ids: readonly string[]): Promise<MedicalFileRow[]> {
      if (ids.length === 0) return [];
      return listed().where('medical_files.id', 'in', ids).execute();
    },

    /** A row with what it takes to read its blob, by id alone (the caller has checked access). */
    async findStored(id: string): Promise<StoredFileRow | undefined> {
      return listed()
        .select(['medical_files.storage_key', 'medical_files.wrapped_key'])
        .where('medical_files.id', '=', id)
        .executeTakeFirst();
    },

    /** A person's name, as the answers carry it beside each file. */
    async personName(profileId: string): Promise<string | null> {
      const row = await db.selectFrom('profiles').select('name').where('id', '=', profileId).executeTakeFirst();
      return row?.name ?? null;
    },

    /** The newest of the user's own files with exactly this display name. */
    async findNewestByName(userId: string, displayName: string): Promise<MedicalFileRow | undefined> {
      return listed()
        .where('medical_files.user_id', '=', userId)
        .where('medical_files.display_name', '=', displayName)
        .orderBy('medical_files.created_at', 'desc')
        .orderBy('medical_files.id', 'desc')
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
