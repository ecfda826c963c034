import { useMutation, useQueryClient } from '@tanstack/react-query';
import { medicalFileSchema, type MedicalFile, type RenameFileInput } from '@kinchart/shared/files';
import { api } from '../../../lib/api-client';
import { filesQueryKey } from './get-files';

/** PUT /api/user/files/{id} with { newName } (SPEC §7). */
export async function renameFile({ id, newName }: { id: string } & RenameFileInput): Promise<MedicalFile> {
  return medicalFileSchema.parse(await api.put(`/api/user/files/${encodeURIComponent(id)}`, { newName }));
}

export function useRenameFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renameFile,
    onSuccess: (renamed) => {
      // Show the new name at once, then confirm with the server.
      queryClient.setQueriesData<MedicalFile[]>({ queryKey: filesQueryKey }, (files) =>
        files?.map((f) => (f.id === renamed.id ? { ...f, ...renamed } : f)),
      );
      return queryClient.invalidateQueries({ queryKey: filesQueryKey });
    },
  });
}
