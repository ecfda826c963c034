import { z } from 'zod';

// Issue 34: the payloads of the review screen, as the brief's contract gives them. Temporary home:
// replaced by the shared schemas (packages/shared) once the server's branch is merged.

export const LAB_FLAGS = ['H', 'L', 'A'] as const;
export type LabFlag = (typeof LAB_FLAGS)[number];

export const foundLabResultSchema = z.object({
  name: z.string(),
  loinc: z.string().nullable(),
  loinc_display: z.string().nullable(),
  value: z.union([z.number(), z.string()]),
  unit: z.string().nullable(),
  ucum_unit: z.string().nullable(),
  reference_low: z.number().nullable(),
  reference_high: z.number().nullable(),
  reference_text: z.string().nullable(),
  flag: z.enum(LAB_FLAGS).nullable(),
  date: z.string().nullable(),
  page: z.number().int(),
  line: z.number().int(),
  source_text: z.string(),
});
export type FoundLabResult = z.infer<typeof foundLabResultSchema>;

export const fileLabResultsSchema = z.object({
  status: z.enum(['pending', 'done', 'none']),
  results: z.array(foundLabResultSchema),
});
export type FileLabResults = z.infer<typeof fileLabResultsSchema>;

export const acceptLabResultsAnswerSchema = z.object({ created: z.number().int(), already_present: z.number().int() });
export type AcceptLabResultsAnswer = z.infer<typeof acceptLabResultsAnswerSchema>;

export const labTestsSchema = z.object({
  tests: z.array(z.object({ loinc: z.string(), name: z.string(), ucum_unit: z.string().nullable() })),
});
export type LabTest = z.infer<typeof labTestsSchema>['tests'][number];
