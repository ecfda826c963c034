import { z } from 'zod';

// Issue 33 (DESIGN §14): the text read from every file, the suggestions it gives, and one search
// over everything a reader may see. Payloads only; the server and the web app share them.

// ---------- text of a file ----------

/** Where a file's text stands: queued, being read, read, failed (with a reason), or a kind nobody reads. */
export const TEXT_STATUSES = ['pending', 'processing', 'done', 'failed', 'unsupported'] as const;
export type TextStatus = (typeof TEXT_STATUSES)[number];

/** GET /api/user/files/{id}/text. Pages number from 1; an image is one page. */
export const fileTextSchema = z.object({
  text_status: z.enum(TEXT_STATUSES),
  pages: z.array(z.object({ page: z.number().int().min(1), text: z.string() })),
});
export type FileText = z.infer<typeof fileTextSchema>;

/** The route of a file's text. */
export const fileTextPath = (id: string): string => `/api/user/files/${encodeURIComponent(id)}/text`;

// ---------- suggestions (never applied without the user's click) ----------

export const SUGGESTION_FIELDS = ['record_date', 'provider_name', 'visit_reason'] as const;
export type SuggestionField = (typeof SUGGESTION_FIELDS)[number];

/** What a file's text suggests for its record; each null when nothing was found. On GET /api/user/files as `suggestion`. */
export const fileSuggestionSchema = z.object({
  record_date: z.string().nullable(),
  provider_name: z.string().nullable(),
  visit_reason: z.string().nullable(),
});
export type FileSuggestion = z.infer<typeof fileSuggestionSchema>;

/** POST /api/user/files/{id}/suggestion/apply: the fields to take (all the suggestion has when left out). */
export const applySuggestionInputSchema = z
  .object({
    fields: z
      .array(z.enum(SUGGESTION_FIELDS, { error: `fields must be among ${SUGGESTION_FIELDS.join(', ')}` }))
      .min(1, 'fields must name at least one field')
      .max(SUGGESTION_FIELDS.length)
      .optional(),
  })
  .strict();
export type ApplySuggestionInput = z.infer<typeof applySuggestionInputSchema>;

// ---------- the languages documents are written in (OCR) ----------

/** Languages the server can read scans in: the code the app uses, Tesseract's, and the name people see. */
export const DOCUMENT_LANGUAGES = [
  { code: 'en', tesseract: 'eng', label: 'English' },
  { code: 'es', tesseract: 'spa', label: 'Español' },
  { code: 'fr', tesseract: 'fra', label: 'Français' },
  { code: 'de', tesseract: 'deu', label: 'Deutsch' },
  { code: 'pt', tesseract: 'por', label: 'Português' },
  { code: 'it', tesseract: 'ita', label: 'Italiano' },
  { code: 'nl', tesseract: 'nld', label: 'Nederlands' },
  { code: 'pl', tesseract: 'pol', label: 'Polski' },
  { code: 'uk', tesseract: 'ukr', label: 'Українська' },
  { code: 'zh', tesseract: 'chi_sim', label: '中文（简体）' },
  { code: 'ja', tesseract: 'jpn', label: '日本語' },
  { code: 'hi', tesseract: 'hin', label: 'हिन्दी' },
  { code: 'ar', tesseract: 'ara', label: 'العربية' },
] as const;
export type DocumentLanguage = (typeof DOCUMENT_LANGUAGES)[number]['code'];
const DOCUMENT_LANGUAGE_CODES = DOCUMENT_LANGUAGES.map((l) => l.code) as [DocumentLanguage, ...DocumentLanguage[]];
/** At most this many at once: each language read slows OCR down. */
export const DOCUMENT_LANGUAGES_MAX = 4;
/** An account that never chose reads its scans in English. */
export const DEFAULT_DOCUMENT_LANGUAGES: DocumentLanguage[] = ['en'];

export const documentLanguagesSchema = z
  .array(z.enum(DOCUMENT_LANGUAGE_CODES, { error: `document_languages must be among ${DOCUMENT_LANGUAGE_CODES.join(', ')}` }))
  .min(1, 'document_languages must name at least one language')
  .max(DOCUMENT_LANGUAGES_MAX, `document_languages may name at most ${DOCUMENT_LANGUAGES_MAX} languages`)
  .refine((list) => new Set(list).size === list.length, 'document_languages must not repeat a language');

/**
 * The document languages a browser's languages suggest (`navigator.languages`): those Kinchart
 * reads, in the browser's order, English kept, at most DOCUMENT_LANGUAGES_MAX.
 */
export function documentLanguagesFor(browserLanguages: readonly string[]): DocumentLanguage[] {
  const chosen: DocumentLanguage[] = [];
  for (const tag of browserLanguages) {
    const base = tag.toLowerCase().split('-')[0] as DocumentLanguage;
    if (DOCUMENT_LANGUAGE_CODES.includes(base) && !chosen.includes(base)) chosen.push(base);
  }
  if (!chosen.includes('en')) chosen.push('en');
  return chosen.slice(0, DOCUMENT_LANGUAGES_MAX);
}

// ---------- one search ----------

export const SEARCH_KINDS = [
  'file',
  'medication',
  'condition',
  'allergy',
  'immunization',
  'lab-result',
  'procedure',
  'appointment',
  'contact',
  'provider',
] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

export const SEARCH_PATH = '/api/user/search';
export const SEARCH_QUERY_MAX = 200;
export const SEARCH_LIMIT_DEFAULT = 20;
export const SEARCH_LIMIT_MAX = 50;
export const SEARCH_EMPTY_MESSAGE = 'Enter something to search for.';
export const SEARCH_TOO_LONG_MESSAGE = `A search may be at most ${SEARCH_QUERY_MAX} characters.`;

/** GET /api/user/search?q=…&person=…&kind=…&limit=20&cursor=… (`kind` narrows to one kind: View Records asks for files). */
export const searchQuerySchema = z.object({
  q: z
    .string({ error: SEARCH_EMPTY_MESSAGE })
    .max(SEARCH_QUERY_MAX, SEARCH_TOO_LONG_MESSAGE)
    .transform((q) => q.trim())
    .refine((q) => q !== '', SEARCH_EMPTY_MESSAGE),
  person: z.string().trim().min(1, 'person must be a person id').optional(),
  kind: z.enum(SEARCH_KINDS, { error: `kind must be among ${SEARCH_KINDS.join(', ')}` }).optional(),
  limit: z.coerce
    .number({ error: `limit must be a whole number from 1 to ${SEARCH_LIMIT_MAX}` })
    .int(`limit must be a whole number from 1 to ${SEARCH_LIMIT_MAX}`)
    .min(1, `limit must be a whole number from 1 to ${SEARCH_LIMIT_MAX}`)
    .max(SEARCH_LIMIT_MAX, `limit must be a whole number from 1 to ${SEARCH_LIMIT_MAX}`)
    .default(SEARCH_LIMIT_DEFAULT),
  cursor: z.string().max(200, 'cursor is not one this search gave').optional(),
});
export type SearchQuery = z.infer<typeof searchQuerySchema>;

/** One hit. `highlights` are [start, end) offsets (UTF-16, as JavaScript counts) into `snippet`. */
export const searchResultSchema = z.object({
  kind: z.enum(SEARCH_KINDS),
  id: z.string(),
  person_id: z.string(),
  person_name: z.string().nullable(),
  title: z.string(),
  date: z.string().nullable(),
  snippet: z.string(),
  highlights: z.array(z.tuple([z.number().int(), z.number().int()])),
  /** Files only: the page the snippet is on (from 1). */
  page: z.number().int().min(1).optional(),
  /** Where the web app opens the result. */
  url: z.string(),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

export const searchResponseSchema = z.object({
  results: z.array(searchResultSchema),
  /** Pass back as `cursor` for the next results; null when there are no more. */
  next_cursor: z.string().nullable(),
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;
