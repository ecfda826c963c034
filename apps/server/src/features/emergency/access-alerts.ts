import type { NotificationLevel, NotificationType } from '@kinchart/shared/notifications';
import type { Db } from '../../db/database';
import { underLimitLock } from '../../db/attempt-limits.repository';
import { insertNotificationRow, reviseNotificationRow } from '../../common/notify';
import { publishNotification } from '../../common/notification-bus';
import { nowIso } from '../../lib/ids';
import { accessAlertsRepository } from './access-alerts.repository';
import type { EmergencyMail, EmergencyMailMessage } from '../notifications/emergency-mail';

/** DESIGN §7: access alerts of one code are gathered over 15 minutes (issue 30, decision 0033). */
export const ACCESS_ALERT_WINDOW_MS = 15 * 60_000;

/** "06:01 UTC": the minute a run of views began, in one zone every reader can place. */
const minuteOf = (iso: string) => `${iso.slice(11, 16)} UTC`;

export interface AccessAlert {
  shareRowId: string;
  /** The person told: the owner, or a manager of the person. */
  userId: string;
  type: NotificationType;
  level: NotificationLevel;
  title: string;
  /** The words of a single view (the first of a run). */
  message: string;
  /** The words once there are `views` views since the run began at `since` ("06:01 UTC"). */
  counted: (views: number, since: string) => string;
  /** The email of one view; the count is added when views were gathered. */
  mail: Omit<EmergencyMailMessage, 'repeat' | 'userId'>;
}

/**
 * One view of a code, told to one person (DESIGN §7, issue 30). The first view of a run gets a
 * new notification at once; views within the next 15 minutes update that notification with the
 * count (unread again) instead of adding rows, and a notification the person hid is left hidden
 * (the next view starts a new one). Email: the first view at once, then at most one email per 15
 * minutes counting the views since — sent by the next view after the 15 minutes or by
 * `sendAccessDigests`. Decided under the pair's lock, so parallel views and several instances
 * count alike; the notification is published and the email queued after the commit.
 */
export async function recordAccessAlert(
  deps: { db: Db; mail?: EmergencyMail | undefined },
  alert: AccessAlert,
  now = new Date(),
): Promise<void> {
  const windowStart = nowIso(new Date(now.getTime() - ACCESS_ALERT_WINDOW_MS));
  const outcome = await underLimitLock(deps.db, `access-alert:${alert.shareRowId}:${alert.userId}`, async (trx) => {
    const row = await accessAlertsRepository.find(trx, alert.shareRowId, alert.userId);
    let notificationId: string | null = null;
    let windowStartedAt = nowIso(now);
    let views = 1;
    if (row?.notification_id && row.window_started_at > windowStart) {
      const counted = alert.counted(row.views + 1, minuteOf(row.window_started_at));
      if (await reviseNotificationRow(trx, alert.userId, row.notification_id, counted)) {
        notificationId = row.notification_id;
        windowStartedAt = row.window_started_at;
        views = row.views + 1;
      }
    }
    notificationId ??= await insertNotificationRow(
      trx,
      { userId: alert.userId, type: alert.type, level: alert.level, title: alert.title, message: alert.message },
      now,
    );

    // Email: at once when none went out in the last 15 minutes, otherwise counted for later.
    const mailDue = !row?.mailed_at || row.mailed_at <= windowStart;
    const pending = (row?.unmailed ?? 0) + 1;
    await accessAlertsRepository.save(trx, {
      shareRowId: alert.shareRowId,
      userId: alert.userId,
      notificationId,
      windowStartedAt,
      views,
      mailedAt: mailDue ? nowIso(now) : (row?.mailed_at ?? null),
      unmailed: mailDue ? 0 : pending,
    });
    const repeat = mailDue && pending > 1 && row?.mailed_at ? { views: pending, since: new Date(row.mailed_at) } : undefined;
    return { notificationId, mail: mailDue ? { repeat } : null };
  });
  publishNotification(deps.db, alert.userId, outcome.notificationId);
  if (outcome.mail)
    deps.mail?.send({ ...alert.mail, userId: alert.userId, ...(outcome.mail.repeat ? { repeat: outcome.mail.repeat } : {}) });
}

/**
 * The coalesced emails that are due (DESIGN §7): for each code and person with views not yet
 * emailed and no email in the last 15 minutes, one email with the count. Each row is taken by one
 * conditional update, so instances sweeping together send it once. Answers how many were sent.
 */
export async function sendAccessDigests(deps: { db: Db; mail: EmergencyMail }, now = new Date()): Promise<number> {
  let sent = 0;
  const since = new Date(now.getTime() - ACCESS_ALERT_WINDOW_MS);
  for (const row of await accessAlertsRepository.due(deps.db, since, 200)) {
    if (!row.mailed_at || !(await accessAlertsRepository.claim(deps.db, row, now))) continue;
    const manager = row.user_id !== row.owner_id;
    deps.mail.send({
      userId: row.user_id,
      kind: manager ? 'family' : row.kind,
      personName: row.name,
      event: 'access',
      repeat: { views: row.unmailed, since: new Date(row.mailed_at) },
    });
    sent += 1;
  }
  return sent;
}

/** Runs the sweep every minute while the app runs; returns the stop function. */
export function scheduleAccessDigests(
  deps: { db: Db; mail: EmergencyMail },
  onError: (error: unknown) => void,
  everyMs = 60_000,
): () => void {
  const timer = setInterval(() => void sendAccessDigests(deps).catch(onError), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
