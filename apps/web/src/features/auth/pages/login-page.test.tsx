import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import 'fake-indexeddb/auto';
import { createStore, del, set } from 'idb-keyval';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Landmark, checkAuthAnswer, empty, json, mockFetch, renderRoutes } from '../../../../test/utils';
import { LoginPage } from './login-page';

const routes = [
  { path: '/login', element: <LoginPage /> },
  { path: '/dashboard', element: <Landmark name="Dashboard route" /> },
  { path: '/invite/:token', element: <Landmark name="Invite route" /> },
];

function value(label: string): string {
  return screen.getByLabelText<HTMLInputElement>(label).value;
}

async function submit(user: ReturnType<typeof userEvent.setup>, email: string, password: string) {
  await user.type(screen.getByLabelText('Email'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Login' }));
}

describe('login page', () => {
  it('shows the heading, intro and links of the spec', async () => {
    mockFetch(() => checkAuthAnswer(null));
    renderRoutes(routes, '/login');
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome Back!' })).toBeTruthy();
    expect(screen.getByText('Please enter your login details.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign up here' }).getAttribute('href')).toBe('/signup');
    expect(screen.getByRole('link', { name: 'Go Home' }).getAttribute('href')).toBe('/');
    expect(screen.getByText('Empowering Patients')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Login' })).toBeTruthy());
  });

  it('offers "Forgot password?" under the password field, leading to /forgot-password', async () => {
    mockFetch(() => checkAuthAnswer(null));
    renderRoutes([...routes, { path: '/forgot-password', element: <Landmark name="Forgot password route" /> }], '/login');
    const link = screen.getByRole('link', { name: 'Forgot password?' });
    expect(link.getAttribute('href')).toBe('/forgot-password');
    // Under the password field, before the Login button.
    const password = screen.getByLabelText('Password');
    const login = screen.getByRole('button', { name: 'Login' });
    expect(password.compareDocumentPosition(link) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(link.compareDocumentPosition(login) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await userEvent.setup().click(link);
    expect(await screen.findByRole('heading', { name: 'Forgot password route' })).toBeTruthy();
  });

  it('a failed attempt shows the server message and clears email and password', async () => {
    const { calls } = mockFetch((call) =>
      call.url === '/api/auth/login' ? json({ message: 'Invalid email or password' }, 401) : checkAuthAnswer(null),
    );
    const user = userEvent.setup();
    renderRoutes(routes, '/login');

    await submit(user, 'Alice@Example.com ', 'wrong password');

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Invalid email or password');
    expect(value('Email')).toBe('');
    expect(value('Password')).toBe('');
    expect(screen.queryByRole('heading', { name: 'Dashboard route' })).toBeNull();
    // The shared login schema trims and lower-cases the email; no other client checks.
    expect(calls.find((c) => c.url === '/api/auth/login')?.body).toEqual({
      email: 'alice@example.com',
      password: 'wrong password',
    });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Email')));
  });

  it('says "An error occurred" when the server gives no message', async () => {
    mockFetch((call) => (call.url === '/api/auth/login' ? empty(500) : checkAuthAnswer(null)));
    const user = userEvent.setup();
    renderRoutes(routes, '/login');

    await submit(user, 'alice@example.com', 'whatever');

    expect((await screen.findByRole('alert')).textContent).toBe('An error occurred');
    expect(value('Email')).toBe('');
    expect(value('Password')).toBe('');
  });

  it('on success re-checks the authentication state before going to /dashboard', async () => {
    let signedIn = false;
    const { calls } = mockFetch((call) => {
      if (call.url === '/api/auth/login') {
        signedIn = true;
        return json({ message: 'Logged in', user: { id: 'u1', username: 'alice', email: 'alice@example.com' } });
      }
      return checkAuthAnswer(signedIn ? 'alice' : null);
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/login');
    // GET /api/config asks whether to offer single sign-on (docs/decisions/0029); here there is none.
    await waitFor(() => expect(calls.map((c) => c.url).filter((url) => url !== '/api/config')).toEqual(['/api/auth/check-auth']));

    await submit(user, 'alice@example.com', 'correct horse battery');

    expect(await screen.findByRole('heading', { name: 'Dashboard route' })).toBeTruthy();
    expect(calls.filter((c) => c.url !== '/api/config').map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET /api/auth/check-auth',
      'POST /api/auth/login',
      'GET /api/auth/check-auth',
    ]);
    expect(calls.every((c) => c.credentials === 'include')).toBe(true);
  });

  it('sends someone who is already signed in to /dashboard', async () => {
    mockFetch(() => checkAuthAnswer('alice'));
    renderRoutes(routes, '/login');
    expect(await screen.findByRole('heading', { name: 'Dashboard route' })).toBeTruthy();
  });

  it('goes back to a page of this site that sent the visitor here (?next=), and passes it on to Sign up', async () => {
    let signedIn = false;
    mockFetch((call) => {
      if (call.url === '/api/auth/login') {
        signedIn = true;
        return json({ message: 'Logged in', user: { id: 'u1', username: 'alice', email: 'alice@example.com' } });
      }
      return checkAuthAnswer(signedIn ? 'alice' : null);
    });
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/login?next=%2Finvite%2Fabc');
    expect(screen.getByRole('link', { name: 'Sign up here' }).getAttribute('href')).toBe('/signup?next=%2Finvite%2Fabc');
    await submit(user, 'alice@example.com', 'correct horse battery');
    expect(await screen.findByRole('heading', { name: 'Invite route' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/invite/abc');
  });

  it('ignores a ?next= that leads off this site', async () => {
    let signedIn = false;
    mockFetch((call) => {
      if (call.url === '/api/auth/login') {
        signedIn = true;
        return json({ message: 'Logged in', user: { id: 'u1', username: 'alice', email: 'alice@example.com' } });
      }
      return checkAuthAnswer(signedIn ? 'alice' : null);
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/login?next=%2F%2Fevil.example%2F');
    expect(screen.getByRole('link', { name: 'Sign up here' }).getAttribute('href')).toBe('/signup');
    await submit(user, 'alice@example.com', 'correct horse battery');
    expect(await screen.findByRole('heading', { name: 'Dashboard route' })).toBeTruthy();
  });

  it('sends someone already signed in straight to ?next=', async () => {
    mockFetch(() => checkAuthAnswer('alice'));
    renderRoutes(routes, '/login?next=%2Finvite%2Fabc');
    expect(await screen.findByRole('heading', { name: 'Invite route' })).toBeTruthy();
  });

  describe('with a second factor', () => {
    /** A server whose account asks for TOTP after the password; `second` answers the second step. */
    function serveTwoSteps(second: (body: unknown) => Response) {
      let signedIn = false;
      return mockFetch((call) => {
        if (call.url === '/api/auth/login') return json({ mfa_required: true, methods: ['totp', 'recovery_code'] });
        if (call.url === '/api/auth/login/mfa') {
          const answer = second(call.body);
          signedIn = answer.ok;
          return answer;
        }
        return checkAuthAnswer(signedIn ? 'alice' : null);
      });
    }
    const signedInAnswer = () => json({ message: 'Login successful.', user: { id: 'u1', username: 'alice', email: 'alice@example.com' } });

    it('after the password asks for the code from the authenticator app, then signs in like any login', async () => {
      const { calls } = serveTwoSteps((body) =>
        (body as { code?: string }).code === '123456' ? signedInAnswer() : json({ message: 'Invalid authentication code' }, 401),
      );
      const user = userEvent.setup();
      renderRoutes(routes, '/login');
      await submit(user, 'alice@example.com', 'correct horse battery');

      const code = await screen.findByLabelText('Authentication code');
      expect(screen.getByText('Enter the 6-digit code from your authenticator app.')).toBeTruthy();
      expect(code.getAttribute('autocomplete')).toBe('one-time-code');
      expect(code.getAttribute('inputmode')).toBe('numeric');
      await waitFor(() => expect(document.activeElement).toBe(code));
      // The password step is gone, and nobody is signed in yet.
      expect(screen.queryByLabelText('Password')).toBeNull();
      expect(calls.filter((c) => c.url !== '/api/config').map((c) => `${c.method} ${c.url}`)).toEqual([
        'GET /api/auth/check-auth',
        'POST /api/auth/login',
      ]);

      await user.type(code, '12');
      await user.click(screen.getByRole('button', { name: 'Verify' }));
      expect((await screen.findByRole('alert')).textContent).toBe('Enter the 6-digit code from your authenticator app');
      expect(calls.some((c) => c.url === '/api/auth/login/mfa')).toBe(false);

      await user.clear(screen.getByLabelText('Authentication code'));
      await user.type(screen.getByLabelText('Authentication code'), '000000');
      await user.click(screen.getByRole('button', { name: 'Verify' }));
      expect((await screen.findByRole('alert')).textContent).toBe('Invalid authentication code');
      expect(value('Authentication code')).toBe('');

      await user.type(screen.getByLabelText('Authentication code'), '123 456');
      await user.click(screen.getByRole('button', { name: 'Verify' }));
      expect(await screen.findByRole('heading', { name: 'Dashboard route' })).toBeTruthy();
      expect(calls.filter((c) => c.url === '/api/auth/login/mfa').map((c) => c.body)).toEqual([{ code: '000000' }, { code: '123456' }]);
      // SPEC §4: the authentication state is re-checked after the login completes.
      expect(calls.at(-1)?.url).toBe('/api/auth/check-auth');
    });

    it('offers a recovery code instead', async () => {
      const { calls } = serveTwoSteps(() => signedInAnswer());
      const user = userEvent.setup();
      renderRoutes(routes, '/login');
      await submit(user, 'alice@example.com', 'correct horse battery');

      await user.click(await screen.findByRole('button', { name: 'Use a recovery code instead' }));
      const field = screen.getByLabelText('Recovery code');
      await waitFor(() => expect(document.activeElement).toBe(field));
      expect(screen.getByText('Enter one of your recovery codes. Each code works once.')).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Use your authenticator app instead' })).toBeTruthy();
      await user.type(field, 'abcd-efgh-ijkm');
      await user.click(screen.getByRole('button', { name: 'Verify' }));
      expect(await screen.findByRole('heading', { name: 'Dashboard route' })).toBeTruthy();
      expect(calls.find((c) => c.url === '/api/auth/login/mfa')?.body).toEqual({ recovery_code: 'abcd-efgh-ijkm' });
    });

    it('when the 5 minutes are up, goes back to email and password with the server message', async () => {
      serveTwoSteps(() => json({ message: 'Your sign-in has expired. Please log in again.', error: 'login_expired' }, 401));
      const user = userEvent.setup();
      renderRoutes(routes, '/login');
      await submit(user, 'alice@example.com', 'correct horse battery');
      await user.type(await screen.findByLabelText('Authentication code'), '123456');
      await user.click(screen.getByRole('button', { name: 'Verify' }));

      expect((await screen.findByRole('alert')).textContent).toBe('Your sign-in has expired. Please log in again.');
      expect(value('Email')).toBe('');
      expect(value('Password')).toBe('');
      await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Email')));
    });

    it('Start over goes back to email and password', async () => {
      serveTwoSteps(() => signedInAnswer());
      const user = userEvent.setup();
      renderRoutes(routes, '/login');
      await submit(user, 'alice@example.com', 'correct horse battery');
      await user.click(await screen.findByRole('button', { name: 'Start over' }));
      expect(screen.getByRole('button', { name: 'Login' })).toBeTruthy();
      expect(screen.queryByRole('alert')).toBeNull();
      await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Email')));
    });
  });
  describe('with single sign-on', () => {
    /** A server with a provider named Acme ID; `start` answers POST /api/auth/oidc/start. */
    function serveSso(start: () => Response = () => json({ url: 'https://id.example.org/auth?state=s' })) {
      return mockFetch((call) => {
        if (call.url === '/api/config') return json({ max_upload_bytes: 1024, signup_mode: 'open', sso: { name: 'Acme ID' } });
        if (call.url === '/api/auth/oidc/start') return start();
        return checkAuthAnswer(null);
      });
    }

    it('offers "Sign in with {name}" below the form, which starts a sign-on that comes back to ?next=', async () => {
      const assign = vi.fn();
      vi.stubGlobal('location', { ...window.location, assign });
      const { calls } = serveSso();
      const user = userEvent.setup();
      renderRoutes(routes, '/login?next=%2Finvite%2Fabc');
      const button = await screen.findByRole('button', { name: 'Sign in with Acme ID' });
      expect(screen.getByRole('button', { name: 'Login' }).compareDocumentPosition(button) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
      await user.click(button);
      await waitFor(() => expect(assign).toHaveBeenCalledWith('https://id.example.org/auth?state=s'));
      expect(calls.find((c) => c.url === '/api/auth/oidc/start')?.body).toEqual({ purpose: 'login', next: '/invite/abc' });
      vi.unstubAllGlobals();
    });

    it('says why a sign-on came back without signing in', async () => {
      serveSso();
      renderRoutes(routes, '/login?sso_error=unverified');
      expect((await screen.findByRole('alert')).textContent).toBe(
        'Your identity provider did not confirm your email address, so it cannot sign you in here.',
      );
    });

    it('says when the sign-on could not start', async () => {
      serveSso(() =>
        json({ message: 'Single sign-on is not available right now. Please try again later, or log in with your password.' }, 503),
      );
      const user = userEvent.setup();
      renderRoutes(routes, '/login');
      await user.click(await screen.findByRole('button', { name: 'Sign in with Acme ID' }));
      expect((await screen.findByRole('alert')).textContent).toBe(
        'Single sign-on is not available right now. Please try again later, or log in with your password.',
      );
    });

    it('opens at the second step when the provider signed in an account with a second factor', async () => {
      serveSso();
      renderRoutes(routes, '/login?second_factor=totp%2Crecovery_code');
      expect(await screen.findByLabelText('Authentication code')).toBeTruthy();
      expect(screen.queryByLabelText('Password')).toBeNull();
      expect(screen.getByRole('button', { name: 'Use a recovery code instead' })).toBeTruthy();
    });
  });

  describe('without a connection', () => {
    const cardsStore = () => createStore('kinchart-offline', 'emergency-cards');
    afterEach(async () => {
      await del('cards', cardsStore());
    });

    it('a login tried offline says the connection is missing at once, not "An error occurred" (and does not wait silently)', async () => {
      mockFetch(() => Promise.reject(new TypeError('Failed to fetch')));
      vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
      window.dispatchEvent(new Event('offline'));
      const user = userEvent.setup();
      renderRoutes(routes, '/login');

      await submit(user, 'alice@example.com', 'secret password');

      expect((await screen.findByRole('alert')).textContent).toBe(
        'You are offline, so you cannot log in right now. Please try again once you are connected.',
      );
      window.dispatchEvent(new Event('online'));
    });

    it('a device that keeps emergency cards offers a link to them on the login page', async () => {
      await set('cards', { version: 1, userId: 'u1', savedAt: '2026-03-04T10:41:00.000Z', cards: [{ profile_id: 'p1' }] }, cardsStore());
      mockFetch(() => Promise.reject(new TypeError('Failed to fetch')));
      renderRoutes(routes, '/login');
      const link = await screen.findByRole('link', { name: 'Open the emergency cards saved on this device' });
      expect(link.getAttribute('href')).toBe('/emergency-cards');
    });

    it('a device without kept cards shows no such link', async () => {
      mockFetch(() => checkAuthAnswer(null));
      renderRoutes(routes, '/login');
      await screen.findByRole('button', { name: 'Login' });
      // The check reads IndexedDB; give it the same chance as the test above before looking.
      await waitFor(() => expect(screen.getByRole('link', { name: 'Go Home' })).toBeTruthy());
      expect(screen.queryByRole('link', { name: 'Open the emergency cards saved on this device' })).toBeNull();
    });
  });
});
