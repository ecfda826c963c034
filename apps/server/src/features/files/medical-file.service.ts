import { Readable } from 'node:stream';
import type { Multipart } from '@fastify/multipart';
import type { FastifyBaseLogger } from 'fastify';
import type { MedicalFile, StorageUsage, UploadFields } from '@kinchart/shared/files';
import { UPLOAD_FIELD_NAMES, fileContentPath, uploadFieldsSchema } from '@kinchart/shared/files';
import { stripInvisible } from '@kinchart/shared/text';
import type { Db } from '../../db/database';
import { HttpError, badRequest, notFound } from '../../lib/http-errors';
import { newId, nowIso } from '../../lib/ids';
import { UNSTORABLE_TEXT_MESSAGE, hasUnstorableText } from '../../lib/storable-text';
import type { BlobStore, TempBlob } from '../../storage/blob-store';
import { decryptStream, encryptStream, fileAssociatedData, newDataKey, unwrapDataKey, wrapDataKey } from '../../storage/envelope';
import { recordAudit } from '../../common/audit';
import type { MedicalFileRow, StoredFileRow } from './medical-file.repository';
import { createMedicalFileRepository } from './medical-file.repository';
import type { SniffOutcome } from '../../common/file-sniffer';
import { sniffUpload, tooLarge, unsupportedType } from '../../common/file-sniffer';
import type { StorageQuota } from './storage-quota';
import { checkQuota } from './storage-quota';

export const FILE_NOT_FOUND = 'File not found';

/** SPEC §3 listed record fields; `name`, `file_name` and `display_name` are all the user's name for it. */
export function toMedicalFile(row: MedicalFileRow): MedicalFile {
  return {
    id: row.id,
    record_id: row.id,
    name: row.display_name,
    file_name: row.display_name,
    display_name: row.display_name,
    originalname: row.original_name,
    file_type: row.file_type,
    url: fileContentPath(row.id),
    created_at: row.created_at,
    record_date: row.record_date,
    record_details: {
      provider_name: row.provider_name,
      visit_location: row.visit_location,
      visit_reason: row.visit_reason,
    },
    provider_name: row.provider_name,
    visit_location: row.visit_location,
    visit_reason: row.visit_reason,
    metadata: { size: Number(row.size) },
  };
}

/** The uploader's file name as metadata: no path, no control or format characters, at most 255 characters. */
export function cleanOriginalName(name: string | undefined): string {
  const base = (name ?? '').split(/[/\\]/).pop() ?? '';
  const clean = stripInvisible(base.normalize('NFC')).trim();
  return Array.from(clean).slice(0, 255).join('') || 'file';
}

const blank = (value: string | undefined): string | null => (value && value.trim() !== '' ? value.trim() : null);

const MULTIPART_ERRORS: Record<string, string> = {
  FST_FILES_LIMIT: 'Send one file at a time',
  FST_FIELDS_LIMIT: 'Too many form fields',
  FST_PARTS_LIMIT: 'Too many form fields',
  FST_MP_PREMATURE_CLOSE: 'The upload was interrupted',
  FST_PROTO_VIOLATION: 'Malformed form field',
  FST_INVALID_JSON_FIELD_ERROR: 'Malformed form field',
};

/** Multipart plugin and busboy failures, as answers a person can act on (none leaks internals). */
function uploadError(error: unknown, limits: { maxMb: number }): unknown {
  if (error instanceof HttpError) return error;
  const e = error as { code?: string; message?: string };
  if (e.code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge(limits.maxMb);
  const message = e.code ? MULTIPART_ERRORS[e.code] : undefined;
  if (message) return badRequest(message);
  if (!e.code && typeof e.message === 'string' && /multipart|boundary|part terminated|unexpected end/i.test(e.message)) {
    return badRequest('Malformed multipart body');
  }
  return error;
}

export interface FileServiceDeps {
  db: Db;
  blobs: BlobStore;
  masterKey: Buffer;
  maxUploadBytes: number;
  maxUploadMb: number;
  /** STORAGE_QUOTA_MB (DESIGN §1, §5). */
  quota: StorageQuota;
  log: FastifyBaseLogger;
}

export function createMedicalFileService(deps: FileServiceDeps) {
  const { db, blobs, masterKey } = deps;
  const repo = createMedicalFileRepository(db);
  const limits = { maxBytes: deps.maxUploadBytes, maxMb: deps.maxUploadMb };

  /** Decrypts a stored blob. The header and first segment are verified before this resolves, so a
   * damaged file fails before any response header is sent; later segments are verified as they stream. */
  async function openBlob(row: StoredFileRow): Promise<Readable> {
    const aad = fileAssociatedData(row.id, row.user_id);
    let source: Readable | undefined;
    let plain: AsyncGenerator<Buffer>;
    let first: IteratorResult<Buffer>;
    try {
      const dataKey = unwrapDataKey(masterKey, row.wrapped_key, aad);
      source = await blobs.get(row.storage_key);
      plain = decryptStream(source, dataKey, aad);
      first = await plain.next();
    } catch (error) {
      source?.destroy();
      // A 500 with a generic answer; the log names the file by id only (DESIGN §5).
      throw new Error(`Stored file ${row.id} could not be read: ${(error as Error).message}`);
    }
    async function* all() {
      if (!first.done) yield first.value;
      yield* plain;
    }
    return Readable.from(all(), { objectMode: false });
  }

  return {
    /**
     * DESIGN §6 upload: parts are read in order (the file may come before the text fields); the
     * file streams through the sniffer and the cipher into a temporary blob; only once every part
     * has arrived is the blob committed and its row inserted. Any failure removes the blob.
     */
    async upload(userId: string, parts: AsyncIterable<Multipart>, mode: 'record' | 'file-only'): Promise<MedicalFile> {
      const fileId = newId();
      const dataKey = newDataKey();
      const aad = fileAssociatedData(fileId, userId);
      const fields: Record<string, string> = {};
      let temp: TempBlob | undefined;
      let committed = false;
      let uploaded: { originalName: string; mime: string; size: number } | undefined;

      try {
        for await (const part of parts) {
          if (part.type === 'field') {
            if (part.valueTruncated || part.fieldnameTruncated) throw badRequest(`${part.fieldname.slice(0, 40)} is too long`);
            if (hasUnstorableText(part.value)) throw badRequest(UNSTORABLE_TEXT_MESSAGE);
            if ((UPLOAD_FIELD_NAMES as readonly string[]).includes(part.fieldname)) fields[part.fieldname] = String(part.value);
            continue;
          }
          if (part.fieldname !== 'file' || temp) {
            part.file.resume();
            throw badRequest('Send one file, in the "file" field');
          }
          if (!part.filename) {
            // An empty file input still sends a part with no name and no bytes: that is "no file".
            part.file.resume();
            continue;
          }
          const outcome: SniffOutcome = { mime: null, size: 0 };
          part.file.on('limit', () => part.file.destroy(tooLarge(limits.maxMb)));
          temp = await blobs.putTemp(encryptStream(sniffUpload(part.file, outcome, limits), dataKey, aad));
          if (part.file.truncated) throw tooLarge(limits.maxMb);
          if (!outcome.mime) throw unsupportedType();
          uploaded = { originalName: cleanOriginalName(part.filename), mime: outcome.mime, size: outcome.size };
        }
        if (!temp || !uploaded) throw badRequest('No file was uploaded');

        let details: UploadFields = {};
        if (mode === 'record') {
          const parsed = uploadFieldsSchema.safeParse(fields);
          if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid upload fields');
          details = parsed.data;
        }
        // Over the quota already: refused before the blob is committed (the temporary one is
        // discarded below). The insert's transaction decides for good (storage-quota.ts).
        await checkQuota(db, userId, uploaded.size, deps.quota, 'this file needs');
        const createdAt = nowIso();
        await blobs.commit(temp, fileId);
        committed = true;
        const row = {
          id: fileId,
          userId,
          displayName: blank(details.customName) ?? uploaded.originalName,
          originalName: uploaded.originalName,
          fileType: uploaded.mime,
          size: uploaded.size,
          storageKey: fileId,
          wrappedKey: wrapDataKey(masterKey, dataKey, aad),
          // SPEC §3: an empty visit date means "now" as an ISO timestamp.
          recordDate: blank(details.customDate) ?? createdAt,
          providerName: blank(details.providerName),
          visitLocation: blank(details.visitLocation),
          visitReason: blank(details.visitReason),
          createdAt,
        };
        try {
          await repo.insert(row, deps.quota);
        } catch (error) {
          await blobs.delete(fileId).catch((err: unknown) => deps.log.error({ err, fileId }, 'could not remove blob after a failed insert'));
          throw error;
        }
        return toMedicalFile({
          id: row.id,
          display_name: row.displayName,
          original_name: row.originalName,
          file_type: row.fileType,
          size: row.size,
          record_date: row.recordDate,
          provider_name: row.providerName,
          visit_location: row.visitLocation,
          visit_reason: row.visitReason,
          created_at: row.createdAt,
        });
      } catch (error) {
        if (temp && !committed) await blobs.discard(temp).catch(() => {});
        throw uploadError(error, limits);
      }
    },

    /** GET /api/user/storage: what Settings shows (DESIGN §5 storage quota). */
    async storage(userId: string): Promise<StorageUsage> {
      return { used_bytes: await repo.storageUsed(userId), quota_bytes: deps.quota.bytes };
    },

    async list(userId: string): Promise<MedicalFile[]> {
      return (await repo.list(userId)).map(toMedicalFile);
    },

    async rename(userId: string, id: string, newName: string): Promise<MedicalFile> {
      if (!(await repo.rename(userId, id, newName))) throw notFound(FILE_NOT_FOUND);
      const row = await repo.find(userId, id);
      if (!row) throw notFound(FILE_NOT_FOUND);
      return toMedicalFile(row);
    },

    /**
     * DELETE /api/user/files/{fileName}: SPEC §7 sends the URL-encoded name; ids are accepted too.
     * An id of the user's wins; otherwise the newest file with exactly that name is deleted — one
     * click deletes one record, never every record that shares a name.
     */
    async remove(userId: string, idOrName: string): Promise<void> {
      const target = (await repo.find(userId, idOrName)) ?? (await repo.findNewestByName(userId, idOrName));
      const key = target ? await repo.delete(userId, target.id) : undefined;
      if (!key) throw notFound(FILE_NOT_FOUND);
      // Row first, then blob: a record is never listed without its bytes; a blob left by a
      // failure here is removed by the start-up sweep.
      await blobs.delete(key).catch((err: unknown) => deps.log.error({ err }, 'could not remove a deleted file blob'));
    },

    /** The owner's decrypted bytes and the row that describes them; audited as a download. */
    async openContent(ownerId: string, id: string, audit: { ip: string; via?: string }): Promise<{ file: MedicalFileRow; body: Readable }> {
      const row = await repo.findStored(ownerId, id);
      if (!row) throw notFound(FILE_NOT_FOUND);
      const body = await openBlob(row);
      await recordAudit(db, {
        userId: ownerId,
        action: 'file_download',
        ip: audit.ip,
        detail: { fileId: row.id, ...(audit.via ? { via: audit.via } : {}) },
      });
      return { file: row, body };
    },

    /** AccountDeletionHook: collect the blobs before the rows cascade away, remove them after. */
    async beforeAccountDeletion(userId: string): Promise<() => Promise<void>> {
      const keys = await repo.storageKeysOfUser(userId);
      return async () => {
        for (const key of keys) {
          await blobs.delete(key).catch((err: unknown) => deps.log.error({ err }, 'could not remove a blob of a deleted account'));
        }
      };
    },

    repository: repo,
  };
}
export type MedicalFileService = ReturnType<typeof createMedicalFileService>;
