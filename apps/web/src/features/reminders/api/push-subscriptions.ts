import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { pushSubscriptionsSchema, type PushSubscriptionInfo } from '@kinchart/shared/care';
import { ApiError, api } from '../../../lib/api-client';

export const PUSH_SUBSCRIPTIONS_PATH = '/api/user/push-subscriptions';

export const pushSubscriptionsQueryKey = ['push-subscriptions'] as const;

/**
 * GET /api/user/push-subscriptions: the account's browsers that receive reminders — each one's id,
 * its name in plain words, since when, and whether it was this session's (never its endpoint).
 */
export async function getPushSubscriptions(): Promise<PushSubscriptionInfo[]> {
  return pushSubscriptionsSchema.parse(await api.get(PUSH_SUBSCRIPTIONS_PATH)).subscriptions;
}

export const pushSubscriptionsQueryOptions = queryOptions({ queryKey: pushSubscriptionsQueryKey, queryFn: getPushSubscriptions });

export function usePushSubscriptions() {
  return useQuery(pushSubscriptionsQueryOptions);
}

/**
 * DELETE /api/user/push-subscriptions/{id}: that browser receives no more reminders (a lost
 * phone), and the buttons of the reminders it already shows stop working. One already gone (404)
 * is what was asked for.
 */
export async function stopPushSubscription(id: string): Promise<void> {
  try {
    await api.delete(`${PUSH_SUBSCRIPTIONS_PATH}/${encodeURIComponent(id)}`);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
  }
}

export function useStopPushSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: stopPushSubscription,
    onSettled: () => queryClient.invalidateQueries({ queryKey: pushSubscriptionsQueryKey }),
  });
}
