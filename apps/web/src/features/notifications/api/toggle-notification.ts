import { t } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notificationSchema, type Notification } from '@kinchart/shared/notifications';
import { api } from '../../../lib/api-client';
import { notify } from '../../../lib/toast';
import { notificationsQueryKey } from './get-notifications';

/** PUT /api/user/notifications/{id}/toggle (empty body) flips read/unread and answers the item. */
export async function toggleNotification(id: string): Promise<Notification> {
  return notificationSchema.parse(await api.put(`/api/user/notifications/${encodeURIComponent(id)}/toggle`));
}

export function useToggleNotification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: toggleNotification,
    onSuccess: (updated, id) => {
      queryClient.setQueryData<Notification[]>(notificationsQueryKey, (list) => list?.map((n) => (n.notification_id === id ? updated : n)));
    },
    // SPEC §4: on any failure the list is refetched.
    onError: () => {
      notify.error(t`Error updating notification`);
      void queryClient.invalidateQueries({ queryKey: notificationsQueryKey });
    },
  });
}
