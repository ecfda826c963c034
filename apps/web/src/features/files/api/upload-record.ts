import { medicalFileSchema, type MedicalFile } from '@kinchart/shared/files';
import { xhrUpload, type XhrUploadOptions } from '../../../lib/upload-client';

export interface UploadRecordInput {
  file: File;
  customName: string;
  /** The chosen visit date (YYYY-MM-DD), or an ISO instant when none was chosen (SPEC §3). */
  customDate: string;
  visitLocation: string;
  visitReason: string;
  providerName: string;
}

/**
 * POST /api/user/files (SPEC §7): multipart with the file first, then the text fields, in the
 * order the spec's client sends them; the server reads the parts in whatever order they come.
 */
export async function uploadRecord(input: UploadRecordInput, options?: XhrUploadOptions): Promise<MedicalFile> {
  const body = new FormData();
  body.append('file', input.file);
  body.append('customName', input.customName);
  body.append('customDate', input.customDate);
  body.append('visitLocation', input.visitLocation);
  body.append('visitReason', input.visitReason);
  body.append('providerName', input.providerName);
  return medicalFileSchema.parse(await xhrUpload('/api/user/files', body, options));
}
