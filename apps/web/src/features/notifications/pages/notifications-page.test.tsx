import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { LOCAL_NOTIFICATIONS_KEY, clearLocalNotifications } from '../../../lib/local-notifications';
import { notify } from '../../../lib/toast';
import { NotificationsPage } from './notifications-page';
import { makeNotification } from '../testing/fixtures';

vi.mock('../../../lib/toast');

afterEach(() => {
  clearLocalNotifications();
  vi.mocked(notify.error).mockClear();
});

function note(id: string, time: Date, over: Parameters<typeof makeNotification>[1] = {}) {
  return makeNotification(id, { time: time.toISOString(), ...over });
}

const now = new Date();
const today = (h: number) => new Date(now.getFullYear(), now.getMonth(), now.getDate(), h, 0);
const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1, 9, 30);
const older = new Date(2024, 0, 15, 12, 0);

const list = [
  note('setup', older, { type: 'qr_setup', is_read: true }),
  note('access', today(1)),
  note('locked', yesterday, { level: 'warning', title: 'Emergency QR code locked' }),
  note('disabled', today(2), { level: 'error', type: 'family_emergency_access', title: 'Emergency QR code deactivated' }),
  note('other', today(0), { type: 'info', level: 'info', title: 'Welcome' }),
];
/** Levels on a type that is neither access nor setup: the only way they colour an item. */
const levelled = [
  note('failed', older, { type: 'info', level: 'error', title: 'Reminder failed' }),
  note('soon', older, { type: 'info', level: 'warning', title: 'Appointment soon' }),
];

function renderPage() {
  return renderRoutes([{ path: '/notifications', element: <NotificationsPage /> }], '/notifications');
}

/** Puts notices in this browser's store the way the upload screens save them (SPEC §3 Local notification). */
function storeLocal(items: { id: number; text: string; isRead: boolean }[]) {
  localStorage.setItem(LOCAL_NOTIFICATIONS_KEY, JSON.stringify(items));
}

const titles = () => screen.queryAllByRole('article').map((a) => a.querySelector('h3')?.textContent);

describe('notifications page', () => {
  it('groups by date, newest first, and colours each item by the spec’s rules', async () => {
    mockFetch(() => json([...list, ...levelled]));
    renderPage();
    await screen.findByRole('heading', { level: 2, name: 'Today' });
    const groups = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(groups).toEqual(['Today', 'Yesterday', 'Monday, January 15, 2024']);
    expect(titles()).toEqual([
      'Emergency QR code deactivated',
      'Title access',
      'Welcome',
      'Emergency QR code locked',
      'Title setup',
      'Reminder failed',
      'Appointment soon',
    ]);

    const tone = (title: string) => screen.getByRole('article', { name: title });
    expect(tone('Title setup').getAttribute('data-tone')).toBe('read');
    expect(tone('Title setup').className).toContain('bg-slate-50');
    expect(tone('Title access').className).toContain('bg-pink-50');
    // Access and setup types come before the levels, in the spec's order.
    expect(tone('Emergency QR code deactivated').className).toContain('bg-pink-50');
    expect(tone('Emergency QR code locked').className).toContain('bg-pink-50');
    expect(tone('Reminder failed').className).toContain('bg-red-50');
    expect(tone('Appointment soon').className).toContain('bg-orange-50');
    expect(tone('Welcome').className).toContain('bg-purple-50');
  });

  it('filters by unread, QR access and level; the chosen filter is pressed', async () => {
    mockFetch(() => json(list));
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('article', { name: 'Welcome' });
    const filters = screen.getByRole('group', { name: 'Show notifications' });
    expect(
      within(filters)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['All', 'Unread', 'QR Access', 'Error', 'Warning', 'Info']);

    await user.click(within(filters).getByRole('button', { name: 'Unread' }));
    expect(within(filters).getByRole('button', { name: 'Unread' }).getAttribute('aria-pressed')).toBe('true');
    expect(within(filters).getByRole('button', { name: 'All' }).getAttribute('aria-pressed')).toBe('false');
    expect(titles()).not.toContain('Title setup');
    expect(titles()).toHaveLength(4);

    await user.click(within(filters).getByRole('button', { name: 'QR Access' }));
    expect(titles()).toEqual(['Emergency QR code deactivated', 'Title access', 'Emergency QR code locked']);

    await user.click(within(filters).getByRole('button', { name: 'Error' }));
    expect(titles()).toEqual(['Emergency QR code deactivated']);
    await user.click(within(filters).getByRole('button', { name: 'Warning' }));
    expect(titles()).toEqual(['Emergency QR code locked']);
    await user.click(within(filters).getByRole('button', { name: 'Info' }));
    expect(titles()).toEqual(['Title access', 'Welcome', 'Title setup']);
  });

  it('toggles read, hides and marks all as read', async () => {
    let items = [note('a', today(1)), note('b', today(0))];
    const { calls } = mockFetch((call) => {
      if (call.method === 'PUT' && call.url.endsWith('/a/toggle')) {
        items = items.map((n) => (n.notification_id === 'a' ? note('a', today(1), { is_read: !n.is_read }) : n));
        return json(items.find((n) => n.notification_id === 'a'));
      }
      if (call.method === 'PUT' && call.url.endsWith('/b/hide'))
        return json({ message: 'Notification hidden', notification_id: 'b', is_hidden: true });
      if (call.method === 'PUT' && call.url.endsWith('/mark-all-read')) return json({ message: 'ok', updated: 1 });
      return json(items);
    });
    const user = userEvent.setup();
    renderPage();
    const a = await screen.findByRole('article', { name: 'Title a' });
    await user.click(within(a).getByRole('button', { name: 'Mark as read' }));
    expect(await within(a).findByRole('button', { name: 'Mark as unread' })).toBeTruthy();
    expect(a.getAttribute('data-tone')).toBe('read');

    await user.click(within(screen.getByRole('article', { name: 'Title b' })).getByRole('button', { name: 'Hide' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Title b' })).toBeNull());

    await user.click(within(a).getByRole('button', { name: 'Mark as unread' }));
    await user.click(await screen.findByRole('button', { name: 'Mark All as Read' }));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/user/notifications/mark-all-read' && c.method === 'PUT')).toBe(true));
    await waitFor(() => expect(screen.getByRole('article', { name: 'Title a' }).getAttribute('data-tone')).toBe('read'));
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Mark All as Read' }).disabled).toBe(true);
  });

  it('on a failed update says so and fetches the list again', async () => {
    const { calls } = mockFetch((call) => (call.method === 'PUT' ? json({}, 500) : json([note('a', today(1))])));
    const user = userEvent.setup();
    renderPage();
    const a = await screen.findByRole('article', { name: 'Title a' });
    await user.click(within(a).getByRole('button', { name: 'Hide' }));
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith('Error hiding notification'));
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET')).toHaveLength(2));
    await user.click(within(screen.getByRole('article', { name: 'Title a' })).getByRole('button', { name: 'Mark as read' }));
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith('Error updating notification'));
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET')).toHaveLength(3));
    await user.click(screen.getByRole('button', { name: 'Mark All as Read' }));
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith('Error updating notifications'));
  });

  it('says "No notifications to display" when there are none', async () => {
    mockFetch(() => json([]));
    renderPage();
    expect(await screen.findByText('No notifications to display')).toBeTruthy();
  });

  it('says "Error fetching notifications" when the list cannot be read', async () => {
    mockFetch(() => json({}, 500));
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toBe('Error fetching notifications');
  });

  it('reads a data field sent as a JSON string', async () => {
    const raw = {
      ...note('s', today(1)),
      data: JSON.stringify({ message: 'From a string', title: 't', type: 'qr_access', level: 'info', is_read: false }),
    };
    mockFetch(() => json([raw]));
    renderPage();
    expect(await screen.findByText('From a string')).toBeTruthy();
  });

  it('shows this device’s upload notices in the one dated list, labelled, with no empty message above them', async () => {
    mockFetch(() => json([note('access', today(1)), note('old', older, { is_read: true, type: 'info', title: 'Welcome' })]));
    storeLocal([
      { id: today(2).getTime(), text: 'File "scan.pdf" uploaded on 1/2/2025, 10:00 AM', isRead: false },
      { id: yesterday.getTime(), text: 'File "xray.png" uploaded on 1/1/2025, 9:30 AM', isRead: true },
    ]);
    renderPage();
    await screen.findByRole('article', { name: 'Title access' });
    expect(screen.queryByText('No notifications to display')).toBeNull();
    expect(screen.queryByRole('region', { name: 'On This Device' })).toBeNull();
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Today',
      'Yesterday',
      'Monday, January 15, 2024',
    ]);
    expect(titles()).toEqual([
      'File "scan.pdf" uploaded on 1/2/2025, 10:00 AM',
      'Title access',
      'File "xray.png" uploaded on 1/1/2025, 9:30 AM',
      'Welcome',
    ]);
    const scan = screen.getByRole('article', { name: 'File "scan.pdf" uploaded on 1/2/2025, 10:00 AM' });
    expect(within(scan).getByText('This device')).toBeTruthy();
    expect(within(scan).getByText('Unread')).toBeTruthy();
    expect(within(screen.getByRole('article', { name: 'Title access' })).queryByText('This device')).toBeNull();
  });

  it('says "No notifications to display" only when neither the account nor this device has any', async () => {
    mockFetch(() => json([]));
    storeLocal([{ id: today(1).getTime(), text: 'File "scan.pdf" uploaded', isRead: false }]);
    const user = userEvent.setup();
    renderPage();
    const scan = await screen.findByRole('article', { name: 'File "scan.pdf" uploaded' });
    expect(screen.queryByText('No notifications to display')).toBeNull();
    await user.click(within(scan).getByRole('button', { name: 'Hide' }));
    expect(await screen.findByText('No notifications to display')).toBeTruthy();
  });

  it('a user toggles, filters and marks all of this device’s notices with the account’s', async () => {
    mockFetch((call) =>
      call.method === 'PUT' ? json({ message: 'ok', updated: 1 }) : json([note('access', today(1), { is_read: true })]),
    );
    storeLocal([{ id: today(2).getTime(), text: 'File "scan.pdf" uploaded', isRead: false }]);
    const user = userEvent.setup();
    renderPage();
    const scan = await screen.findByRole('article', { name: 'File "scan.pdf" uploaded' });
    await user.click(within(scan).getByRole('button', { name: 'Mark as read' }));
    expect(within(scan).getByRole('button', { name: 'Mark as unread' })).toBeTruthy();
    expect(scan.getAttribute('data-tone')).toBe('read');
    await user.click(within(scan).getByRole('button', { name: 'Mark as unread' }));

    const filters = screen.getByRole('group', { name: 'Show notifications' });
    await user.click(within(filters).getByRole('button', { name: 'Unread' }));
    expect(titles()).toEqual(['File "scan.pdf" uploaded']);
    await user.click(within(filters).getByRole('button', { name: 'QR Access' }));
    expect(titles()).toEqual(['Title access']);
    await user.click(within(filters).getByRole('button', { name: 'Info' }));
    expect(titles()).toEqual(['File "scan.pdf" uploaded', 'Title access']);

    await user.click(screen.getByRole('button', { name: 'Mark All as Read' }));
    await waitFor(() => expect(screen.getByRole('article', { name: 'File "scan.pdf" uploaded' }).getAttribute('data-tone')).toBe('read'));
  });

  it('keeps this device’s notices on screen when the account’s list cannot be read', async () => {
    mockFetch(() => json({}, 500));
    storeLocal([{ id: today(1).getTime(), text: 'File "scan.pdf" uploaded', isRead: false }]);
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toContain('Error fetching notifications');
    expect(screen.getByRole('article', { name: 'File "scan.pdf" uploaded' })).toBeTruthy();
    expect(screen.queryByText('No notifications to display')).toBeNull();
  });
});
