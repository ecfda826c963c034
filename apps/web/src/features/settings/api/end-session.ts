import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endSessionResponseSchema, type EndSessionResponse } from '@kinchart/shared/auth';
import { api } from '../../../lib/api-client';
import { sessionsQueryKey } from './get-sessions';

/** DELETE /api/auth/sessions/{id}: signs that session out; `current` when it was this one (a logout). */
export async function endSession(id: string): Promise<EndSessionResponse> {
  return endSessionResponseSchema.parse(await api.delete(`/api/auth/sessions/${encodeURIComponent(id)}`));
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endSession,
    onSuccess: (answer) => (answer.current ? undefined : queryClient.invalidateQueries({ queryKey: sessionsQueryKey })),
  });
}
