import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { PASSWORD_RESET_DONE } from '@kinchart/shared/auth';
import type { FetchCall } from '../../../../test/utils';
import { Landmark, json, mockFetch, renderRoutes } from '../../../../test/utils';
import { ResetPasswordPage } from './reset-password-page';

const TOKEN = 'r'.repeat(43);
const VALID = { valid: true, expires_at: '2030-01-01T00:00:00.000Z' };
const USED = 'This password reset link has already been used. Please ask for a new one.';

/** The page's look at its link as it opens (GET), then `post` for the reset itself. */
const answering =
  (post: () => Response, check: () => Response = () => json(VALID)) =>
  (call: FetchCall) =>
    call.method === 'GET' ? check() : post();
const routes = [
  { path: '/reset-password', element: <ResetPasswordPage /> },
  { path: '/login', element: <Landmark name="Login route" /> },
];

async function setPassword(password: string, confirm = password) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('New Password'), password);
  await user.type(screen.getByLabelText('Confirm New Password'), confirm);
  await user.click(screen.getByRole('button', { name: 'Set new password' }));
  return user;
}

describe('reset password page', () => {
  it('sets the new password with the token of the link, then says so and leads to login', async () => {
    const { calls } = mockFetch(answering(() => json({ message: PASSWORD_RESET_DONE })));
    renderRoutes(routes, `/reset-password?token=${TOKEN}`);
    expect(screen.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeTruthy();
    await screen.findByLabelText('New Password');
    const user = await setPassword('a brand new kestrel');
    expect((await screen.findByRole('status')).textContent).toBe(PASSWORD_RESET_DONE);
    expect(calls).toEqual([
      expect.objectContaining({ url: `/api/auth/reset-password?token=${TOKEN}`, method: 'GET' }),
      expect.objectContaining({
        url: '/api/auth/reset-password',
        method: 'POST',
        body: { token: TOKEN, newPassword: 'a brand new kestrel' },
      }),
    ]);
    expect(screen.queryByLabelText('New Password')).toBeNull();
    await user.click(screen.getByRole('link', { name: 'Go to login' }));
    expect(await screen.findByRole('heading', { name: 'Login route' })).toBeTruthy();
  });

  it('states the sign-up password rules under the field and holds to them before sending', async () => {
    const { calls } = mockFetch(answering(() => json({ message: PASSWORD_RESET_DONE })));
    renderRoutes(routes, `/reset-password?token=${TOKEN}`);
    const field = await screen.findByLabelText('New Password');
    const described = (field.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ');
    expect(described).toContain('8–256 characters, and not a common password.');
    await setPassword('short');
    expect(await screen.findByText('Password must be at least 8 characters')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  it('"New passwords do not match" blocks the request', async () => {
    const { calls } = mockFetch(answering(() => json({ message: PASSWORD_RESET_DONE })));
    renderRoutes(routes, `/reset-password?token=${TOKEN}`);
    await screen.findByLabelText('New Password');
    await setPassword('a brand new kestrel', 'a brand new kestrex');
    expect(await screen.findByText('New passwords do not match')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  it('a used link is said plainly as the page opens, with no password to type', async () => {
    mockFetch(
      answering(
        () => json({ message: PASSWORD_RESET_DONE }),
        () => json({ message: USED }, 400),
      ),
    );
    renderRoutes(routes, `/reset-password?token=${TOKEN}`);
    expect((await screen.findByRole('alert')).textContent).toBe(USED);
    expect(screen.queryByLabelText('New Password')).toBeNull();
    expect(screen.getByRole('link', { name: 'Ask for one' }).getAttribute('href')).toBe('/forgot-password');
  });

  it('shows why a link no longer works when it ends while the page is open, and offers a new one', async () => {
    mockFetch(answering(() => json({ message: 'This password reset link has expired. Please ask for a new one.' }, 400)));
    renderRoutes(routes, `/reset-password?token=${TOKEN}`);
    await screen.findByLabelText('New Password');
    await setPassword('a brand new kestrel');
    expect((await screen.findByRole('alert')).textContent).toBe('This password reset link has expired. Please ask for a new one.');
    expect(screen.getByRole('link', { name: 'Ask for one' }).getAttribute('href')).toBe('/forgot-password');
  });

  it('a link without its token offers no form', () => {
    const { calls } = mockFetch(() => json({}, 404));
    renderRoutes(routes, '/reset-password');
    expect(screen.getByRole('alert').textContent).toMatch(/link is incomplete/);
    expect(screen.queryByLabelText('New Password')).toBeNull();
    expect(calls).toHaveLength(0);
  });
});
