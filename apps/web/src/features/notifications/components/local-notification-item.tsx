import { useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import { Button } from '../../../components/ui/button';
import { removeLocalNotification, setLocalNotificationRead, type LocalNotification } from '../../../lib/local-notifications';
import { TONE_CLASSES, formatTime } from '../utils/notification-list';

/**
 * One notice this browser keeps for itself, such as a finished upload (SPEC §3 Local
 * notification), shown in the same list and with the same controls as the account's
 * notifications, and labelled "This device" because other devices do not see it.
 */
export function LocalNotificationItem({ notice }: { notice: LocalNotification }) {
  const { t } = useLingui();
  const titleId = useId();
  // SPEC §4 colours: read is grey, otherwise purple (an upload is neither access, error nor warning).
  const tone = notice.isRead ? 'read' : 'other';
  const classes = TONE_CLASSES[tone];
  const time = new Date(notice.id);
  return (
    <article aria-labelledby={titleId} data-tone={tone} className={`rounded-xl border border-s-4 p-4 ${classes.item}`}>
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={titleId} className={`text-base font-semibold break-words ${classes.title}`}>
          {notice.text}
        </h3>
        {!notice.isRead ? (
          <span className="rounded-full bg-slate-900 px-2 py-0.5 text-xs font-semibold text-white">
            {t({ message: 'Unread', comment: 'Badge on a notification not read yet' })}
          </span>
        ) : null}
        <span className="rounded-full border border-slate-400 bg-white px-2 py-0.5 text-xs font-semibold text-slate-800">
          {t({ message: 'This device', comment: 'Badge on a notification kept only in this browser' })}
        </span>
      </div>
      <div className="mt-3 flex flex-wrap items-center justify-between gap-2">
        <time dateTime={time.toISOString()} className="text-sm text-slate-700">
          {formatTime(time.toISOString())}
        </time>
        <div className="flex gap-2">
          <Button variant="secondary" size="sm" onClick={() => setLocalNotificationRead(notice.id, !notice.isRead)}>
            {notice.isRead ? t`Mark as unread` : t`Mark as read`}
          </Button>
          <Button variant="ghost" size="sm" onClick={() => removeLocalNotification(notice.id)}>
            {t({ message: 'Hide', comment: 'Button that removes a notification from the list' })}
          </Button>
        </div>
      </div>
    </article>
  );
}
