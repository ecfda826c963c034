import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderRoutes, type FetchCall } from '../../../../test/utils';
import { TwoFactorSection } from './two-factor-section';

const routes = [{ path: '/settings', element: <TwoFactorSection /> }];
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const OTPAUTH = `otpauth://totp/Kinchart:alice%40example.com?issuer=Kinchart&secret=${SECRET}&algorithm=SHA1&digits=6&period=30`;
const CODES = Array.from({ length: 10 }, (_, i) => `abc${i}-defg-hijk`.replace(/\d/, String.fromCharCode(97 + i)));

/** A server holding the account's two-factor state, as the API answers it. */
function serve(initial: { totp: boolean; left: number }, extra: (call: FetchCall) => Response | undefined = () => undefined) {
  const state = { ...initial };
  const mock = mockFetch((call) => {
    const answer = extra(call);
    if (answer) return answer;
    const route = `${call.method} ${call.url}`;
    if (route === 'GET /api/auth/mfa') return json({ totp: state.totp, passkeys: [], recovery_codes_left: state.left });
    if (route === 'POST /api/auth/mfa/totp/setup') return json({ secret: SECRET, otpauth_url: OTPAUTH });
    if (route === 'POST /api/auth/mfa/totp/confirm') {
      if ((call.body as { code: string }).code !== '123456')
        return json({ message: 'That code did not match. Check the time on your phone and try the newest code.' }, 400);
      Object.assign(state, { totp: true, left: 10 });
      return json({ recovery_codes: CODES });
    }
    if (route === 'DELETE /api/auth/mfa/totp') {
      Object.assign(state, { totp: false, left: 0 });
      return json({ message: 'Two-factor authentication is off' });
    }
    if (route === 'POST /api/auth/mfa/recovery-codes') {
      state.left = 10;
      return json({ recovery_codes: CODES.map((c) => c.replace('defg', 'wxyz')) });
    }
    return json({ message: 'Not found' }, 404);
  });
  return mock;
}

describe('two-factor authentication in settings', () => {
  it('a user sets up an authenticator app: QR code and key, a wrong code is refused, the right one shows the ten recovery codes once', async () => {
    const { calls } = serve({ totp: false, left: 0 });
    const user = userEvent.setup();
    renderRoutes(routes, '/settings');

    expect(await screen.findByText('Off')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Set up' }));

    expect(await screen.findByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeTruthy();
    expect(screen.getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeTruthy();
    const code = screen.getByLabelText('Enter the 6-digit code from the app');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(code.getAttribute('inputmode')).toBe('numeric');

    // The shape is checked before anything is sent.
    await user.type(code, '12a');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText('Enter the 6-digit code from your authenticator app')).toBeTruthy();
    expect(calls.some((c) => c.url === '/api/auth/mfa/totp/confirm')).toBe(false);

    await user.clear(code);
    await user.type(code, '654321');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/did not match/);

    await user.type(screen.getByLabelText('Enter the 6-digit code from the app'), '123 456');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    const panel = await screen.findByRole('region', { name: 'Save your recovery codes' });
    const list = within(panel).getByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(CODES);
    expect(within(panel).getByText(/shown only now/)).toBeTruthy();
    for (const name of ['Copy codes', 'Download codes', 'Print codes']) expect(within(panel).getByRole('button', { name })).toBeTruthy();
    expect(calls.filter((c) => c.url === '/api/auth/mfa/totp/confirm').map((c) => c.body)).toEqual([
      { code: '654321' },
      { code: '123456' },
    ]);

    await user.click(within(panel).getByRole('button', { name: 'I have saved my codes' }));
    expect(await screen.findByText('On')).toBeTruthy();
    expect(await screen.findByText('10 of 10 recovery codes left.')).toBeTruthy();
    expect(screen.queryByText(CODES[0]!)).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('Two-factor authentication turned on successfully.');
  });

  it('copies the recovery codes, one a line', async () => {
    serve({ totp: true, left: 3 });
    const user = userEvent.setup();
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderRoutes(routes, '/settings');
    await user.click(await screen.findByRole('button', { name: 'New recovery codes' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Make new codes' }));
    await user.click(await screen.findByRole('button', { name: 'Copy codes' }));
    expect(writeText).toHaveBeenCalledWith(CODES.map((c) => c.replace('defg', 'wxyz')).join('\n'));
  });

  it('with TOTP on, shows the codes left, warns when few are left, and makes a new set after asking', async () => {
    const { calls } = serve({ totp: true, left: 2 });
    const user = userEvent.setup();
    renderRoutes(routes, '/settings');

    expect(await screen.findByText('2 of 10 recovery codes left. Make new ones before you run out.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'New recovery codes' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Make new recovery codes?' });
    expect(within(dialog).getByText('Your current recovery codes will stop working.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Make new codes' }));

    const panel = await screen.findByRole('region', { name: 'Save your recovery codes' });
    expect(within(panel).getByText(/old ones no longer work/)).toBeTruthy();
    expect(within(panel).getAllByRole('listitem')[0]!.textContent).toBe(CODES[0]!.replace('defg', 'wxyz'));
    expect(calls.filter((c) => c.method === 'POST' && c.url === '/api/auth/mfa/recovery-codes')).toHaveLength(1);
  });

  it('turns TOTP off after asking, and Cancel changes nothing', async () => {
    const { calls } = serve({ totp: true, left: 10 });
    const user = userEvent.setup();
    renderRoutes(routes, '/settings');

    await user.click(await screen.findByRole('button', { name: 'Turn off' }));
    await user.click(
      within(screen.getByRole('alertdialog', { name: 'Turn off two-factor authentication?' })).getByRole('button', { name: 'Cancel' }),
    );
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Turn off' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText('Off')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Two-factor authentication turned off successfully.'));
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual(['/api/auth/mfa/totp']);
    expect(screen.getByRole('button', { name: 'Set up' })).toBeTruthy();
  });

  it('says so when the status cannot be loaded, and tries again', async () => {
    let fail = true;
    serve({ totp: false, left: 0 }, (call) => (call.url === '/api/auth/mfa' && fail ? json({ message: 'boom' }, 500) : undefined));
    const user = userEvent.setup();
    renderRoutes(routes, '/settings');
    expect(await screen.findByText('Two-factor authentication could not be loaded.')).toBeTruthy();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: 'Set up' })).toBeTruthy();
  });
});
