import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { NotificationsPage } from '../pages/notifications-page';
import { makeNotification } from '../testing/fixtures';

vi.mock('../../../lib/toast');

function note(id: string, level: 'warning' | 'error' | 'info', title: string, action?: { kind: 'unlock_pin'; member_id: string | null }) {
  const type = action?.member_id ? 'family_emergency_access' : 'qr_access';
  return makeNotification(id, { type, level, title, ...(action ? { action } : {}) });
}

const CONFIG = {
  exists: true,
  is_active: true,
  access_pin: '••••',
  qr_data: null,
  share_id: 'A'.repeat(43),
  is_disabled: false,
  essentials_without_pin: false,
  pin_status: 'ok',
};

describe('the unlock action on lock and disable notices (DESIGN §7)', () => {
  it('"Unlock PIN" on the own code\'s lock notice and "Turn the PIN back on" on a member\'s disable notice call their unlock routes', async () => {
    const { calls } = mockFetch((call) => {
      if (call.url === '/api/user/notifications') {
        return json([
          note('locked', 'warning', 'Emergency QR code locked', { kind: 'unlock_pin', member_id: null }),
          note('disabled', 'error', 'Emergency QR code deactivated', { kind: 'unlock_pin', member_id: 'm1' }),
          note('access', 'info', 'Emergency information accessed'),
        ]);
      }
      return json(CONFIG);
    });
    const user = userEvent.setup();
    renderRoutes([{ path: '/notifications', element: <NotificationsPage /> }], '/notifications');
    const article = async (title: string) =>
      (await screen.findByRole('heading', { level: 3, name: title })).closest('article') as HTMLElement;

    const locked = await article('Emergency QR code locked');
    await user.click(within(locked).getByRole('button', { name: 'Unlock PIN' }));
    expect(await within(locked).findByText('The PIN works again.')).toBeTruthy();
    expect(within(locked).queryByRole('button', { name: 'Unlock PIN' })).toBeNull();

    const disabled = await article('Emergency QR code deactivated');
    await user.click(within(disabled).getByRole('button', { name: 'Turn the PIN back on' }));
    expect(await within(disabled).findByText('The PIN works again.')).toBeTruthy();

    const access = await article('Emergency information accessed');
    expect(within(access).queryByRole('button', { name: /Unlock PIN|Turn the PIN back on/ })).toBeNull();
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.url)).toEqual([
      '/api/user/wearable-qr/unlock',
      '/api/user/family/members/m1/qr/unlock',
    ]);
  });

  it('says so when the code no longer exists', async () => {
    mockFetch((call) =>
      call.url === '/api/user/notifications'
        ? json([note('locked', 'warning', 'Emergency QR code locked', { kind: 'unlock_pin', member_id: 'gone' })])
        : json({ message: 'Family member not found' }, 404),
    );
    const user = userEvent.setup();
    renderRoutes([{ path: '/notifications', element: <NotificationsPage /> }], '/notifications');
    await user.click(await screen.findByRole('button', { name: 'Unlock PIN' }));
    expect(await screen.findByText('This QR code no longer exists.')).toBeTruthy();
  });
});
