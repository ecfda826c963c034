import { useMutation } from '@tanstack/react-query';
import { medicalFileSchema, type MedicalFile } from '@kinchart/shared/files';
import { api } from '../../../lib/api-client';

export interface QuickUploadInput {
  file: File;
  /** Whose record it is (DESIGN §11); null lets the server file it under the account holder. */
  personId?: string | null;
}

/**
 * POST /api/user/upload (SPEC §7): the navigation bar's quick upload, the file only — and the
 * person first, so the server can check the user may add records for them before any bytes.
 */
export async function uploadFile({ file, personId }: QuickUploadInput): Promise<MedicalFile> {
  const body = new FormData();
  if (personId) body.append('personId', personId);
  body.append('file', file);
  return medicalFileSchema.parse(await api.post('/api/user/upload', body));
}

export function useUploadFile() {
  return useMutation({ mutationFn: uploadFile });
}
