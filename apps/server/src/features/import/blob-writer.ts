import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from '../../lib/http-errors';
import { newId } from '../../lib/ids';
import type { BlobStore, TempBlob } from '../../storage/blob-store';
import { blobAssociatedData, encryptStream, fileAssociatedData, newDataKey, wrapDataKey } from '../../storage/envelope';
import type { SniffOutcome } from '../../common/file-sniffer';
import { sniffUpload, unsupportedType } from '../../common/file-sniffer';
import { mb } from './import-limits';

// Imported files go through what an upload goes through (DESIGN §6): the bytes decide the type
// (allowlist), MAX_UPLOAD_MB holds, each file gets its own data key, and only ciphertext reaches
// storage. Blobs are committed before the database transaction (decision 0004: "blobs written first"), and
// every one of them is removed again if anything after fails — nothing half imported stays.

export interface StoredImportFile {
  id: string;
  mime: string;
  size: number;
  wrappedKey: string;
}

export function createBlobWriter(deps: { blobs: BlobStore; masterKey: Buffer; maxFileBytes: number; log: FastifyBaseLogger }) {
  const committed: string[] = [];
  const maxMb = Number(mb(deps.maxFileBytes));

  return {
    /** Sniffs, encrypts and commits one file for `userId`; `label` names it in error messages. */
    async write(userId: string, source: AsyncIterable<Uint8Array>, label: string): Promise<StoredImportFile> {
      const id = newId();
      const dataKey = newDataKey();
      const outcome: SniffOutcome = { mime: null, size: 0 };
      let temp: TempBlob | undefined;
      try {
        temp = await deps.blobs.putTemp(
          encryptStream(sniffUpload(source, outcome, { maxBytes: deps.maxFileBytes, maxMb }), dataKey, blobAssociatedData(id)),
        );
        if (!outcome.mime) throw unsupportedType();
        await deps.blobs.commit(temp, id);
        committed.push(id);
      } catch (error) {
        if (temp && !committed.includes(id)) await deps.blobs.discard(temp).catch(() => undefined);
        // Name the file the message is about: "files/scan.exe: This file type is not supported…".
        if (error instanceof HttpError) throw new HttpError(error.statusCode, `${label}: ${error.message}`, error.extra, error.headers);
        throw error;
      }
      return {
        id,
        mime: outcome.mime,
        size: outcome.size,
        wrappedKey: wrapDataKey(deps.masterKey, dataKey, fileAssociatedData(id, userId)),
      };
    },

    /** Removes every blob this writer committed (the import failed after them). */
    async removeAll(): Promise<void> {
      await this.remove([...committed]);
    },

    /** Removes some of the committed blobs (files that proved, under the lock, to be there already). */
    async remove(keys: readonly string[]): Promise<void> {
      for (const key of keys) {
        const at = committed.indexOf(key);
        if (at < 0) continue;
        committed.splice(at, 1);
        await deps.blobs
          .delete(key)
          .catch((err: unknown) => deps.log.error({ err: { message: (err as Error).message } }, 'could not remove a blob of an import'));
      }
    },
  };
}
