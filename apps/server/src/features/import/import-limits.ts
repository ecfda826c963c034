// What an import may hold (decision 0004: oversize input and zip bombs get a clear 4xx and change
// nothing). The caps are generous for a real family's records and low enough that no upload can fill
// the disk or the memory: the zip itself, what it expands to in total and relative to its own size,
// how many entries it has and how far any one entry expands. JSON (kinchart.json, a FHIR Bundle) is
// parsed in memory, so it has its own cap; each file is held to MAX_UPLOAD_MB like any upload; and
// what an import stores counts against the account's STORAGE_QUOTA_MB (DESIGN §5, decision 0012).
export interface ImportLimits {
  /** The uploaded zip or JSON file. */
  maxImportBytes: number;
  /** The sum of a zip's declared (and enforced) uncompressed entry sizes. */
  maxUncompressedBytes: number;
  maxEntries: number;
  /** Largest uncompressed/compressed ratio of an entry over 1 MiB. */
  maxRatio: number;
  /**
   * Largest ratio of the whole zip: the sum of its entries' uncompressed sizes over the zip's own
   * size, once that sum passes ARCHIVE_RATIO_FLOOR_BYTES. Many small entries that each stay under the
   * per-entry floor cannot multiply an upload either.
   */
  maxArchiveRatio: number;
  /** kinchart.json or a FHIR Bundle. */
  maxJsonBytes: number;
  /** Each file (MAX_UPLOAD_MB). */
  maxFileBytes: number;
}

const MiB = 1024 * 1024;

/**
 * Below this much in total a zip is never called a bomb, however well it compresses: a small export
 * re-zipped with compression (kinchart.json compresses ~10x, often more) stays importable. Above it,
 * an archive may expand at most `maxArchiveRatio` times its own size — so whatever its size, no zip
 * stores more than max(20 × the upload, 4 MiB) (docs/decisions/0031; 16 MiB before, which let an
 * 18 KB zip store 15.7 MB).
 */
export const ARCHIVE_RATIO_FLOOR_BYTES = 4 * MiB;

export const DEFAULT_IMPORT_LIMITS: Omit<ImportLimits, 'maxFileBytes'> = {
  maxImportBytes: 4096 * MiB,
  // Kinchart's own export stores its entries uncompressed, so a real one expands to about its own
  // size: no more than the largest upload an import may be.
  maxUncompressedBytes: 4096 * MiB,
  maxEntries: 20_000,
  maxRatio: 100,
  // Files (PDFs, images) barely compress; an export of them expands a few times at most, even with
  // much text in it.
  maxArchiveRatio: 20,
  maxJsonBytes: 64 * MiB,
};

export const mb = (bytes: number): string => String(Math.round((bytes / MiB) * 10) / 10);
