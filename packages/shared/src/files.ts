import { z } from 'zod';
import { stripInvisible } from './text';
import { isoDateSchema } from './common';
import { TEXT_STATUSES, fileSuggestionSchema } from './search';

// SPEC §3 "Medical record file", §7 Files, §9 (size units); DESIGN §6 (allowlist).

/** View Records type filter values (SPEC §9). */
export const FILE_CATEGORIES = ['pdf', 'image', 'document'] as const;
export type FileCategory = (typeof FILE_CATEGORIES)[number];

export interface AcceptedFileType {
  /** The MIME type the server stores after sniffing the bytes; a declared type never decides. */
  mime: string;
  label: string;
  category: FileCategory;
  /** First one is used when a download name needs an extension. */
  extensions: readonly string[];
}

/** DESIGN §6 allowlist, in the order the 415 message names them. */
export const ACCEPTED_FILE_TYPES: readonly AcceptedFileType[] = [
  { mime: 'application/pdf', label: 'PDF', category: 'pdf', extensions: ['pdf'] },
  { mime: 'image/jpeg', label: 'JPEG', category: 'image', extensions: ['jpg', 'jpeg'] },
  { mime: 'image/png', label: 'PNG', category: 'image', extensions: ['png'] },
  { mime: 'image/gif', label: 'GIF', category: 'image', extensions: ['gif'] },
  { mime: 'image/webp', label: 'WebP', category: 'image', extensions: ['webp'] },
  { mime: 'image/heic', label: 'HEIC', category: 'image', extensions: ['heic'] },
  { mime: 'image/heic-sequence', label: 'HEIC', category: 'image', extensions: ['heics', 'heic'] },
  { mime: 'image/heif', label: 'HEIF', category: 'image', extensions: ['heif', 'heic'] },
  { mime: 'image/heif-sequence', label: 'HEIF', category: 'image', extensions: ['heifs', 'heif'] },
  { mime: 'image/tiff', label: 'TIFF', category: 'image', extensions: ['tif', 'tiff'] },
  {
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    label: 'DOCX',
    category: 'document',
    extensions: ['docx'],
  },
  {
    mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    label: 'XLSX',
    category: 'document',
    extensions: ['xlsx'],
  },
  { mime: 'application/msword', label: 'DOC', category: 'document', extensions: ['doc'] },
  { mime: 'text/plain', label: 'plain text', category: 'document', extensions: ['txt'] },
  // A medical image, though browsers cannot show it: filtered with images, downloaded as attachment.
  { mime: 'application/dicom', label: 'DICOM', category: 'image', extensions: ['dcm'] },
];

const byMime = new Map(ACCEPTED_FILE_TYPES.map((t) => [t.mime, t]));

export const isAcceptedMime = (mime: string): boolean => byMime.has(mime);

export const acceptedFileType = (mime: string): AcceptedFileType | undefined => byMime.get(mime);

/** 'PDF, JPEG, PNG, GIF, WebP, HEIC, HEIF, TIFF, DOCX, XLSX, DOC, plain text, DICOM'. */
export const ACCEPTED_TYPES_LABEL = [...new Set(ACCEPTED_FILE_TYPES.map((t) => t.label))].join(', ');

/** Answer to an upload whose bytes are not on the allowlist (415). */
export const UNSUPPORTED_FILE_MESSAGE = `This file type is not supported. Accepted types: ${ACCEPTED_TYPES_LABEL}.`;

/** Answer to an upload over MAX_UPLOAD_MB (413). */
export const fileTooLargeMessage = (maxMb: number): string => `File is larger than ${maxMb} MB`;

/** MAX_UPLOAD_MB back from its byte count, for messages worded like the server's 413. */
export const uploadLimitMb = (maxBytes: number): number => Math.round((maxBytes / (1024 * 1024)) * 100) / 100;

/** The `accept` attribute for file pickers: a hint for the picker only; the server sniffs the bytes. */
export const FILE_INPUT_ACCEPT = [...new Set(ACCEPTED_FILE_TYPES.flatMap((t) => [t.mime, ...t.extensions.map((e) => `.${e}`)]))].join(',');

/** Which View Records filter a stored type falls under; null for none of pdf/image/document. */
export function fileCategory(mime: string): FileCategory | null {
  return byMime.get(mime)?.category ?? null;
}

/** Shown inline in the browser (with a sandbox CSP) rather than downloaded (DESIGN §6). */
export function isInlineType(mime: string): boolean {
  return mime === 'application/pdf' || (mime.startsWith('image/') && byMime.has(mime));
}

const SIZE_UNITS = ['Bytes', 'KB', 'MB', 'GB'] as const;

/** SPEC §9: "File size units: Bytes, KB, MB, GB, base 1024". 1536 → '1.5 KB'. */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), SIZE_UNITS.length - 1);
  const value = bytes / 1024 ** exponent;
  return `${Number.parseFloat(value.toFixed(2))} ${SIZE_UNITS[exponent]}`;
}

/** GET /api/user/storage: the account's stored bytes (its files' sizes) and its quota, STORAGE_QUOTA_MB. */
export const STORAGE_PATH = '/api/user/storage';

export const storageUsageSchema = z.object({
  used_bytes: z.number().int().min(0),
  quota_bytes: z.number().int().positive(),
});
export type StorageUsage = z.infer<typeof storageUsageSchema>;

/** The name without its last extension: the upload form's default Record Name (SPEC §3). */
export function stripExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

export const FILE_NAME_MAX = 255;

/** PUT /api/user/files/{id} — SPEC §5 Rename: a non-empty trimmed name. */
export const renameFileSchema = z.object({
  newName: z
    .string({ message: 'File name cannot be empty' })
    .transform(stripInvisible)
    .pipe(
      z.string().trim().min(1, 'File name cannot be empty').max(FILE_NAME_MAX, `File name must be at most ${FILE_NAME_MAX} characters`),
    ),
});
export type RenameFileInput = z.infer<typeof renameFileSchema>;

/** An instant as the browser's `toISOString()` writes it (or with an offset). */
const isoInstantSchema = z.iso.datetime({ offset: true, message: 'must be a date (YYYY-MM-DD) or an ISO date-time' });

/**
 * POST /api/user/files text fields (SPEC §3). Every field is optional on the wire: customName
 * falls back to the file's name and an empty customDate to "now" (the server fills both).
 */
export const uploadFieldsSchema = z.object({
  customName: z
    .string()
    .transform(stripInvisible)
    .pipe(z.string().trim().max(FILE_NAME_MAX, `Record Name must be at most ${FILE_NAME_MAX} characters`))
    .optional(),
  customDate: z
    .string()
    .trim()
    .refine((v) => v === '' || isoDateSchema.safeParse(v).success || isoInstantSchema.safeParse(v).success, {
      message: 'Visit Date must be a date (YYYY-MM-DD) or an ISO date-time',
    })
    .optional(),
  providerName: z.string().trim().max(200, 'Healthcare Provider must be at most 200 characters').optional(),
  visitLocation: z.string().trim().max(200, 'Visit Location must be at most 200 characters').optional(),
  visitReason: z.string().trim().max(1000, 'Reason for Visit must be at most 1000 characters').optional(),
  /**
   * DESIGN §11: the person the file is for (the upload form's "For"); absent or empty → the
   * uploader's own profile. Before or after the file part: the person's owner is bound when the
   * upload completes (docs/decisions/0031).
   */
  personId: z.string().trim().max(100, 'personId must be at most 100 characters').optional(),
});
export type UploadFields = z.infer<typeof uploadFieldsSchema>;
export const UPLOAD_FIELD_NAMES = ['customName', 'customDate', 'providerName', 'visitLocation', 'visitReason', 'personId'] as const;
/** The multipart field naming whom an upload is for (DESIGN §11). */
export const UPLOAD_PERSON_FIELD = 'personId';

/** One record as GET /api/user/files lists it: every field SPEC §3 names, and whose it is — nothing else. */
export const medicalFileSchema = z.object({
  id: z.string(),
  record_id: z.string(),
  name: z.string(),
  file_name: z.string(),
  display_name: z.string(),
  originalname: z.string(),
  file_type: z.string(),
  /** GET this to stream the decrypted bytes (owner only). */
  url: z.string(),
  created_at: z.string(),
  record_date: z.string().nullable(),
  record_details: z.object({
    provider_name: z.string().nullable(),
    visit_location: z.string().nullable(),
    visit_reason: z.string().nullable(),
  }),
  provider_name: z.string().nullable(),
  visit_location: z.string().nullable(),
  visit_reason: z.string().nullable(),
  metadata: z.object({ size: z.number() }),
  /** DESIGN §4, §11: the person the record belongs to, and that person's name. */
  person_id: z.string(),
  person_name: z.string().nullable(),
  /** Issue 33: where reading the file's text stands, its page count once read, and why it failed or is not read. */
  text_status: z.enum(TEXT_STATUSES),
  text_pages: z.number().int().nullable(),
  text_reason: z.string().nullable(),
  /** What the text suggests for the record's date, provider and reason; null when nothing (or once applied or dismissed). */
  suggestion: fileSuggestionSchema.nullable(),
});
export type MedicalFile = z.infer<typeof medicalFileSchema>;
export const medicalFileListSchema = z.array(medicalFileSchema);

/** The content path a record's `url` holds. */
export const fileContentPath = (id: string): string => `/api/user/files/${encodeURIComponent(id)}/content`;

// Time-limited links for the View Files modal's QR code (decision 0006: SPEC leaves this call unshown).
export const SHARE_LINK_MAX_FILES = 20;
export const SHARE_LINK_TTL_HOURS = 24;

export const createShareLinkSchema = z.object({
  fileIds: z
    .array(z.string().min(1).max(64), { message: 'fileIds must be a list of file ids' })
    .min(1, 'Select at least one file')
    .max(SHARE_LINK_MAX_FILES, `Select at most ${SHARE_LINK_MAX_FILES} files`),
});
export type CreateShareLinkInput = z.infer<typeof createShareLinkSchema>;

export const shareLinkSchema = z.object({
  id: z.string(),
  /** PUBLIC_URL + /shared/{token}: opens the selected files without signing in. */
  url: z.string(),
  expires_at: z.string(),
});
export type ShareLink = z.infer<typeof shareLinkSchema>;

export const sharedFileSchema = z.object({
  id: z.string(),
  name: z.string(),
  file_type: z.string(),
  size: z.number(),
  url: z.string(),
});

/** GET /api/shared/{token}: what a signed-out visitor of a share link sees. */
export const sharedFilesResponseSchema = z.object({
  files: z.array(sharedFileSchema),
  expires_at: z.string(),
});
export type SharedFilesResponse = z.infer<typeof sharedFilesResponseSchema>;

/** Expired, revoked and unknown links all answer 404 with this one message. */
export const SHARE_LINK_GONE_MESSAGE = 'This link has expired or is no longer available';
