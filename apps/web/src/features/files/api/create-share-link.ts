import { useMutation } from '@tanstack/react-query';
import { shareLinkSchema, type CreateShareLinkInput, type ShareLink } from '@kinchart/shared/files';
import { api } from '../../../lib/api-client';

/** POST /api/user/files/share-links: a 24-hour link that opens the selected files without signing in. */
export async function createShareLink(input: CreateShareLinkInput): Promise<ShareLink> {
  return shareLinkSchema.parse(await api.post('/api/user/files/share-links', input));
}

export function useCreateShareLink() {
  return useMutation({ mutationFn: createShareLink });
}
