import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endSessionResponseSchema, type EndSessionResponse } from '@kinchart/shared/auth';
import { api } from '../../../lib/api-client';
import { sessionsQueryKey } from './get-sessions';
import { pushSubscriptionsQueryKey } from '../../reminders/api/push-subscriptions';

/** DELETE /api/auth/sessions/{id}: signs that session out; `current` when it was this one (a logout). */
export async function endSession(id: string): Promise<EndSessionResponse> {
  return endSessionResponseSchema.parse(await api.delete(`/api/auth/sessions/${encodeURIComponent(id)}`));
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endSession,
    // A session signed out on purpose takes the reminders of the browsers subscribed in it along (decision 0044).
    onSuccess: (answer) =>
      answer.current
        ? undefined
        : Promise.all([
            queryClient.invalidateQueries({ queryKey: sessionsQueryKey }),
            queryClient.invalidateQueries({ queryKey: pushSubscriptionsQueryKey }),
          ]),
  });
}
