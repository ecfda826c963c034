import { useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import { useLocalNotifications } from '../../../lib/local-notifications';
import { useNotifications } from '../api/get-notifications';

/** The header's bell: unread server and local notifications, refreshed every minute. */
export function NotificationsIndicator({ className = '' }: { className?: string }) {
  const { t } = useLingui();
  const server = useNotifications({ refetchInterval: 60_000 });
  const local = useLocalNotifications();
  const unread = (server.data?.filter((n) => !n.is_read).length ?? 0) + local.filter((n) => !n.isRead).length;
  return (
    <Link
      to="/notifications"
      aria-label={t({ message: `Notifications, ${unread} unread`, comment: "The header's bell: how many notifications are not read yet" })}
      className={`relative inline-flex size-11 items-center justify-center rounded-lg text-white hover:bg-brand-800 ${className}`}
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="2">
        <path d="M18 8a6 6 0 1 0-12 0c0 7-3 9-3 9h18s-3-2-3-9M13.7 21a2 2 0 0 1-3.4 0" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      {unread > 0 ? (
        <span
          aria-hidden="true"
          className="absolute top-0.5 end-0.5 min-w-5 rounded-full bg-red-700 px-1 text-center text-xs leading-5 font-bold text-white ring-2 ring-brand-900"
        >
          {unread > 99 ? '99+' : unread}
        </span>
      ) : null}
    </Link>
  );
}
