import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Notification } from '@kinchart/shared/notifications';
import { api } from '../../../lib/api-client';
import { notify } from '../../../lib/toast';
import { normalizeNotification, notificationsQueryKey } from './get-notifications';

/** PUT /api/user/notifications/{id}/toggle (empty body) flips read/unread and answers the item. */
export function toggleNotification(id: string): Promise<unknown> {
  return api.put(`/api/user/notifications/${encodeURIComponent(id)}/toggle`);
}

export function useToggleNotification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: toggleNotification,
    onSuccess: (answer, id) => {
      const updated = normalizeNotification(answer);
      queryClient.setQueryData<Notification[]>(notificationsQueryKey, (list) =>
        list?.map((n) => (n.notification_id === id ? (updated ?? { ...n, is_read: !n.is_read }) : n)),
      );
    },
    // SPEC §4: on any failure the list is refetched.
    onError: () => {
      notify.error('Error updating notification');
      void queryClient.invalidateQueries({ queryKey: notificationsQueryKey });
    },
  });
}
