import { useMutation, useQueryClient } from '@tanstack/react-query';
import { medicalFileSchema, type MedicalFile } from '@kinchart/shared/files';
import type { ApplySuggestionInput } from '@kinchart/shared/search';
import { api } from '../../../lib/api-client';
import { filesQueryKey } from './get-files';

// Issue 33 (docs/decisions/0049): what a file's text suggests for its record, applied or dismissed
// by a click — never by itself.

const suggestionPath = (id: string) => `/api/user/files/${encodeURIComponent(id)}/suggestion`;

/** POST /api/user/files/{id}/suggestion/apply: the record with the suggestion written into it. */
export async function applySuggestion({ id, fields }: { id: string } & ApplySuggestionInput): Promise<MedicalFile> {
  return medicalFileSchema.parse(await api.post(`${suggestionPath(id)}/apply`, fields ? { fields } : {}));
}

/** DELETE /api/user/files/{id}/suggestion: the suggestion goes, the record stays as it is. */
export async function dismissSuggestion({ id }: { id: string }): Promise<void> {
  await api.delete(suggestionPath(id));
}

/** Puts the changed record in every files list at once, then confirms with the server. */
function useSettle() {
  const queryClient = useQueryClient();
  return {
    changed: (id: string, change: (file: MedicalFile) => MedicalFile) => {
      queryClient.setQueriesData<MedicalFile[]>({ queryKey: filesQueryKey }, (files) => files?.map((f) => (f.id === id ? change(f) : f)));
      return queryClient.invalidateQueries({ queryKey: filesQueryKey });
    },
    // A suggestion applied or dismissed elsewhere answers 404: the list says how things stand now.
    failed: () => queryClient.invalidateQueries({ queryKey: filesQueryKey }),
  };
}

export function useApplySuggestion() {
  const settle = useSettle();
  return useMutation({
    mutationFn: applySuggestion,
    onSuccess: (applied) => settle.changed(applied.id, (f) => ({ ...f, ...applied, suggestion: null })),
    onError: settle.failed,
  });
}

export function useDismissSuggestion() {
  const settle = useSettle();
  return useMutation({
    mutationFn: dismissSuggestion,
    onSuccess: (_answer, { id }) => settle.changed(id, (f) => ({ ...f, suggestion: null })),
    onError: settle.failed,
  });
}
