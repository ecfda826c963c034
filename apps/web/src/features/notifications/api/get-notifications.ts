import { queryOptions, useQuery } from '@tanstack/react-query';
import { notificationActionSchema } from '@kinchart/shared/notifications';
import type { Notification, NotificationData, NotificationLevel } from '@kinchart/shared/notifications';
import { api } from '../../../lib/api-client';

export const notificationsQueryKey = ['notifications'] as const;

const LEVELS: readonly NotificationLevel[] = ['error', 'warning', 'info'];

function levelOf(value: unknown): NotificationLevel {
  return LEVELS.find((level) => level === value) ?? 'info';
}

function str(value: unknown, fallback = ''): string {
  return typeof value === 'string' ? value : fallback;
}

/**
 * SPEC §3: `data` may arrive as a JSON string holding message, title, type, level and is_read.
 * Read it either way so a list from an older server still shows its messages.
 */
export function normalizeNotification(raw: unknown): Notification | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const item = raw as Record<string, unknown>;
  const id = item.notification_id;
  if (typeof id !== 'string' && typeof id !== 'number') return null;
  let data: unknown = item.data;
  if (typeof data === 'string') {
    try {
      data = JSON.parse(data) as unknown;
    } catch {
      data = { message: data };
    }
  }
  const d = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const isRead = typeof item.is_read === 'boolean' ? item.is_read : d.is_read === true;
  const title = str(item.title, str(d.title));
  const type = str(item.type, str(d.type));
  const level = levelOf(item.level ?? d.level);
  const normalizedData: NotificationData = { message: str(d.message), title, type, level, is_read: isRead };
  // DESIGN §7: a lock or disable notice names the code its "unlock" action is for.
  const action = notificationActionSchema.safeParse(d.action);
  if (action.success) normalizedData.action = action.data;
  return {
    notification_id: String(id),
    time: str(item.time),
    is_read: isRead,
    is_hidden: item.is_hidden === true,
    type,
    level,
    title,
    data: normalizedData,
  };
}

/** GET /api/user/notifications: the owner's list, hidden ones left out (SPEC §4). */
export async function getNotifications(): Promise<Notification[]> {
  const answer = await api.get<unknown>('/api/user/notifications');
  if (!Array.isArray(answer)) throw new Error('The notifications answer is not a list.');
  return answer.map(normalizeNotification).filter((n): n is Notification => n !== null && !n.is_hidden);
}

export const notificationsQueryOptions = queryOptions({ queryKey: notificationsQueryKey, queryFn: getNotifications });

/** The list; `refetchInterval` keeps the header's unread count fresh while the app is open. */
export function useNotifications(options: { refetchInterval?: number } = {}) {
  return useQuery({ ...notificationsQueryOptions, ...options });
}
