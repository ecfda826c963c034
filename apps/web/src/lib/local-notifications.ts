import { useSyncExternalStore } from 'react';

/**
 * Notifications kept in this browser only (SPEC §3 "Local notification"): localStorage key
 * 'notifications', items { id (a timestamp), text, isRead }. New ones are prepended unread and the
 * list is saved on every change (SPEC §4). Other tabs see changes through the storage event.
 */
export interface LocalNotification {
  id: number;
  text: string;
  isRead: boolean;
}

export const LOCAL_NOTIFICATIONS_KEY = 'notifications';
/** Enough history for a person to look back on; older entries fall off the end. */
const MAX_ITEMS = 100;
const EMPTY: readonly LocalNotification[] = Object.freeze([]);

const listeners = new Set<() => void>();
let cache: { raw: string | null; items: readonly LocalNotification[] } | null = null;

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    // Storage can be switched off (private modes, policies); then there is nothing to keep.
    return null;
  }
}

function isItem(value: unknown): value is LocalNotification {
  if (typeof value !== 'object' || value === null) return false;
  const item = value as Record<string, unknown>;
  return typeof item.id === 'number' && typeof item.text === 'string' && typeof item.isRead === 'boolean';
}

function parse(raw: string | null): readonly LocalNotification[] {
  if (!raw) return EMPTY;
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value) ? value.filter(isItem) : EMPTY;
  } catch {
    return EMPTY;
  }
}

/** The saved list; the same array while the stored text is unchanged (useSyncExternalStore needs that). */
export function getLocalNotifications(): readonly LocalNotification[] {
  const raw = storage()?.getItem(LOCAL_NOTIFICATIONS_KEY) ?? null;
  if (cache?.raw !== raw) cache = { raw, items: parse(raw) };
  return cache.items;
}

function save(items: readonly LocalNotification[]): void {
  const raw = JSON.stringify(items.slice(0, MAX_ITEMS));
  try {
    storage()?.setItem(LOCAL_NOTIFICATIONS_KEY, raw);
  } catch {
    // Full or blocked storage: keep the list for this page's lifetime at least.
  }
  cache = { raw, items: parse(raw) };
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === LOCAL_NOTIFICATIONS_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

let audio: AudioContext | null = null;

/** A short, soft two-note chime made with Web Audio, so there is no sound file to download. */
export function playNotificationChime(): void {
  try {
    const Context = window.AudioContext as typeof AudioContext | undefined;
    if (!Context) return;
    audio ??= new Context();
    const now = audio.currentTime;
    for (const [index, frequency] of [880, 1320].entries()) {
      const start = now + index * 0.12;
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = 'sine';
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.15, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.25);
      osc.connect(gain).connect(audio.destination);
      osc.start(start);
      osc.stop(start + 0.3);
    }
  } catch {
    // No audio (autoplay policy, no output device): the notification itself still counts.
  }
}

/**
 * Prepends an unread notification and saves the list. Pass `{ sound: true }` to play the chime
 * (SPEC §3 "A sound plays"); callers that already play their own sound leave it off.
 */
export function addLocalNotification(text: string, options: { sound?: boolean } = {}): LocalNotification {
  const items = getLocalNotifications();
  // Ids are timestamps; two notifications in the same millisecond still get distinct ids.
  const id = Math.max(Date.now(), (items[0]?.id ?? 0) + 1);
  const item: LocalNotification = { id, text, isRead: false };
  save([item, ...items]);
  if (options.sound) playNotificationChime();
  return item;
}

export function setLocalNotificationRead(id: number, isRead: boolean): void {
  save(getLocalNotifications().map((item) => (item.id === id ? { ...item, isRead } : item)));
}

export function markAllLocalNotificationsRead(): void {
  const items = getLocalNotifications();
  if (items.some((item) => !item.isRead)) save(items.map((item) => ({ ...item, isRead: true })));
}

export function removeLocalNotification(id: number): void {
  save(getLocalNotifications().filter((item) => item.id !== id));
}

export function clearLocalNotifications(): void {
  save(EMPTY);
}

/** The local notifications, newest first; re-renders on every change, in this tab or another. */
export function useLocalNotifications(): readonly LocalNotification[] {
  return useSyncExternalStore(subscribe, getLocalNotifications, () => EMPTY);
}
