import { useQuery } from '@tanstack/react-query';
import { sharedFilesResponseSchema, type SharedFilesResponse } from '@kinchart/shared/files';
import { api } from '../../../lib/api-client';

/** GET /api/shared/{token} (public): the files a share link opens. */
export async function getSharedFiles(token: string): Promise<SharedFilesResponse> {
  return sharedFilesResponseSchema.parse(await api.get(`/api/shared/${encodeURIComponent(token)}`));
}

export function useSharedFiles(token: string) {
  // Opening the list notifies the owner; ask once, not on every focus or remount.
  return useQuery({ queryKey: ['shared-files', token], queryFn: () => getSharedFiles(token), staleTime: Infinity, retry: false });
}
