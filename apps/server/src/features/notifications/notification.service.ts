import type { Db } from '../../db/database';
import { notFound } from '../../lib/http-errors';
import { createNotificationRepository } from './notification.repository';

const NOT_FOUND = 'Notification not found';

/**
 * SPEC §7 Notifications, owner-scoped: the list, read/unread per item, hide, mark all read. A
 * hidden notification is gone for the user: it cannot be toggled, and it is never streamed.
 */
export function createNotificationService(deps: { db: Db }) {
  const repo = createNotificationRepository(deps.db);
  return {
    list: (userId: string) => repo.list(userId),

    /** One notification as the list shows it, or undefined when it is hidden or not the user's. */
    async visible(userId: string, id: string) {
      const found = await repo.find(userId, id);
      return found && !found.is_hidden ? found : undefined;
    },

    /** How many were unread. */
    markAllRead: (userId: string) => repo.markAllRead(userId),

    /** Flips read/unread and answers the notification as it now is. */
    async toggle(userId: string, id: string) {
      const existing = await repo.find(userId, id);
      if (!existing || existing.is_hidden) throw notFound(NOT_FOUND);
      await repo.setRead(userId, existing.notification_id, !existing.is_read);
      const updated = await repo.find(userId, existing.notification_id);
      if (!updated) throw notFound(NOT_FOUND);
      return updated;
    },

    /** Hides it for good; hiding twice is fine. Answers its id. */
    async hide(userId: string, id: string): Promise<string> {
      const existing = await repo.find(userId, id);
      if (!existing) throw notFound(NOT_FOUND);
      await repo.hide(userId, existing.notification_id);
      return existing.notification_id;
    },
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;
