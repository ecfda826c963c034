import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClinicalKind } from '@kinchart/shared/clinical';
import { messageSchema } from '@kinchart/shared/common';
import { api } from '../../../lib/api-client';
import { serverText } from '../../../i18n/server-messages';
import { clinicalPath, clinicalQueryKey, itemSchemas, type ClinicalInputs, type ClinicalItem } from './clinical-paths';

export interface SaveClinicalItemVariables<K extends ClinicalKind> {
  /** The item to change; without one a new item is added. */
  id?: string | undefined;
  input: ClinicalInputs[K];
}

/**
 * POST /api/user/people/{personId}/{kind} → 201, or PUT …/{id} → 200: the stored item and the
 * server's message ("Immunization added successfully!"). PUT replaces every field but the codings,
 * which an edit does not send and so keeps.
 */
export async function saveClinicalItem<K extends ClinicalKind>(
  personId: string,
  kind: K,
  { id, input }: SaveClinicalItemVariables<K>,
): Promise<{ item: ClinicalItem<K>; message: string }> {
  const answer =
    id === undefined ? await api.post(clinicalPath(personId, kind), input) : await api.put(clinicalPath(personId, kind, id), input);
  return { item: itemSchemas[kind].parse(answer), message: serverText(answer) ?? messageSchema.parse(answer).message };
}

/** Saves, then reloads the kind's list: the server decides the order (newest first). */
export function useSaveClinicalItem<K extends ClinicalKind>(personId: string, kind: K) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: SaveClinicalItemVariables<K>) => saveClinicalItem(personId, kind, variables),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clinicalQueryKey(personId, kind) }),
  });
}
