import { notificationActionSchema } from '@kinchart/shared/notifications';
import type { NotificationAction, NotificationLevel } from '@kinchart/shared/notifications';
import type { Db } from '../../db/database';
import { fromFlag } from '../../lib/flags';

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
      const row = await db
        .selectFrom('notifications')
        .select(COLUMNS)
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? toNotification(row) : undefined;
    },

    async setRead(userId: string, id: string, read: boolean) {
      await db
        .updateTable('notifications')
        .set({ is_read: read ? 1 : 0 })
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .execute();
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
