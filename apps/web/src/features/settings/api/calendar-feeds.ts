import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { calendarFeedInputSchema } from '@kinchart/shared/care';
import { calendarFeedCreatedSchema, calendarFeedsSchema } from '@kinchart/shared/care';
import { api } from '../../../lib/api-client';

// Private calendar feeds (issue 32, docs/decisions/0045): made, listed, given new addresses and revoked here.

const calendarFeedsQueryKey = ['calendar-feeds'] as const;
export type CalendarFeed = z.infer<typeof calendarFeedsSchema>['feeds'][number];
export type CalendarFeedCreated = z.infer<typeof calendarFeedCreatedSchema>;
export type CalendarFeedInput = z.input<typeof calendarFeedInputSchema>;

export function useCalendarFeeds() {
  return useQuery({
    queryKey: calendarFeedsQueryKey,
    queryFn: async () => calendarFeedsSchema.parse(await api.get('/api/user/calendar-feeds')).feeds,
  });
}

/** POST /api/user/calendar-feeds: the new feed's secret address, shown once. */
export function useCreateCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: CalendarFeedInput) => calendarFeedCreatedSchema.parse(await api.post('/api/user/calendar-feeds', input)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: calendarFeedsQueryKey }),
  });
}

/** DELETE /api/user/calendar-feeds/{id}: the address stops answering at once. */
export function useRevokeCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => api.delete(`/api/user/calendar-feeds/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: calendarFeedsQueryKey }),
  });
}

/**
 * POST /api/user/calendar-feeds/{id}/renew: a new secret address for the feed, shown once (a feed
 * restored by an import has none anyone knows); the old address stops answering at once.
 */
export function useRenewCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      calendarFeedCreatedSchema.parse(await api.post(`/api/user/calendar-feeds/${encodeURIComponent(id)}/renew`)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: calendarFeedsQueryKey }),
  });
}
