import type { NotificationAction, NotificationLevel, NotificationType } from '@kinchart/shared/notifications';
import type { Db } from '../db/database';
import { newId, nowIso } from '../lib/ids';
import { publishNotification } from './notification-bus';

/*
 * Telling an account's owner something (SPEC §3 Notification): used by every feature that has news
 * for the owner — emergency access, shares, reminders. The notifications feature reads and updates
 * what is written here.
 */

export interface NewNotification {
  userId: string;
  type: NotificationType;
  level: NotificationLevel;
  title: string;
  /** Shown to the owner; may name their own records, never another person's data. */
  message: string;
  /** When set, a second notification with the same key is silently skipped (idempotent jobs). */
  dedupeKey?: string;
  /** An action the owner can take from the notification (kept in its data). */
  action?: NotificationAction;
}

/** Adds a notification for its owner. Returns false when the dedupe key was already used. */
export async function addNotification(db: Db, n: NewNotification): Promise<boolean> {
  const values = {
    id: newId(),
    user_id: n.userId,
    type: n.type,
    level: n.level,
    title: n.title,
    data: JSON.stringify(n.action ? { message: n.message, action: n.action } : { message: n.message }),
    dedupe_key: n.dedupeKey ?? null,
    created_at: nowIso(),
  };
  if (!n.dedupeKey) {
    await db.insertInto('notifications').values(values).execute();
  } else {
    const res = await db
      .insertInto('notifications')
      .values(values)
      .onConflict((oc) => oc.column('dedupe_key').doNothing())
      .executeTakeFirst();
    if (Number(res.numInsertedOrUpdatedRows ?? 0) === 0) return false;
  }
  // DESIGN §7: open pages hear of it at once (the insert above is committed: no transaction here).
  publishNotification(db, n.userId, values.id);
  return true;
}

