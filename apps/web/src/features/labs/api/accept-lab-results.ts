import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { acceptLabResultsAnswerSchema, type AcceptLabResultsAnswer, type FoundLabResult } from './lab-schemas';

/** POST /api/user/files/{id}/lab-results/accept (issue 34): the chosen rows become the person's lab results. */
export async function acceptLabResults({
  fileId,
  results,
}: {
  fileId: string;
  results: FoundLabResult[];
}): Promise<AcceptLabResultsAnswer> {
  return acceptLabResultsAnswerSchema.parse(
    await api.post(`/api/user/files/${encodeURIComponent(fileId)}/lab-results/accept`, { results }),
  );
}

/** Saves the rows; the person's health records (the 'clinical' queries) are asked again. */
export function useAcceptLabResults(personId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptLabResults,
    onSuccess: () => (personId ? queryClient.invalidateQueries({ queryKey: ['clinical', personId] }) : undefined),
  });
}
