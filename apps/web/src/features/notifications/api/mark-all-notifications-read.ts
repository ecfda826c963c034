import { t } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { markAllReadResponseSchema, type MarkAllReadResponse, type Notification } from '@kinchart/shared/notifications';
import { api } from '../../../lib/api-client';
import { notify } from '../../../lib/toast';
import { notificationsQueryKey } from './get-notifications';

/** PUT /api/user/notifications/mark-all-read (empty body). */
export async function markAllNotificationsRead(): Promise<MarkAllReadResponse> {
  return markAllReadResponseSchema.parse(await api.put('/api/user/notifications/mark-all-read'));
}

export function useMarkAllNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markAllNotificationsRead,
    onSuccess: () => {
      queryClient.setQueryData<Notification[]>(notificationsQueryKey, (list) =>
        list?.map((n) => ({ ...n, is_read: true, data: { ...n.data, is_read: true } })),
      );
    },
    onError: () => {
      notify.error(t`Error updating notifications`);
      void queryClient.invalidateQueries({ queryKey: notificationsQueryKey });
    },
  });
}
