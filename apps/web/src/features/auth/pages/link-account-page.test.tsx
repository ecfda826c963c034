import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Landmark, checkAuthAnswer, json, mockFetch, renderRoutes } from '../../../../test/utils';
import { LinkAccountPage } from './link-account-page';

const INFO = { email: 'pat@corp.example', provider: 'Acme ID' };
const routes = [
  { path: '/link-account', element: <LinkAccountPage /> },
  { path: '/login', element: <Landmark name="Login route" /> },
  { path: '/dashboard', element: <Landmark name="Dashboard route" /> },
  { path: '/invite/:token', element: <Landmark name="Invitation route" /> },
];

describe('link account page (single sign-on into an account whose email is not proven)', () => {
  it('asks for the password of the account that uses the email, then signs in and goes on to where the person was going', async () => {
    let signedIn = false;
    const { calls } = mockFetch((call) => {
      if (call.url === '/api/auth/oidc/link' && call.method === 'GET') return json(INFO);
      if (call.url === '/api/auth/oidc/link') {
        signedIn = true;
        return json({ message: 'Login successful.', user: { id: 'u1', username: 'Pat', email: INFO.email } });
      }
      return checkAuthAnswer(signedIn ? 'Pat' : null);
    });
    const next = `/invite/${'t'.repeat(43)}`;
    renderRoutes(routes, `/link-account?next=${encodeURIComponent(next)}`);
    expect(screen.getByRole('heading', { level: 1, name: 'Link your account' })).toBeTruthy();
    expect(await screen.findByText(/pat@corp\.example/)).toBeTruthy();
    expect(screen.getAllByText(/Acme ID/).length).toBeGreaterThan(0);
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe('/forgot-password');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Link and sign in' }));
    expect(await screen.findByRole('heading', { name: 'Invitation route' })).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST')).toMatchObject({
      url: '/api/auth/oidc/link',
      body: { password: 'correct horse battery' },
    });
  });

  it('a wrong password says so and empties the field; nothing is linked', async () => {
    mockFetch((call) => {
      if (call.url === '/api/auth/oidc/link' && call.method === 'GET') return json(INFO);
      if (call.url === '/api/auth/oidc/link') return json({ message: 'Password is incorrect' }, 401);
      return checkAuthAnswer(null);
    });
    renderRoutes(routes, '/link-account');
    await screen.findByText(/pat@corp\.example/);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Password'), 'not it at all');
    await user.click(screen.getByRole('button', { name: 'Link and sign in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Password is incorrect');
    expect(screen.getByLabelText<HTMLInputElement>('Password').value).toBe('');
  });

  it('an account with a second factor goes on to the login page’s second step', async () => {
    mockFetch((call) => {
      if (call.url === '/api/auth/oidc/link' && call.method === 'GET') return json(INFO);
      if (call.url === '/api/auth/oidc/link') return json({ mfa_required: true, methods: ['totp', 'recovery_code'] });
      return checkAuthAnswer(null);
    });
    const { router } = renderRoutes(routes, '/link-account?next=%2Fsettings');
    await screen.findByText(/pat@corp\.example/);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Link and sign in' }));
    expect(await screen.findByRole('heading', { name: 'Login route' })).toBeTruthy();
    expect(router.state.location.search).toBe('?second_factor=totp%2Crecovery_code&next=%2Fsettings');
  });

  it('a sign-in that has expired says so and leads back to the login page', async () => {
    mockFetch(() => json({ message: 'This sign-in has expired. Please sign in with your identity provider again.' }, 404));
    renderRoutes(routes, '/link-account');
    expect((await screen.findByRole('alert')).textContent).toContain('expired');
    expect(screen.queryByLabelText('Password')).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to login' }).getAttribute('href')).toBe('/login');
  });
});
