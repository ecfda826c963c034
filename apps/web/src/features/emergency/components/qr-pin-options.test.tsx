import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { QrConfig } from '@kinchart/shared/emergency';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { PersonalQrTab } from './personal-qr-tab';
import { MemberQrPanel } from './member-qr-panel';

vi.mock('../../../lib/toast');

const SHARE_ID = 'A'.repeat(43);
const ACTIVE: QrConfig = {
  exists: true,
  is_active: true,
  access_pin: '••••',
  qr_data: `http://localhost/emergency/${SHARE_ID}`,
  share_id: SHARE_ID,
  is_disabled: false,
  essentials_without_pin: false,
  pin_status: 'ok',
};

function renderTab() {
  return renderRoutes([{ path: '/settings', element: <PersonalQrTab /> }], '/settings');
}

describe('QR panel: essentials without the PIN and the owner’s unlock (DESIGN §7)', () => {
  it('the checkbox explains what a stranger sees and saves the choice', async () => {
    let config = ACTIVE;
    const { calls } = mockFetch((call) => {
      if (call.method === 'PUT' && call.url === '/api/user/wearable-qr/settings') {
        config = { ...config, ...(call.body as { essentials_without_pin: boolean }) };
      }
      return json(config);
    });
    const user = userEvent.setup();
    renderTab();
    const box = await screen.findByRole('checkbox', { name: 'Show essentials without the PIN' });
    expect((box as HTMLInputElement).checked).toBe(false);
    const hint = document.getElementById(box.getAttribute('aria-describedby') ?? '');
    expect(hint?.textContent).toMatch(/show when locked/);
    expect(hint?.textContent).toMatch(
      /name, age, blood type, allergies, conditions, bleeding disorder, medication names and primary contact/,
    );

    await user.click(box);
    await waitFor(() => expect((box as HTMLInputElement).checked).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
      url: '/api/user/wearable-qr/settings',
      body: { essentials_without_pin: true },
    });
    expect(await screen.findByText('Essentials are now shown without the PIN.')).toBeTruthy();

    await user.click(box);
    await waitFor(() => expect((box as HTMLInputElement).checked).toBe(false));
    expect(calls.filter((c) => c.method === 'PUT').at(-1)?.body).toEqual({ essentials_without_pin: false });
  });

  it('says when the PIN is locked and "Unlock PIN" calls the unlock route', async () => {
    let config: QrConfig = { ...ACTIVE, pin_status: 'locked' };
    const { calls } = mockFetch((call) => {
      if (call.method === 'PUT' && call.url === '/api/user/wearable-qr/unlock') config = { ...config, pin_status: 'ok' };
      return json(config);
    });
    const user = userEvent.setup();
    renderTab();
    expect(await screen.findByText(/The PIN is locked: 5 wrong PINs in a row/)).toBeTruthy();
    // Issue 30: the lock holds for the network that guessed, not for a responder.
    expect(screen.getByText(/from one network.*anyone else can still enter the PIN/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Turn the PIN back on' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Unlock PIN' }));
    expect(await screen.findByText('The PIN works again.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Unlock PIN' })).toBeNull();
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.url)).toEqual(['/api/user/wearable-qr/unlock']);
  });

  it('a member’s disabled PIN offers "Turn the PIN back on" on the member’s route', async () => {
    let config: QrConfig = { ...ACTIVE, is_active: false, is_disabled: true, pin_status: 'disabled', essentials_without_pin: true };
    const { calls } = mockFetch((call) => {
      if (call.method === 'PUT' && call.url === '/api/user/family/members/m1/qr/unlock') {
        config = { ...config, is_active: true, is_disabled: false, pin_status: 'ok' };
      }
      return json(config);
    });
    const user = userEvent.setup();
    renderRoutes([{ path: '/settings', element: <MemberQrPanel memberId="m1" memberName="Rex" /> }], '/settings');
    expect(
      await screen.findByText(/The PIN is turned off: 10 wrong PINs were entered for Rex’s code\. The essentials are still shown/),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Turn the PIN back on' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Turn the PIN back on' })).toBeNull());
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.url)).toEqual(['/api/user/family/members/m1/qr/unlock']);
    expect(screen.getByRole('button', { name: 'Deactivate' })).toBeTruthy();
  });
});
