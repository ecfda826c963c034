import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { pushState, sendTestPush } from '../lib/push-device';
import { PushDeviceSetting } from './push-device-setting';

// The browser's push machinery (service worker, PushManager) is not in jsdom: the device's state and
// the test send are the lib's, replaced here; the journey (e2e/tests/reminders.e2e.ts) runs the real one.
vi.mock('../lib/push-device', () => ({
  pushState: vi.fn(),
  sendTestPush: vi.fn(),
  turnOffPush: vi.fn(),
  turnOnPush: vi.fn(),
}));

function renderSetting() {
  mockFetch((call) =>
    call.url === '/api/config' ? json({ vapid_public_key: 'BPk', max_upload_bytes: 1 }) : json({ message: 'Not found' }, 404),
  );
  return renderRoutes([{ path: '/', element: <PushDeviceSetting /> }], '/');
}

beforeEach(() => {
  vi.mocked(sendTestPush).mockReset();
});

describe('Reminders on this device: the test notification', () => {
  it('is offered once the device is on, and says a notification is on its way', async () => {
    vi.mocked(pushState).mockResolvedValue('on');
    vi.mocked(sendTestPush).mockResolvedValue('sent');
    const user = userEvent.setup();
    renderSetting();
    await user.click(await screen.findByRole('button', { name: 'Send a test notification' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('A test notification is on its way to this device.'));
    expect(sendTestPush).toHaveBeenCalledTimes(1);
  });

  it('is not offered while the device is off', async () => {
    vi.mocked(pushState).mockResolvedValue('off');
    renderSetting();
    expect(await screen.findByText('Reminders are not shown on this device.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send a test notification' })).toBeNull();
  });

  it('a subscription the push service ended turns the switch off and says so', async () => {
    vi.mocked(pushState).mockResolvedValue('on');
    vi.mocked(sendTestPush).mockResolvedValue('gone');
    const user = userEvent.setup();
    renderSetting();
    await user.click(await screen.findByRole('button', { name: 'Send a test notification' }));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe('This device no longer receives reminders. Turn them on again.'),
    );
    expect(screen.getByRole<HTMLInputElement>('switch', { name: 'Reminders on this device' }).checked).toBe(false);
    expect(screen.queryByRole('button', { name: 'Send a test notification' })).toBeNull();
  });
});
