import { notificationActionSchema } from '@kinchart/shared/notifications';
import type { NotificationAction, NotificationLevel, NotificationType } from '@kinchart/shared/notifications';
import type { Db } from '../../db/database';
import { newId, nowIso } from '../../lib/ids';
import { fromFlag } from '../../lib/flags';
import { publishNotification } from './notification-bus';

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

const COLUMNS = ['id', 'type', 'level', 'title', 'data', 'is_read', 'is_hidden', 'created_at'] as const;
type Row = {
  id: string;
  type: string;
  level: NotificationLevel;
  title: string;
  data: string | null;
  is_read: number;
  is_hidden: number;
  created_at: string;
};

/** SPEC §3 shape: data carries message, title, type, level and is_read as well. */
function toNotification(row: Row) {
  let message = '';
  let action: NotificationAction | undefined;
  try {
    const parsed = JSON.parse(row.data ?? '{}') as { message?: unknown; action?: unknown };
    if (typeof parsed.message === 'string') message = parsed.message;
    const known = notificationActionSchema.safeParse(parsed.action);
    if (known.success) action = known.data;
  } catch {
    // Older rows may hold plain text.
    message = row.data ?? '';
  }
  const is_read = fromFlag(row.is_read);
  return {
    notification_id: row.id,
    time: row.created_at,
    is_read,
    is_hidden: fromFlag(row.is_hidden),
    type: row.type,
    level: row.level,
    title: row.title,
    data: { message, title: row.title, type: row.type, level: row.level, is_read, ...(action ? { action } : {}) },
  };
}

export function createNotificationRepository(db: Db) {
  return {
    /** Visible notifications, newest first (hidden ones are filtered out). */
    async list(userId: string, limit = 500) {
      const rows = await db
        .selectFrom('notifications')
        .select(COLUMNS)
        .where('user_id', '=', userId)
        .where('is_hidden', '=', 0)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toNotification);
    },

    async find(userId: string, id: string) {
      const row = await db.selectFrom('notifications').select(COLUMNS).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
      return row ? toNotification(row) : undefined;
    },

    async setRead(userId: string, id: string, read: boolean) {
      await db.updateTable('notifications').set({ is_read: read ? 1 : 0 }).where('user_id', '=', userId).where('id', '=', id).execute();
    },

    async hide(userId: string, id: string) {
      await db.updateTable('notifications').set({ is_hidden: 1 }).where('user_id', '=', userId).where('id', '=', id).execute();
    },

    async markAllRead(userId: string) {
      const res = await db
        .updateTable('notifications')
        .set({ is_read: 1 })
        .where('user_id', '=', userId)
        .where('is_read', '=', 0)
        .where('is_hidden', '=', 0)
        .executeTakeFirst();
      return Number(res.numUpdatedRows);
    },
  };
}
