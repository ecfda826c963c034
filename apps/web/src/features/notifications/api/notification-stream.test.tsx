import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { notify } from '../../../lib/toast';
import { NotificationsIndicator } from '../components/notifications-indicator';
import { NOTIFICATION_STREAM_URL, NotificationStream } from './notification-stream';
import type { NotificationLevel } from '@kinchart/shared/notifications';
import { FakeEventSource } from '../testing/fake-event-source';
import { makeNotification } from '../testing/fixtures';

vi.mock('../../../lib/toast');

const item = (id: string, type: string, level: NotificationLevel = 'info', title = 'Emergency information accessed') =>
  makeNotification(id, { type, level, title, message: 'm' });

beforeEach(() => {
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  vi.mocked(notify.info).mockClear();
  vi.mocked(notify.warning).mockClear();
});
afterEach(() => vi.unstubAllGlobals());

function Signed() {
  return (
    <>
      <NotificationStream />
      <NotificationsIndicator />
    </>
  );
}

describe('the notification stream', () => {
  it('opens one EventSource, updates the unread count at once, toasts emergency access, and closes on unmount', async () => {
    let server = [item('a', 'info', 'info', 'Appointment tomorrow')];
    mockFetch(() => json(server));
    const { unmount } = renderRoutes([{ path: '/', element: <Signed /> }], '/');
    await screen.findByRole('link', { name: 'Notifications, 1 unread' });
    expect(FakeEventSource.instances).toHaveLength(1);
    const source = FakeEventSource.instances[0]!;
    expect(source.url).toBe(NOTIFICATION_STREAM_URL);

    const access = item('b', 'qr_access');
    server = [access, ...server];
    act(() => source.emit('notification', access));
    await screen.findByRole('link', { name: 'Notifications, 2 unread' });
    expect(notify.info).toHaveBeenCalledWith('Emergency information accessed');

    const locked = item('c', 'family_emergency_access', 'warning', 'Emergency QR code locked');
    server = [locked, ...server];
    act(() => source.emit('notification', locked));
    await screen.findByRole('link', { name: 'Notifications, 3 unread' });
    expect(notify.warning).toHaveBeenCalledWith('Emergency QR code locked');

    // Other kinds update the list without a toast.
    const other = item('d', 'info', 'info', 'Shared records opened');
    server = [other, ...server];
    act(() => source.emit('notification', other));
    await screen.findByRole('link', { name: 'Notifications, 4 unread' });
    expect(notify.info).toHaveBeenCalledTimes(1);

    unmount();
    expect(source.closed).toBe(true);
    expect(FakeEventSource.instances).toHaveLength(1);
  });

  it('an access notice pushed again with a count updates the list in place, unread again, without another toast', async () => {
    const first = { ...item('b', 'qr_access'), is_read: true };
    let server = [first];
    mockFetch(() => json(server));
    renderRoutes([{ path: '/', element: <Signed /> }], '/');
    await screen.findByRole('link', { name: 'Notifications, 0 unread' });
    const source = FakeEventSource.instances[0]!;
    // Issue 30: views within 15 minutes update the one notice of the code.
    const counted = makeNotification('b', {
      type: 'qr_access',
      level: 'info',
      title: 'Emergency information accessed',
      message: 'Your emergency information was opened 3 times since 06:01 UTC.',
    });
    server = [counted];
    act(() => source.emit('notification', counted));
    await screen.findByRole('link', { name: 'Notifications, 1 unread' });
    expect(notify.info).not.toHaveBeenCalled();
  });

  it('refetches the list when the stream reconnects, not when it first opens', async () => {
    let server = [item('a', 'info', 'info', 'Appointment tomorrow')];
    const { calls } = mockFetch(() => json(server));
    renderRoutes([{ path: '/', element: <Signed /> }], '/');
    await screen.findByRole('link', { name: 'Notifications, 1 unread' });
    const source = FakeEventSource.instances[0]!;
    const listCalls = () => calls.filter((call) => call.url.endsWith('/api/user/notifications')).length;
    act(() => source.emitOpen());
    const before = listCalls();
    server = [item('b', 'qr_access'), ...server];
    act(() => source.emitOpen());
    await screen.findByRole('link', { name: 'Notifications, 2 unread' });
    expect(listCalls()).toBe(before + 1);
  });
});
