import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClinicalKind } from '@kinchart/shared/clinical';
import { messageSchema, type MessageResponse } from '@kinchart/shared/common';
import { api } from '../../../lib/api-client';
import { serverText } from '../../../i18n/server-messages';
import { clinicalPath, clinicalQueryKey, type ClinicalItem } from './clinical-paths';

/** DELETE /api/user/people/{personId}/{kind}/{id} → the server's message (editor and up). */
export async function deleteClinicalItem(personId: string, kind: ClinicalKind, id: string): Promise<MessageResponse> {
  const answer = await api.delete(clinicalPath(personId, kind, id));
  // The message in the reader's language (its code), else as the server wrote it.
  const { message } = messageSchema.parse(answer);
  return { message: serverText(answer) ?? message };
}

export function useDeleteClinicalItem<K extends ClinicalKind>(personId: string, kind: K) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteClinicalItem(personId, kind, id),
    onSuccess: (_answer, id) => {
      // Gone from the list at once; the refetch confirms it.
      queryClient.setQueryData<ClinicalItem<K>[]>(clinicalQueryKey(personId, kind), (list) => list?.filter((item) => item.id !== id));
      return queryClient.invalidateQueries({ queryKey: clinicalQueryKey(personId, kind) });
    },
  });
}
