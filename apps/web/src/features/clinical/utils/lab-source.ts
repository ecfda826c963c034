import type { LabResult } from '@kinchart/shared/clinical';

// Issue 34: a lab result read from a report names the file and page, and carries its value in the
// test's table unit for the trend. Until the server's shared schema carries them, optional here.

export type SourcedLabResult = LabResult & {
  source_file_id?: string | null;
  source_page?: number | null;
  trend?: { value: number; unit: string | null; reference_low: number | null; reference_high: number | null } | null;
};
