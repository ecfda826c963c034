import { useMutation, useQueryClient } from '@tanstack/react-query';
import { shareCreatedSchema, type CreateShareInput, type ShareCreated } from '@kinchart/shared/people';
import { api } from '../../../lib/api-client';
import { sharesQueryKey } from './get-shares';

/** POST /api/user/people/{personId}/shares → 201 with the single-use invitation link (DESIGN §11). */
export async function createShare(personId: string, input: CreateShareInput): Promise<ShareCreated> {
  return shareCreatedSchema.parse(await api.post(`/api/user/people/${encodeURIComponent(personId)}/shares`, input));
}

export function useCreateShare(personId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateShareInput) => createShare(personId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sharesQueryKey(personId) }),
  });
}
