import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import type { NotificationFilter } from '@kinchart/shared/notifications';
import { QueryState } from '../../../components/query-state';
import { Button } from '../../../components/ui/button';
import { PageHeader } from '../../../components/ui/page-header';
import { markAllLocalNotificationsRead, useLocalNotifications } from '../../../lib/local-notifications';
import { useNotifications } from '../api/get-notifications';
import { useHideNotification } from '../api/hide-notification';
import { useMarkAllNotificationsRead } from '../api/mark-all-notifications-read';
import { useToggleNotification } from '../api/toggle-notification';
import { LocalNotificationItem } from '../components/local-notification-item';
import { NotificationFilters } from '../components/notification-filters';
import { NotificationItem } from '../components/notification-item';
import { accountEntry, deviceEntry, entryMatchesFilter, groupByDate } from '../utils/notification-list';

/** /notifications (SPEC §2, §4 Notifications). */
export function NotificationsPage() {
  const { t } = useLingui();
  const [filter, setFilter] = useState<NotificationFilter>('all');
  const notifications = useNotifications();
  const toggle = useToggleNotification();
  const hide = useHideNotification();
  const markAll = useMarkAllNotificationsRead();
  const local = useLocalNotifications();

  const list = notifications.data ?? [];
  const anyUnread = list.some((n) => !n.is_read) || local.some((n) => !n.isRead);
  const busyId = toggle.isPending ? toggle.variables : hide.isPending ? hide.variables : undefined;

  const onMarkAll = () => {
    markAllLocalNotificationsRead();
    if (list.some((n) => !n.is_read)) markAll.mutate();
  };

  // One list (SPEC §2 Notifications): the account's notifications and this device's notices,
  // grouped by date, newest first; the empty state only when neither has anything to show.
  const entries = [...(notifications.isSuccess ? list.map(accountEntry) : []), ...local.map(deviceEntry)].filter((entry) =>
    entryMatchesFilter(entry, filter),
  );
  const groups = groupByDate(entries);

  let body = null;
  if (groups.length > 0) {
    body = (
      <div className="flex flex-col gap-6">
        {groups.map((group) => (
          <section key={group.key} aria-labelledby={`notifications-${group.key}`}>
            <h2 id={`notifications-${group.key}`} className="mb-2 text-sm font-semibold tracking-wide text-slate-700 uppercase">
              {group.label}
            </h2>
            <ul className="flex flex-col gap-3">
              {group.items.map((entry) => (
                <li key={entry.key}>
                  {entry.source === 'account' ? (
                    <NotificationItem
                      notification={entry.notification}
                      busy={busyId === entry.notification.notification_id}
                      onToggle={(id) => toggle.mutate(id)}
                      onHide={(id) => hide.mutate(id)}
                    />
                  ) : (
                    <LocalNotificationItem notice={entry.notice} />
                  )}
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    );
  } else if (notifications.isSuccess) {
    body = (
      <p className="rounded-xl border border-dashed border-slate-300 bg-white px-4 py-8 text-center text-slate-700">
        <Trans>No notifications to display</Trans>
      </p>
    );
  }

  return (
    <div className="mx-auto w-full max-w-3xl">
      <PageHeader
        title={t`Notifications`}
        subtitle={t`Who opened your emergency information, uploads from this device, and other news about your account.`}
        actions={
          <Button variant="secondary" onClick={onMarkAll} disabled={!anyUnread || markAll.isPending}>
            <Trans>Mark All as Read</Trans>
          </Button>
        }
      />
      <div className="mb-5">
        <NotificationFilters value={filter} onChange={setFilter} />
      </div>
      {local.length > 0 ? (
        <p className="mb-4 text-sm text-slate-700">
          <Trans>Items marked “This device” are kept in this browser only.</Trans>
        </p>
      ) : null}
      {/* The account's part of the list; this device's notices show whatever it says. */}
      <QueryState query={notifications} loading={t`Loading notifications...`} error={t`Error fetching notifications`} className="mb-4" />
      {body}
    </div>
  );
}
