import { t } from '@lingui/core/macro';
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Notification } from '@kinchart/shared/notifications';
import { notify } from '../../../lib/toast';
import { normalizeNotification, notificationsQueryKey } from './get-notifications';

export const NOTIFICATION_STREAM_URL = '/api/user/notifications/stream';

/** Someone opened (or guessed at) an emergency code: worth a toast at once (DESIGN §7). */
const EMERGENCY_TYPES = new Set(['qr_access', 'family_emergency_access']);

/**
 * DESIGN §7: one EventSource while signed in. Each pushed notification joins the list's cache (the
 * bell's count and the Notifications page update at once) and the list is refetched; new emergency
 * access shows a short toast (an update of one already listed does not). EventSource reconnects by itself; unmounting (sign-out) closes it.
 */
export function useNotificationStream(enabled = true): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return undefined;
    const source = new EventSource(NOTIFICATION_STREAM_URL, { withCredentials: true });
    const onNotification = (event: MessageEvent<string>) => {
      let pushed: Notification | null = null;
      try {
        pushed = normalizeNotification(JSON.parse(event.data) as unknown);
      } catch {
        pushed = null;
      }
      if (pushed) {
        const item = pushed;
        // Issue 30: views of one code within 15 minutes come back as the same notification with a
        // count — it replaces the cached one, and only a new one earns a toast.
        const known =
          queryClient.getQueryData<Notification[]>(notificationsQueryKey)?.some((n) => n.notification_id === item.notification_id) ?? false;
        queryClient.setQueryData<Notification[]>(notificationsQueryKey, (list) =>
          list ? (known ? list.map((n) => (n.notification_id === item.notification_id ? item : n)) : [item, ...list]) : list,
        );
        if (!known && EMERGENCY_TYPES.has(item.type)) {
          // The title is written by the server in the reader's language; shown as it is.
          const text = item.title || t`Emergency information accessed`;
          if (item.level === 'info') notify.info(text);
          else notify.warning(text);
        }
      }
      void queryClient.invalidateQueries({ queryKey: notificationsQueryKey });
    };
    // After a reconnect, catch up on whatever arrived while the stream was down.
    let opened = false;
    const onOpen = () => {
      if (opened) void queryClient.invalidateQueries({ queryKey: notificationsQueryKey });
      opened = true;
    };
    source.addEventListener('notification', onNotification);
    source.addEventListener('open', onOpen);
    return () => {
      source.removeEventListener('notification', onNotification);
      source.removeEventListener('open', onOpen);
      source.close();
    };
  }, [enabled, queryClient]);
}

/** Renders nothing: holds the stream open while mounted (the private layout, signed in). */
export function NotificationStream() {
  useNotificationStream();
  return null;
}
