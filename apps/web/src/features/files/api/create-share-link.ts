import { useMutation } from '@tanstack/react-query';
import type { CreateShareLinkInput, ShareLink } from '@kinchart/shared/files';
import { api } from '../../../lib/api-client';

/** POST /api/user/files/share-links: a 24-hour link that opens the selected files without signing in. */
export function createShareLink(input: CreateShareLinkInput): Promise<ShareLink> {
  return api.post<ShareLink>('/api/user/files/share-links', input);
}

export function useCreateShareLink() {
  return useMutation({ mutationFn: createShareLink });
}
