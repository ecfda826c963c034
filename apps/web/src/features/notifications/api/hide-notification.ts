import { t } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { hideNotificationResponseSchema, type HideNotificationResponse, type Notification } from '@kinchart/shared/notifications';
import { api } from '../../../lib/api-client';
import { notify } from '../../../lib/toast';
import { notificationsQueryKey } from './get-notifications';

/** PUT /api/user/notifications/{id}/hide (empty body); hidden items leave the list (SPEC §4). */
export async function hideNotification(id: string): Promise<HideNotificationResponse> {
  return hideNotificationResponseSchema.parse(await api.put(`/api/user/notifications/${encodeURIComponent(id)}/hide`));
}

export function useHideNotification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: hideNotification,
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<Notification[]>(notificationsQueryKey, (list) => list?.filter((n) => n.notification_id !== id));
    },
    onError: () => {
      notify.error(t`Error hiding notification`);
      void queryClient.invalidateQueries({ queryKey: notificationsQueryKey });
    },
  });
}
