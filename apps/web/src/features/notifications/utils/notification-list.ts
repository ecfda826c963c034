import type { Notification, NotificationFilter } from '@kinchart/shared/notifications';
import type { LocalNotification } from '../../../lib/local-notifications';

/** SPEC §2 / §9 filters, in order, with the words shown on the buttons. */
export const FILTERS: readonly { value: NotificationFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'unread', label: 'Unread' },
  { value: 'qr_access', label: 'QR Access' },
  { value: 'error', label: 'Error' },
  { value: 'warning', label: 'Warning' },
  { value: 'info', label: 'Info' },
];

/** Someone opened (or tried to open) an emergency code: the person's own or a member's. */
const ACCESS_TYPES = new Set(['qr_access', 'family_emergency_access']);
/** SPEC §4 colours: "access and setup types are red-pink". */
const ACCESS_AND_SETUP_TYPES = new Set(['qr_access', 'qr_setup', 'family_qr_setup', 'family_emergency_access']);

export function matchesFilter(n: Notification, filter: NotificationFilter): boolean {
  switch (filter) {
    case 'all':
      return true;
    case 'unread':
      return !n.is_read;
    // A family member's code being opened is a QR access too.
    case 'qr_access':
      return ACCESS_TYPES.has(n.type);
    case 'error':
    case 'warning':
    case 'info':
      return n.level === filter;
  }
}

export type NotificationTone = 'read' | 'error' | 'warning' | 'access' | 'other';

/**
 * SPEC §4, in the spec's order: read is grey; access and setup types red-pink; error level red;
 * warning orange; otherwise purple. A locked or switched-off code is an access type, so it is
 * red-pink too; its title and its level filter (warning, error) still set it apart.
 */
export function toneOf(n: Pick<Notification, 'is_read' | 'level' | 'type'>): NotificationTone {
  if (n.is_read) return 'read';
  if (ACCESS_AND_SETUP_TYPES.has(n.type)) return 'access';
  if (n.level === 'error') return 'error';
  if (n.level === 'warning') return 'warning';
  return 'other';
}

/** Item classes per tone; each text colour meets WCAG AA (≥ 4.5:1) on its background. */
export const TONE_CLASSES: Record<NotificationTone, { item: string; title: string }> = {
  read: { item: 'border-slate-200 border-l-slate-400 bg-slate-50', title: 'text-slate-700' },
  access: { item: 'border-pink-200 border-l-pink-700 bg-pink-50', title: 'text-pink-900' },
  error: { item: 'border-red-200 border-l-red-700 bg-red-50', title: 'text-red-900' },
  warning: { item: 'border-orange-200 border-l-orange-600 bg-orange-50', title: 'text-orange-900' },
  other: { item: 'border-purple-200 border-l-purple-700 bg-purple-50', title: 'text-purple-900' },
};

function timeOf(n: Notification): number {
  const t = Date.parse(n.time);
  return Number.isNaN(t) ? 0 : t;
}

/**
 * One row of the page's single list: a notification from the account (the server) or a notice
 * this browser keeps for itself (SPEC §3 Local notification, whose id is its timestamp).
 */
export type NotificationEntry =
  | { source: 'account'; key: string; time: number; notification: Notification }
  | { source: 'device'; key: string; time: number; notice: LocalNotification };

export function accountEntry(notification: Notification): NotificationEntry {
  return { source: 'account', key: `account-${notification.notification_id}`, time: timeOf(notification), notification };
}

export function deviceEntry(notice: LocalNotification): NotificationEntry {
  return { source: 'device', key: `device-${notice.id}`, time: notice.id, notice };
}

/**
 * The filters applied to both kinds. This device's notices are plain news (finished uploads):
 * they count as info and as unread until read, never as QR access, warning or error.
 */
export function entryMatchesFilter(entry: NotificationEntry, filter: NotificationFilter): boolean {
  if (entry.source === 'account') return matchesFilter(entry.notification, filter);
  switch (filter) {
    case 'all':
    case 'info':
      return true;
    case 'unread':
      return !entry.notice.isRead;
    case 'qr_access':
    case 'error':
    case 'warning':
      return false;
  }
}

/** The local calendar day, YYYY-MM-DD. */
function dayKey(date: Date): string {
  const pad = (v: number) => String(v).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export function dayLabel(key: string, now = new Date()): string {
  if (key === dayKey(now)) return 'Today';
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (key === dayKey(yesterday)) return 'Yesterday';
  const [y, m, d] = key.split('-').map(Number);
  return new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' }).format(
    new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1),
  );
}

export interface NotificationGroup {
  key: string;
  label: string;
  items: NotificationEntry[];
}

/** SPEC §2: grouped by date, newest first (days and the items within them). */
export function groupByDate(list: readonly NotificationEntry[], now = new Date()): NotificationGroup[] {
  const sorted = [...list].sort((a, b) => b.time - a.time);
  const groups: NotificationGroup[] = [];
  for (const entry of sorted) {
    const key = dayKey(new Date(entry.time));
    let group = groups[groups.length - 1];
    if (group?.key !== key) {
      group = { key, label: dayLabel(key, now), items: [] };
      groups.push(group);
    }
    group.items.push(entry);
  }
  return groups;
}

export function formatTime(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? '' : new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' }).format(new Date(t));
}
