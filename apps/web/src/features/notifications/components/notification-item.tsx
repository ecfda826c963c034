import { useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import type { Notification } from '@kinchart/shared/notifications';
import { Button } from '../../../components/ui/button';
import { TONE_CLASSES, formatTime, levelLabel, toneOf, typeLabel } from '../utils/notification-list';
import { UnlockPinAction } from './unlock-pin-action';

export interface NotificationItemProps {
  notification: Notification;
  busy: boolean;
  onToggle: (id: string) => void;
  onHide: (id: string) => void;
}

/** One server notification with its read toggle and Hide (SPEC §2 Notifications). */
export function NotificationItem({ notification: n, busy, onToggle, onHide }: NotificationItemProps) {
  const { t } = useLingui();
  const titleId = useId();
  const tone = toneOf(n);
  const classes = TONE_CLASSES[tone];
  const kind = typeLabel(n.type);
  return (
    <article aria-labelledby={titleId} data-tone={tone} className={`rounded-xl border border-s-4 p-4 ${classes.item}`}>
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={titleId} className={`text-base font-semibold ${classes.title}`}>
          {/* The server writes the title in the recipient's language: shown as stored. */}
          {n.title || t`Notification`}
        </h3>
        {/* Colour is never the only cue (WCAG 1.4.1): unread and level are also written out. */}
        {!n.is_read ? (
          <span className="rounded-full bg-slate-900 px-2 py-0.5 text-xs font-semibold text-white">
            {t({ message: 'Unread', comment: 'Badge on a notification not read yet' })}
          </span>
        ) : null}
        {n.level !== 'info' ? (
          <span className="rounded-full border border-current px-2 py-0.5 text-xs font-semibold text-slate-800 capitalize">
            {levelLabel(n.level)}
          </span>
        ) : null}
        {kind ? <span className="text-xs font-medium text-slate-700">{kind}</span> : null}
      </div>
      {n.data.message ? <p className="mt-1 text-sm text-slate-800">{n.data.message}</p> : null}
      {n.data.action?.kind === 'unlock_pin' ? (
        <div className="mt-2">
          {/* An error-level notice is the disabled PIN; a warning the 15-minute lock (DESIGN §7). */}
          <UnlockPinAction action={n.data.action} disabled={n.level === 'error'} />
        </div>
      ) : null}
      <div className="mt-3 flex flex-wrap items-center justify-between gap-2">
        <time dateTime={n.time} className="text-sm text-slate-700">
          {formatTime(n.time)}
        </time>
        <div className="flex gap-2">
          <Button variant="secondary" size="sm" disabled={busy} onClick={() => onToggle(n.notification_id)}>
            {n.is_read ? t`Mark as unread` : t`Mark as read`}
          </Button>
          <Button variant="ghost" size="sm" disabled={busy} onClick={() => onHide(n.notification_id)}>
            {t({ message: 'Hide', comment: 'Button that removes a notification from the list' })}
          </Button>
        </div>
      </div>
    </article>
  );
}
