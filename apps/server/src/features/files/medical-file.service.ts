import { Readable } from 'node:stream';
import type { Multipart } from '@fastify/multipart';
import type { FastifyBaseLogger } from 'fastify';
import type { MedicalFile, StorageUsage, UploadFields } from '@kinchart/shared/files';
import { UPLOAD_FIELD_NAMES, UPLOAD_PERSON_FIELD, fileContentPath, stripExtension, uploadFieldsSchema } from '@kinchart/shared/files';
import { stripInvisible } from '@kinchart/shared/text';
import type { Db } from '../../db/database';
import { HttpError, badRequest, notFound } from '../../lib/http-errors';
import { newId, nowIso } from '../../lib/ids';
import { UNSTORABLE_TEXT_MESSAGE, hasUnstorableText } from '../../lib/storable-text';
import type { BlobStore, TempBlob } from '../../storage/blob-store';
import {
  blobAssociatedData,
  decryptStream,
  encryptStream,
  fileAssociatedData,
  fileBlobAssociatedData,
  newDataKey,
  unwrapDataKey,
  wrapDataKey,
} from '../../storage/envelope';
import { recordAudit } from '../../common/audit';
import type { Actor, PersonAccess, PersonAccessService, VisiblePerson } from '../../common/person-access';
import type { MedicalFileRow, StoredFileRow } from './medical-file.repository';
import { createMedicalFileRepository } from './medical-file.repository';
import type { SniffOutcome } from '../../common/file-sniffer';
import { sniffUpload, tooLarge, unsupportedType } from '../../common/file-sniffer';
import type { StorageQuota } from './storage-quota';
import { checkQuota } from './storage-quota';

export const FILE_NOT_FOUND = 'File not found';

/** Whose a record is (DESIGN §4): its person's id and name. */
export interface FilePerson {
  id: string;
  name: string | null;
}

/** SPEC §3 listed record fields; `name`, `file_name` and `display_name` are all the user's name for it. */
/** A row as just inserted: no text read yet, no suggestion. */
const FRESH_TEXT = {
  text_status: 'pending',
  text_pages: null,
  text_reason: null,
  suggestion_file_id: null,
  suggested_record_date: null,
  suggested_provider_name: null,
  suggested_visit_reason: null,
} as const;

export function toMedicalFile(row: Omit<MedicalFileRow, 'user_id' | 'profile_id' | 'person_name'>, person: FilePerson): MedicalFile {
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
    person_id: person.id,
    person_name: person.name,
    text_status: row.text_status ?? 'pending',
    text_pages: row.text_pages === null ? null : Number(row.text_pages),
    text_reason: row.text_reason,
    suggestion:
      row.suggestion_file_id === null
        ? null
        : {
            record_date: row.suggested_record_date,
            provider_name: row.suggested_provider_name,
            visit_reason: row.suggested_visit_reason,
          },
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
  /** The one access function (DESIGN §11): whose files a user reaches, and how. */
  access: PersonAccessService;
  /** Issue 33: called once a new file's row is committed (the text runner looks for work at once). */
  onStored?: () => void;
}

/** A route's name in the owner's access history ("GET /api/user/files"), as needOf gives it. */
export type RouteName = string;

/** Newest first, as every file list is ordered. */
const newestFirst = (a: MedicalFileRow, b: MedicalFileRow) =>
  a.created_at === b.created_at ? (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) : a.created_at < b.created_at ? 1 : -1;

export function createMedicalFileService(deps: FileServiceDeps) {
  const { db, blobs, masterKey } = deps;
  const repo = createMedicalFileRepository(db);
  const limits = { maxBytes: deps.maxUploadBytes, maxMb: deps.maxUploadMb };

  /** Decrypts a stored blob. The header and first segment are verified before this resolves, so a
   * damaged file fails before any response header is sent; later segments are verified as they stream. */
  async function openBlob(row: StoredFileRow): Promise<Readable> {
    let source: Readable | undefined;
    let plain: AsyncGenerator<Buffer>;
    let first: IteratorResult<Buffer>;
    try {
      const dataKey = unwrapDataKey(masterKey, row.wrapped_key, fileAssociatedData(row.id, row.user_id));
      source = await blobs.get(row.storage_key);
      plain = decryptStream(source, dataKey, fileBlobAssociatedData(row.id, row.user_id));
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

  async function openAudited(
    row: StoredFileRow,
    audit: { ip: string; via?: string; actorId?: string | null },
  ): Promise<{ file: MedicalFileRow; body: Readable }> {
    const body = await openBlob(row);
    await recordAudit(db, {
      userId: row.user_id,
      action: 'file_download',
      ip: audit.ip,
      profileId: row.profile_id,
      actorId: audit.actorId ?? null,
      detail: { fileId: row.id, ...(audit.via ? { via: audit.via } : {}) },
    });
    return { file: row, body };
  }

  return {
    /**
     * DESIGN §6 upload: parts are read in order, the fields — personId among them — before or after
     * the file; the file streams through the sniffer and the cipher into a temporary blob, sealed
     * for its file id alone; only once every part has arrived is the person settled (absent → the
     * uploader's own profile), the data key wrapped for the person's owner, the blob committed and
     * its row inserted (docs/decisions/0031). Any failure removes the blob.
     */
    async upload(actor: Actor, route: RouteName, parts: AsyncIterable<Multipart>, mode: 'record' | 'file-only'): Promise<MedicalFile> {
      const fileId = newId();
      const dataKey = newDataKey();
      const fields: Record<string, string> = {};
      /** Whom the file is for, once a personId field has named them (DESIGN §11). */
      let person: PersonAccess | undefined;
      let temp: TempBlob | undefined;
      let committed = false;
      let uploaded: { originalName: string; mime: string; size: number } | undefined;

      try {
        for await (const part of parts) {
          if (part.type === 'field') {
            if (part.valueTruncated || part.fieldnameTruncated) throw badRequest(`${part.fieldname.slice(0, 40)} is too long`);
            if (hasUnstorableText(part.value)) throw badRequest(UNSTORABLE_TEXT_MESSAGE);
            if (part.fieldname === UPLOAD_PERSON_FIELD) {
              const personId = String(part.value).trim();
              // DESIGN §11: adding a file is an editor's right; no access is the same 404 as a missing id.
              if (personId !== '') person = await deps.access.require(actor, personId.slice(0, 100), { need: 'editor', what: route });
              continue;
            }
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
          temp = await blobs.putTemp(encryptStream(sniffUpload(part.file, outcome, limits), dataKey, blobAssociatedData(fileId)));
          if (part.file.truncated) throw tooLarge(limits.maxMb);
          if (!outcome.mime) throw unsupportedType();
          uploaded = { originalName: cleanOriginalName(part.filename), mime: outcome.mime, size: outcome.size };
        }
        if (!temp || !uploaded) throw badRequest('No file was uploaded');
        // SPEC routes without a person: the uploader's own profile (DESIGN §4).
        person ??= await deps.access.own(actor.userId);
        const userId = person.ownerId;

        let details: UploadFields = {};
        if (mode === 'record') {
          const parsed = uploadFieldsSchema.safeParse(fields);
          if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid upload fields');
          details = parsed.data;
        }
        // Over the quota already: refused before the blob is committed (the temporary one is
        // discarded below). The insert's transaction decides for good (storage-quota.ts). A file
        // added through a share counts against the person's owner (DESIGN §5, §11).
        await checkQuota(db, userId, uploaded.size, deps.quota, 'this file needs');
        const createdAt = nowIso();
        await blobs.commit(temp, fileId);
        committed = true;
        const row = {
          id: fileId,
          userId,
          profileId: person.profileId,
          // The navigation bar's upload has no Record Name: the file's name without its extension,
          // as the form's Record Name defaults to (SPEC §3; issue 30).
          displayName: blank(details.customName) ?? (mode === 'file-only' ? stripExtension(uploaded.originalName) : uploaded.originalName),
          originalName: uploaded.originalName,
          fileType: uploaded.mime,
          size: uploaded.size,
          storageKey: fileId,
          // The person's owner is bound here, now that every field has arrived (docs/decisions/0031).
          wrappedKey: wrapDataKey(masterKey, dataKey, fileAssociatedData(fileId, userId)),
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
          await blobs
            .delete(fileId)
            .catch((err: unknown) => deps.log.error({ err, fileId }, 'could not remove blob after a failed insert'));
          throw error;
        }
        deps.onStored?.();
        return toMedicalFile(
          {
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
            ...FRESH_TEXT,
          },
          { id: person.profileId, name: await repo.personName(person.profileId) },
        );
      } catch (error) {
        if (temp && !committed) await blobs.discard(temp).catch(() => {});
        throw uploadError(error, limits);
      }
    },

    /** GET /api/user/storage: what Settings shows (DESIGN §5 storage quota). */
    async storage(userId: string): Promise<StorageUsage> {
      return { used_bytes: await repo.storageUsed(userId), quota_bytes: deps.quota.bytes };
    },

    /**
     * GET /api/user/files: the files of every person the user can see (DESIGN §11) — their own
     * account's, and those of the people shared with them — newest first; `person` keeps one
     * person's (404 when the user cannot see that person). Reads through a share are audited, once
     * per shared person whose files the answer holds.
     */
    async list(actor: Actor, route: RouteName, person?: string): Promise<MedicalFile[]> {
      if (person !== undefined) {
        const access = await deps.access.require(actor, person, { need: 'viewer', what: route });
        const rows = await repo.listOfPerson(access.ownerId, access.profileId, access.isSelf);
        const filed: FilePerson = { id: access.profileId, name: await repo.personName(access.profileId) };
        return rows.map((row) => toMedicalFile(row, filed));
      }
      // The hot path (DESIGN §9): the user's own rows, the people shared with them (one query each),
      // and one audit statement for every shared person whose files the answer holds.
      const shared = await deps.access.sharedWith(actor.userId);
      const own = await repo.list(actor.userId);
      const byId = new Map<string, VisiblePerson>(shared.map((p) => [p.profileId, p]));
      // A shared person's rows are theirs only while their owner is the person's owner.
      const theirs = (await repo.listOfPeople([...byId.keys()])).filter(
        (row) => row.profile_id !== null && byId.get(row.profile_id)?.ownerId === row.user_id,
      );
      const touched = new Set(theirs.map((row) => row.profile_id));
      await deps.access.auditAll(
        actor,
        shared.filter((p) => touched.has(p.profileId)),
        route,
      );
      // Rows from before people (no person) are the owner's own profile's; looked up only if any.
      const unfiledRows = own.some((row) => row.profile_id === null);
      const self = unfiledRows ? await deps.access.own(actor.userId).catch(() => undefined) : undefined;
      const unfiled: FilePerson = self ? { id: self.profileId, name: await repo.personName(self.profileId) } : { id: '', name: null };
      // Without shared rows the database's order stands.
      return (theirs.length === 0 ? own : [...own, ...theirs].sort(newestFirst)).map((row) =>
        toMedicalFile(row, row.profile_id === null ? unfiled : { id: row.profile_id, name: row.person_name }),
      );
    },

    /** PUT /api/user/files/{id}: an editor's right on the file's person (DESIGN §11). */
    async rename(actor: Actor, route: RouteName, id: string, newName: string): Promise<MedicalFile> {
      const found = await repo.findById(id);
      if (!found) throw notFound(FILE_NOT_FOUND);
      const access = await deps.access.row(actor, found, { need: 'editor', what: route }, FILE_NOT_FOUND);
      if (!(await repo.rename(access.ownerId, id, newName))) throw notFound(FILE_NOT_FOUND);
      const row = await repo.findById(id);
      if (!row) throw notFound(FILE_NOT_FOUND);
      return toMedicalFile(row, {
        id: access.profileId,
        name: row.profile_id === null ? await repo.personName(access.profileId) : row.person_name,
      });
    },

    /**
     * DELETE /api/user/files/{fileName}: SPEC §7 sends the URL-encoded name; ids are accepted too.
     * An id of a file the user may change (an editor of its person, DESIGN §11) wins; otherwise the
     * newest of the user's own files with exactly that name is deleted — one click deletes one
     * record, never every record that shares a name. A viewer's id answers 403.
     */
    async remove(actor: Actor, route: RouteName, idOrName: string): Promise<void> {
      const byId = await repo.findById(idOrName);
      let ownerId: string | undefined;
      let target: MedicalFileRow | undefined;
      if (byId) {
        try {
          ownerId = (await deps.access.row(actor, byId, { need: 'editor', what: route }, FILE_NOT_FOUND)).ownerId;
          target = byId;
        } catch (error) {
          // Not a file the user reaches: it may still be the name of one of theirs.
          if (!(error instanceof HttpError) || error.statusCode !== 404) throw error;
        }
      }
      if (!target) {
        target = await repo.findNewestByName(actor.userId, idOrName);
        ownerId = actor.userId;
      }
      const key = target && ownerId ? await repo.delete(ownerId, target.id) : undefined;
      if (!key) throw notFound(FILE_NOT_FOUND);
      // Row first, then blob: a record is never listed without its bytes; a blob left by a
      // failure here is removed by the start-up sweep.
      await blobs.delete(key).catch((err: unknown) => deps.log.error({ err }, 'could not remove a deleted file blob'));
    },

    /**
     * GET a record's `url`: the decrypted bytes for anyone who may read the file's person (a viewer
     * and up, DESIGN §11), audited as a download in its owner's trail.
     */
    async openContent(actor: Actor, route: RouteName, id: string): Promise<{ file: MedicalFileRow; body: Readable }> {
      const row = await repo.findStored(id);
      if (!row) throw notFound(FILE_NOT_FOUND);
      const access = await deps.access.row(actor, row, { need: 'viewer', what: route }, FILE_NOT_FOUND);
      return openAudited(row, { ip: actor.ip ?? '', actorId: actor.userId === access.ownerId ? null : actor.userId });
    },

    /** The bytes of a row the caller has already checked (a share link's), audited as a download. */
    async openChecked(row: MedicalFileRow, audit: { ip: string; via: string }): Promise<{ file: MedicalFileRow; body: Readable }> {
      const stored = await repo.findStored(row.id);
      if (!stored || stored.user_id !== row.user_id) throw notFound(FILE_NOT_FOUND);
      return openAudited(stored, { ip: audit.ip, via: audit.via });
    },

    /**
     * Issue 33: a stored file's decrypted bytes, whole, for the text runner (not a download: no
     * reader, no audit). Undefined when the file is gone.
     */
    async readForText(id: string): Promise<Buffer | undefined> {
      const row = await repo.findStored(id);
      if (!row) return undefined;
      const chunks: Buffer[] = [];
      for await (const chunk of await openBlob(row)) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
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
