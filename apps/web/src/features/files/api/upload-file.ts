import { useMutation } from '@tanstack/react-query';
import { medicalFileSchema, type MedicalFile } from '@kinchart/shared/files';
import { api } from '../../../lib/api-client';

/** POST /api/user/upload (SPEC §7): the navigation bar's quick upload, the file only. */
export async function uploadFile(file: File): Promise<MedicalFile> {
  const body = new FormData();
  body.append('file', file);
  return medicalFileSchema.parse(await api.post('/api/user/upload', body));
}

export function useUploadFile() {
  return useMutation({ mutationFn: uploadFile });
}
