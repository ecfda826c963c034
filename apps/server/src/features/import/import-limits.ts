// What an import may hold (issue 7: oversize input and zip bombs get a clear 4xx and change nothing).
// Kinchart keeps no quota, so the caps are generous for a real family's records and low enough that
// no upload can fill the disk or the memory: the zip itself, what it expands to, how many entries
// it has and how far any one entry expands. JSON (kinchart.json, a FHIR Bundle) is parsed in memory,
// so it has its own cap; each file is held to MAX_UPLOAD_MB like any upload.
export interface ImportLimits {
  /** The uploaded zip or JSON file. */
  maxImportBytes: number;
  /** The sum of a zip's declared (and enforced) uncompressed entry sizes. */
  maxUncompressedBytes: number;
  maxEntries: number;
  /** Largest uncompressed/compressed ratio of an entry over 1 MiB. */
  maxRatio: number;
  /** kinchart.json or a FHIR Bundle. */
  maxJsonBytes: number;
  /** Each file (MAX_UPLOAD_MB). */
  maxFileBytes: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_IMPORT_LIMITS: Omit<ImportLimits, 'maxFileBytes'> = {
  maxImportBytes: 4096 * MiB,
  maxUncompressedBytes: 8192 * MiB,
  maxEntries: 20_000,
  maxRatio: 100,
  maxJsonBytes: 64 * MiB,
};

export const mb = (bytes: number): string => String(Math.round((bytes / MiB) * 10) / 10);
