import { useMutation } from '@tanstack/react-query';
import { messageSchema, type MessageResponse } from '@kinchart/shared/common';
import { api } from '../../../lib/api-client';

/** DELETE /api/user/files/share-links/{id}: the link stops working at once. */
export async function revokeShareLink(id: string): Promise<MessageResponse> {
  return messageSchema.parse(await api.delete(`/api/user/files/share-links/${encodeURIComponent(id)}`));
}

export function useRevokeShareLink() {
  return useMutation({ mutationFn: revokeShareLink });
}
