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
  /** Whose record it is (DESIGN §11); without one the server files it under the account holder. */
  personId?: string | null;
}

/**
 * POST /api/user/files (SPEC §7): multipart with the file, then the text fields, in the order
 * the spec's client sends them; the server reads the parts in whatever order they come. The
 * person comes before the file, so the server can check the user may add records for them before
 * any bytes stream in.
 */
export async function uploadRecord(input: UploadRecordInput, options?: XhrUploadOptions): Promise<MedicalFile> {
  const body = new FormData();
  if (input.personId) body.append('personId', input.personId);
  body.append('file', input.file);
  body.append('customName', input.customName);
  body.append('customDate', input.customDate);
  body.append('visitLocation', input.visitLocation);
  body.append('visitReason', input.visitReason);
  body.append('providerName', input.providerName);
  return medicalFileSchema.parse(await xhrUpload('/api/user/files', body, options));
}
