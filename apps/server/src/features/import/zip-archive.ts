import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import yauzl from 'yauzl';
import { HttpError, badRequest } from '../../lib/http-errors';
import type { Spool } from './encrypted-spool';
import type { ImportLimits } from './import-limits';
import { ARCHIVE_RATIO_FLOOR_BYTES, mb } from './import-limits';

// Reading an uploaded zip without trusting it (decision 0004: "a zip bomb"). Before a single byte is
// inflated, the central directory is checked: entry count, the declared uncompressed total and its
// ratio to the zip's size, each entry's compression ratio, encryption and unsafe names. yauzl then holds every entry to its
// declared size while it inflates (validateEntrySizes), so the declared sizes can be trusted; the
// CRC-32 of each entry is checked as it streams (yauzl does not), so a damaged zip is refused.

export const DAMAGED_ZIP = 'The zip file is damaged or incomplete.';
/** Entries smaller than this are never called bombs, however well they compress (JSON compresses ~10×). */
const RATIO_FLOOR_BYTES = 1024 * 1024;

export interface ZipArchive {
  /** Entries by name (directories left out). */
  entries: Map<string, yauzl.Entry>;
  /** The entry's bytes, checked against its size and CRC-32 as they stream. */
  open(entry: yauzl.Entry): Promise<Readable>;
  read(entry: yauzl.Entry): Promise<Buffer>;
  close(): void;
}

export async function openZip(spool: Spool, limits: ImportLimits): Promise<ZipArchive> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromRandomAccessReaderPromise(spool.reader(), spool.size, {
      lazyEntries: true,
      // Entries are opened after the directory has been read through; the spool is removed by its owner.
      autoClose: false,
      decodeStrings: true,
      validateEntrySizes: true,
      strictFileNames: true,
    });
  } catch {
    throw badRequest(DAMAGED_ZIP);
  }
  if (zip.entryCount > limits.maxEntries) {
    throw new HttpError(413, `The zip holds ${zip.entryCount} entries; an import may hold at most ${limits.maxEntries}.`);
  }

  const entries = new Map<string, yauzl.Entry>();
  let total = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName.endsWith('/')) continue;
      if (entry.isEncrypted()) throw badRequest('The zip is password-protected; export it again without a password.');
      if (!entry.canDecodeFileData()) throw badRequest(`${entry.fileName}: this zip uses a compression method Kinchart cannot read.`);
      if (entries.has(entry.fileName)) throw badRequest(`${entry.fileName} appears twice in the zip.`);
      total += entry.uncompressedSize;
      if (total > limits.maxUncompressedBytes) {
        throw new HttpError(
          413,
          `The zip expands to more than ${mb(limits.maxUncompressedBytes)} MB; that is more than an import may hold.`,
        );
      }
      const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
      if (entry.uncompressedSize > RATIO_FLOOR_BYTES && ratio > limits.maxRatio) {
        throw new HttpError(413, `${entry.fileName} expands ${Math.floor(ratio)} times; Kinchart refuses zip bombs.`);
      }
      // The whole archive, not only each entry: many entries just under the per-entry floor would
      // otherwise multiply a small upload hundreds of times (decision 0012).
      const overall = total / Math.max(1, spool.size);
      if (total > ARCHIVE_RATIO_FLOOR_BYTES && overall > limits.maxArchiveRatio) {
        throw new HttpError(413, `The zip expands ${Math.floor(overall)} times in total; Kinchart refuses zip bombs.`);
      }
      entries.set(entry.fileName, entry);
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    // yauzl refuses absolute paths, "..", backslashes and malformed headers here.
    throw badRequest(
      `${DAMAGED_ZIP} ${(error as Error).message.includes('invalid relative path') ? 'It holds an unsafe file name.' : ''}`.trim(),
    );
  }

  async function open(entry: yauzl.Entry): Promise<Readable> {
    let raw: Readable;
    try {
      raw = await zip.openReadStreamPromise(entry);
    } catch {
      throw badRequest(DAMAGED_ZIP);
    }
    // The CRC-32 check, chained in front of whoever reads the entry.
    async function* checked() {
      let crc = 0;
      try {
        for await (const chunk of raw) {
          crc = zlib.crc32(chunk as Buffer, crc);
          yield chunk as Buffer;
        }
      } catch {
        throw badRequest(`${entry.fileName}: ${DAMAGED_ZIP}`);
      }
      if (crc >>> 0 !== entry.crc32 >>> 0) throw badRequest(`${entry.fileName}: ${DAMAGED_ZIP}`);
    }
    return Readable.from(checked(), { objectMode: false });
  }

  return {
    entries,
    open,
    async read(entry) {
      const chunks: Buffer[] = [];
      for await (const chunk of await open(entry)) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    close: () => zip.close(),
  };
}
