import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageSchema, type MessageResponse } from '@kinchart/shared/common';
import type { MedicalFile } from '@kinchart/shared/files';
import { api } from '../../../lib/api-client';
import { filesQueryKey } from './get-files';

/**
 * DELETE /api/user/files/{fileName} (SPEC §7, URL-encoded). The record's id goes in that place:
 * the server accepts it there, and unlike a name it can never match a second record.
 */
export async function deleteFile(file: Pick<MedicalFile, 'id'>): Promise<MessageResponse> {
  return messageSchema.parse(await api.delete(`/api/user/files/${encodeURIComponent(file.id)}`));
}

export function useDeleteFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteFile,
    onSuccess: (_answer, deleted) => {
      queryClient.setQueriesData<MedicalFile[]>({ queryKey: filesQueryKey }, (files) => files?.filter((f) => f.id !== deleted.id));
      return queryClient.invalidateQueries({ queryKey: filesQueryKey });
    },
  });
}
