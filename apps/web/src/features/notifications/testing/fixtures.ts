import type { Notification, NotificationAction, NotificationLevel } from '@kinchart/shared/notifications';

type Fields = Partial<Pick<Notification, 'time' | 'is_read' | 'is_hidden' | 'type' | 'title'>> & {
  level?: NotificationLevel;
  message?: string;
  action?: NotificationAction;
};

/** A notification shaped exactly like the server's answer (SPEC §3: `data` repeats the item's fields). */
export function makeNotification(id: string, fields: Fields = {}): Notification {
  const { message = `Message ${id}`, action, ...top } = fields;
  const item = {
    notification_id: id,
    time: new Date().toISOString(),
    is_read: false,
    is_hidden: false,
    type: 'qr_access',
    level: 'info' as NotificationLevel,
    title: `Title ${id}`,
    ...top,
  };
  return {
    ...item,
    data: { message, title: item.title, type: item.type, level: item.level, is_read: item.is_read, ...(action ? { action } : {}) },
  };
}
