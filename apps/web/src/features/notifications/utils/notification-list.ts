import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import type { Notification, NotificationFilter } from '@kinchart/shared/notifications';
import { intlLocale, isAppLanguage } from '../../../i18n/languages';
import type { LocalNotification } from '../../../lib/local-notifications';

/** SPEC §2 / §9 filters, in order, with the words shown on the buttons. */
export const FILTERS: readonly { value: NotificationFilter; label: MessageDescriptor }[] = [
  { value: 'all', label: msg({ message: 'All', comment: 'Notification filter' }) },
  { value: 'unread', label: msg({ message: 'Unread', comment: 'Notification filter' }) },
  { value: 'qr_access', label: msg({ message: 'QR Access', comment: 'Notification filter: someone opened an emergency QR code' }) },
  { value: 'error', label: msg({ message: 'Error', comment: 'Notification filter: the error level' }) },
  { value: 'warning', label: msg({ message: 'Warning', comment: 'Notification filter: the warning level' }) },
  { value: 'info', label: msg({ message: 'Info', comment: 'Notification filter: the information level' }) },
];

/** What each type of notification is, as the item names it (the types that say more than the title). */
const TYPE_LABELS: Partial<Record<string, MessageDescriptor>> = {
  qr_access: msg({ message: 'QR access', comment: 'Notification type: someone opened your emergency QR code' }),
  family_emergency_access: msg({ message: 'Family QR access', comment: "Notification type: someone opened a family member's QR code" }),
  qr_setup: msg({ message: 'QR set-up', comment: 'Notification type: an emergency QR code was set up or changed' }),
  family_qr_setup: msg({ message: 'Family QR set-up', comment: "Notification type: a family member's QR code was set up or changed" }),
};

/** A notification's type in words; nothing for the types whose title says it all (and for unknown ones). */
export function typeLabel(type: string): string | undefined {
  const label = TYPE_LABELS[type];
  return label ? i18n._(label) : undefined;
}

/** The levels written out beside the colour (WCAG 1.4.1); info needs no word. */
const LEVEL_LABELS: Partial<Record<string, MessageDescriptor>> = {
  error: msg({ message: 'error', comment: 'Badge on a notification of the error level' }),
  warning: msg({ message: 'warning', comment: 'Badge on a notification of the warning level' }),
};

/** A notification's level in words ('warning'), for the levels other than info; a level this version does not know, as stored. */
export function levelLabel(level: string): string {
  const label = LEVEL_LABELS[level];
  return label ? i18n._(label) : level;
}

/** The locale dates and times are written in (the pseudo-locale formats as English). */
function activeIntlLocale(): string {
  return intlLocale(isAppLanguage(i18n.locale) ? i18n.locale : 'en');
}

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
  read: { item: 'border-slate-200 border-s-slate-400 bg-slate-50', title: 'text-slate-700' },
  access: { item: 'border-pink-200 border-s-pink-700 bg-pink-50', title: 'text-pink-900' },
  error: { item: 'border-red-200 border-s-red-700 bg-red-50', title: 'text-red-900' },
  warning: { item: 'border-orange-200 border-s-orange-600 bg-orange-50', title: 'text-orange-900' },
  other: { item: 'border-purple-200 border-s-purple-700 bg-purple-50', title: 'text-purple-900' },
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
  if (key === dayKey(now)) return t({ message: 'Today', comment: 'Notifications of today' });
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (key === dayKey(yesterday)) return t({ message: 'Yesterday', comment: 'Notifications of yesterday' });
  const [y, m, d] = key.split('-').map(Number);
  return new Intl.DateTimeFormat(activeIntlLocale(), { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' }).format(
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
  return Number.isNaN(t) ? '' : new Intl.DateTimeFormat(activeIntlLocale(), { hour: 'numeric', minute: '2-digit' }).format(new Date(t));
}
