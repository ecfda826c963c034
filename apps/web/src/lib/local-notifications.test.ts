import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  LOCAL_NOTIFICATIONS_KEY,
  addLocalNotification,
  clearLocalNotifications,
  getLocalNotifications,
  markAllLocalNotificationsRead,
  setLocalNotificationRead,
  useLocalNotifications,
} from './local-notifications';

afterEach(() => {
  clearLocalNotifications();
  localStorage.clear();
});

const stored = () => JSON.parse(localStorage.getItem(LOCAL_NOTIFICATIONS_KEY) ?? 'null');

describe('local notifications', () => {
  it('prepends new ones unread and saves them under the "notifications" key', () => {
    const first = addLocalNotification('File "a.pdf" uploaded on 1/1/2025, 9:00 AM');
    const second = addLocalNotification('File "b.pdf" uploaded on 1/1/2025, 9:01 AM');
    expect(second.id).toBeGreaterThan(first.id);
    expect(stored()).toEqual([
      { id: second.id, text: 'File "b.pdf" uploaded on 1/1/2025, 9:01 AM', isRead: false },
      { id: first.id, text: 'File "a.pdf" uploaded on 1/1/2025, 9:00 AM', isRead: false },
    ]);
  });

  it('saves every change: one read, then all read', () => {
    const a = addLocalNotification('a');
    addLocalNotification('b');
    setLocalNotificationRead(a.id, true);
    expect(stored().map((n: { isRead: boolean }) => n.isRead)).toEqual([false, true]);
    markAllLocalNotificationsRead();
    expect(stored().every((n: { isRead: boolean }) => n.isRead)).toBe(true);
  });

  it('ignores a damaged stored value', () => {
    localStorage.setItem(LOCAL_NOTIFICATIONS_KEY, '{not json');
    expect(getLocalNotifications()).toEqual([]);
    localStorage.setItem(LOCAL_NOTIFICATIONS_KEY, JSON.stringify([{ id: 1, text: 'ok', isRead: false }, { nope: true }]));
    expect(getLocalNotifications()).toEqual([{ id: 1, text: 'ok', isRead: false }]);
  });

  it('the hook re-renders with each change', () => {
    const { result } = renderHook(() => useLocalNotifications());
    expect(result.current).toEqual([]);
    act(() => {
      addLocalNotification('hello');
    });
    expect(result.current.map((n) => n.text)).toEqual(['hello']);
  });
});
