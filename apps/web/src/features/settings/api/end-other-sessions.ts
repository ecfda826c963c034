import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endOtherSessionsResponseSchema, type EndOtherSessionsResponse } from '@kinchart/shared/auth';
import { api } from '../../../lib/api-client';
import { sessionsQueryKey } from './get-sessions';
import { pushSubscriptionsQueryKey } from '../../reminders/api/push-subscriptions';

/** DELETE /api/auth/sessions: signs out every session of the account but this one. */
export async function endOtherSessions(): Promise<EndOtherSessionsResponse> {
  return endOtherSessionsResponseSchema.parse(await api.delete('/api/auth/sessions'));
}

export function useEndOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endOtherSessions,
    // The other sessions' browsers stop receiving reminders with them (decision 0044).
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: sessionsQueryKey }),
        queryClient.invalidateQueries({ queryKey: pushSubscriptionsQueryKey }),
      ]),
  });
}
