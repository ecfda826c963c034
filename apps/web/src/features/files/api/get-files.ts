import { queryOptions, useQuery } from '@tanstack/react-query';
import { medicalFileSchema, type MedicalFile } from '@kinchart/shared/files';
import { api } from '../../../lib/api-client';

export const filesQueryKey = ['files'] as const;

/** GET /api/user/files: the signed-in user's records (SPEC §3 listed record fields). */
export async function getFiles(): Promise<MedicalFile[]> {
  return medicalFileSchema.array().parse(await api.get('/api/user/files'));
}

export const filesQueryOptions = queryOptions({ queryKey: filesQueryKey, queryFn: getFiles });

/** The record list; View Records, the View Files modal and the dashboard share one cache entry. */
export function useFiles() {
  return useQuery(filesQueryOptions);
}
