import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** DELETE /api/user/files/share-links/{id}: the link stops working at once. */
export function revokeShareLink(id: string): Promise<unknown> {
  return api.delete(`/api/user/files/share-links/${encodeURIComponent(id)}`);
}

export function useRevokeShareLink() {
  return useMutation({ mutationFn: revokeShareLink });
}
