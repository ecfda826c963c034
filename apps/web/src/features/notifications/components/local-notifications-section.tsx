import { Button } from '../../../components/ui/button';
import { clearLocalNotifications, setLocalNotificationRead, useLocalNotifications } from '../../../lib/local-notifications';

/** Notifications this browser keeps for itself, such as finished uploads (SPEC §3 Local notification). */
export function LocalNotificationsSection() {
  const items = useLocalNotifications();
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="local-notifications-heading" className="mt-10 rounded-2xl border border-slate-200 bg-white p-4 sm:p-5">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h2 id="local-notifications-heading" className="text-lg font-semibold text-slate-900">
            On This Device
          </h2>
          <p className="text-sm text-slate-700">Kept in this browser only.</p>
        </div>
        <Button variant="ghost" size="sm" onClick={clearLocalNotifications}>
          Clear
        </Button>
      </div>
      <ul className="mt-3 divide-y divide-slate-200">
        {items.map((item) => (
          <li key={item.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
            <p className={`text-sm ${item.isRead ? 'text-slate-700' : 'font-semibold text-slate-900'}`}>
              {item.isRead ? null : <span className="sr-only">Unread: </span>}
              {item.text}
            </p>
            <Button variant="secondary" size="sm" onClick={() => setLocalNotificationRead(item.id, !item.isRead)}>
              {item.isRead ? 'Mark as unread' : 'Mark as read'}
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
