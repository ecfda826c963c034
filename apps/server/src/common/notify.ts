import type { NotificationAction, NotificationLevel, NotificationType } from '@kinchart/shared/notifications';
import type { Transaction } from 'kysely';
import type { Db } from '../db/database';
import type { Database } from '../db/schema';
import { newId, nowIso } from '../lib/ids';
import { publishNotification } from './notification-bus';
import type { NotificationRow } from './notify.repository';
import { insertNotification, insertNotifications, reviseNotification } from './notify.repository';

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

/** The row of a new notification (its data: the message and the action). */
const rowOf = (n: Omit<NewNotification, 'dedupeKey'>, dedupeKey: string | null, at: Date): NotificationRow & { id: string } => ({
  id: newId(),
  user_id: n.userId,
  type: n.type,
  level: n.level,
  title: n.title,
  data: JSON.stringify(n.action ? { message: n.message, action: n.action } : { message: n.message }),
  dedupe_key: dedupeKey,
  created_at: nowIso(at),
});

/** Adds a notification for its owner. Returns false when the dedupe key was already used. */
export async function addNotification(db: Db, n: NewNotification): Promise<boolean> {
  const row = rowOf(n, n.dedupeKey ?? null, new Date());
  if (!(await insertNotification(db, row))) return false;
  // DESIGN §7: open pages hear of it at once (the insert above is committed: no transaction here).
  publishNotification(db, n.userId, row.id);
  return true;
}

/** Notifications per insert in addNotifications. */
const BULK = 500;

/**
 * Adds many notifications in a few statements (the reminder scheduler's busy minute); each one whose
 * dedupe key was already used is skipped. Each new one is published to open pages.
 */
export async function addNotifications(db: Db, list: readonly NewNotification[]): Promise<number> {
  let count = 0;
  for (let from = 0; from < list.length; from += BULK) {
    // Each slice is stamped when it is written: created_at says when the notice reached the owner.
    const at = new Date();
    const added = await insertNotifications(
      db,
      list.slice(from, from + BULK).map((n) => rowOf(n, n.dedupeKey ?? null, at)),
    );
    for (const row of added) publishNotification(db, row.user_id, row.id);
    count += added.length;
  }
  return count;
}

/**
 * Writes a new notification inside the caller's transaction (issue 30: an emergency access alert
 * is decided and written under one lock). Nothing is published: the caller publishes the id with
 * `publishNotification` after the commit, so a listener never looks for a row not yet visible.
 */
export async function insertNotificationRow(
  trx: Db | Transaction<Database>,
  n: Omit<NewNotification, 'dedupeKey'>,
  at: Date,
): Promise<string> {
  const row = rowOf(n, null, at);
  await insertNotification(trx, row);
  return row.id;
}

/**
 * New words for a notification already sent, unread again, inside the caller's transaction; false
 * when it is gone or the owner hid it (then it stays hidden). Publish after the commit, as above.
 */
export async function reviseNotificationRow(
  trx: Db | Transaction<Database>,
  userId: string,
  id: string,
  message: string,
): Promise<boolean> {
  return reviseNotification(trx, userId, id, JSON.stringify({ message }));
}
