import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  acceptLabResultsAnswerSchema,
  acceptLabResultsPath,
  type AcceptLabResultsAnswer,
  type AcceptLabResultsInput,
} from '@kinchart/shared/labs';
import { api } from '../../../lib/api-client';

/** POST /api/user/files/{id}/lab-results/accept (issue 34): the chosen rows become the person's lab results. */
export async function acceptLabResults({ fileId, ...input }: { fileId: string } & AcceptLabResultsInput): Promise<AcceptLabResultsAnswer> {
  return acceptLabResultsAnswerSchema.parse(await api.post(acceptLabResultsPath(fileId), input));
}

/** Saves the rows; the person's health records (the 'clinical' queries) are asked again. */
export function useAcceptLabResults(personId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptLabResults,
    onSuccess: () => (personId ? queryClient.invalidateQueries({ queryKey: ['clinical', personId] }) : undefined),
  });
}
