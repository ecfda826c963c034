import { z } from 'zod';
import { isoDateSchema } from './common';

// Issue 34 (docs/decisions/0052): lab values found in a file's text, proposed for review, accepted
// as lab results of the file's person; the table of tests searched to map an unmapped row.

/** A flag as a report prints it, as HL7 v3 ObservationInterpretation codes (high, low, abnormal). */
export const LAB_FLAGS = ['H', 'L', 'A'] as const;

/** Where finding a file's lab values stands: its text is not read yet, rows were found, or none (text read, unreadable or not read at all). */
export const LAB_RESULTS_STATUSES = ['pending', 'done', 'none'] as const;

/** One row found in a file's text (GET /api/user/files/{id}/lab-results). */
export const foundLabResultSchema = z.object({
  name: z.string(),
  /** The LOINC code of the table the name maps to; null when unmapped. */
  loinc: z.string().nullable(),
  /** The table's display for that code. */
  loinc_display: z.string().nullable(),
  /** A number, or the result as written when it is not one ("positive", "< 0,5"). */
  value: z.union([z.number(), z.string()]),
  unit: z.string().nullable(),
  ucum_unit: z.string().nullable(),
  reference_low: z.number().nullable(),
  reference_high: z.number().nullable(),
  reference_text: z.string().nullable(),
  flag: z.enum(LAB_FLAGS).nullable(),
  date: z.string().nullable(),
  /** 1-based. */
  page: z.number().int().min(1),
  /** 0-based index of the source line in the page's text split on "\n". */
  line: z.number().int().min(0),
  source_text: z.string(),
});
export type FoundLabResult = z.infer<typeof foundLabResultSchema>;

export const fileLabResultsSchema = z.object({
  status: z.enum(LAB_RESULTS_STATUSES),
  results: z.array(foundLabResultSchema),
});
export type FileLabResults = z.infer<typeof fileLabResultsSchema>;

/** The routes of a file's lab values. */
export const fileLabResultsPath = (id: string): string => `/api/user/files/${encodeURIComponent(id)}/lab-results`;
export const acceptLabResultsPath = (id: string): string => `${fileLabResultsPath(id)}/accept`;

/** The most rows one accept takes. */
export const MAX_ACCEPTED_LAB_RESULTS = 500;

const finiteOrNull = z
  .union([z.number(), z.null()], { error: 'must be a number or null' })
  .refine((v) => v === null || (Number.isFinite(v) && Math.abs(v) < 1e12), 'must be a finite number or null');

const textOrNull = (max: number) =>
  z
    .union([z.string().trim().max(max, `must be at most ${max} characters`), z.null()], {
      error: `must be text of at most ${max} characters or null`,
    })
    .optional()
    .transform((v) => (v === undefined || v === '' ? null : v));

/** The latest calendar date anywhere on Earth now (UTC+14): a collection date after it lies in the future. */
function latestToday(): string {
  return new Date(Date.now() + 14 * 3_600_000).toISOString().slice(0, 10);
}

/** One row to add, as found or edited in the review. */
export const acceptLabResultSchema = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  /** A code of the table, or null (checked against the table on the server). */
  loinc: z.union([z.string().trim().max(20), z.null()], { error: 'must be a LOINC code of the table or null' }),
  loinc_display: z.string().max(500).nullable().optional(),
  value: z.union(
    [
      z.number().refine((v) => Number.isFinite(v) && Math.abs(v) < 1e12, 'must be a finite number'),
      z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
    ],
    { error: 'must be a number or a text of 1 to 100 characters' },
  ),
  unit: textOrNull(40),
  ucum_unit: z.string().max(60).nullable().optional(),
  reference_low: finiteOrNull,
  reference_high: finiteOrNull,
  reference_text: textOrNull(100),
  flag: z.enum(LAB_FLAGS, { error: `must be one of ${LAB_FLAGS.join(', ')} or null` }).nullable(),
  date: z
    .union([isoDateSchema, z.null()], { error: 'must be a date as YYYY-MM-DD or null' })
    .refine((v) => v === null || v <= latestToday(), 'must not be in the future'),
  page: z.number({ error: 'must be a page number' }).int('must be a whole number').min(1, 'must be at least 1'),
  line: z.number().int().min(0).optional(),
  source_text: z.string().max(2000).optional(),
});

/** POST /api/user/files/{id}/lab-results/accept. */
export const acceptLabResultsInputSchema = z.object({
  results: z
    .array(acceptLabResultSchema, { error: 'must be a list of rows' })
    .min(1, 'must hold at least one row')
    .max(MAX_ACCEPTED_LAB_RESULTS, `must hold at most ${MAX_ACCEPTED_LAB_RESULTS} rows`),
});
export type AcceptLabResultsInput = z.input<typeof acceptLabResultsInputSchema>;

export const acceptLabResultsAnswerSchema = z.object({
  created: z.number().int().min(0),
  already_present: z.number().int().min(0),
});
export type AcceptLabResultsAnswer = z.infer<typeof acceptLabResultsAnswerSchema>;

/** GET /api/user/lab-tests?q=: the table's tests whose names begin with the words asked for. */
export const labTestsQuerySchema = z.object({
  q: z
    .string({ error: 'must be text of 1 to 100 characters' })
    .trim()
    .min(1, 'must not be empty')
    .max(100, 'must be at most 100 characters'),
});
export const labTestsSchema = z.object({
  tests: z.array(z.object({ loinc: z.string(), name: z.string(), ucum_unit: z.string() })),
});
export type LabTests = z.infer<typeof labTestsSchema>;
export const LAB_TESTS_LIMIT = 20;
export const labTestsPath = (q: string): string => `/api/user/lab-tests?q=${encodeURIComponent(q)}`;
