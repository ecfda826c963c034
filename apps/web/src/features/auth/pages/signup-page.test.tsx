import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { SignupMode } from '@kinchart/shared/auth';
import type { FetchCall } from '../../../../test/utils';
import { Landmark, json, mockFetch, renderRoutes } from '../../../../test/utils';
import { SignupPage } from './signup-page';

const routes = [
  { path: '/signup', element: <SignupPage /> },
  { path: '/login', element: <Landmark name="Login route" /> },
];

/** The server: GET /api/config says `mode`; everything else goes to `handler`. */
function mockServer(handler: (call: FetchCall) => Response | Promise<Response>, mode: SignupMode = 'open') {
  const mocked = mockFetch((call) =>
    call.url === '/api/config' ? json({ max_upload_bytes: 1024, signup_mode: mode, passkeys: true }) : handler(call),
  );
  return { ...mocked, signupCalls: () => mocked.calls.filter((c) => c.url === '/api/auth/signup') };
}

const INVITE_TOKEN = 'T'.repeat(43);

function renderSignup() {
  return renderRoutes(routes, '/signup');
}

async function fillForm(user: ReturnType<typeof userEvent.setup>, username = 'alice') {
  if (username) await user.type(screen.getByLabelText('Username'), username);
  await user.type(screen.getByLabelText('Email'), 'alice@example.com');
  await user.type(screen.getByLabelText('Password'), 'correct horse battery');
}

describe('sign-up page', () => {
  it('shows the heading, intro, labelled fields and links of the spec', () => {
    mockServer(() => json({}, 404));
    renderSignup();
    expect(screen.getByRole('heading', { level: 1, name: 'Create an Account' })).toBeTruthy();
    expect(screen.getByText('Join Kinchart! Please fill in the form below.')).toBeTruthy();
    expect(screen.getByText('Empowering Patients')).toBeTruthy();
    expect(screen.getByText('Your health records, simplified. Access and manage your medical info.')).toBeTruthy();
    expect(screen.getByLabelText('Email').getAttribute('type')).toBe('email');
    expect(screen.getByLabelText('Password').getAttribute('type')).toBe('password');
    expect(screen.getByRole('link', { name: 'Sign in here' }).getAttribute('href')).toBe('/login');
    expect(screen.getByRole('link', { name: 'Go Home' }).getAttribute('href')).toBe('/');
  });

  it('a new user reads the password rules under the password field before submitting anything', () => {
    const { signupCalls } = mockServer(() => json({}, 404));
    renderSignup();
    const password = screen.getByLabelText('Password');
    const described = (password.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ');
    expect(described).toContain('8–256 characters');
    expect(described).toContain('not a common password');
    expect(signupCalls()).toHaveLength(0);
  });

  it('a blank username shows "Username is required" and sends no request', async () => {
    const { signupCalls } = mockServer(() => json({ message: 'created' }, 201));
    const user = userEvent.setup();
    renderSignup();

    await user.type(screen.getByLabelText('Username'), '   ');
    await user.type(screen.getByLabelText('Email'), 'alice@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));

    expect(await screen.findByText('Username is required')).toBeTruthy();
    expect(screen.getByLabelText('Username').getAttribute('aria-invalid')).toBe('true');
    expect(signupCalls()).toHaveLength(0);
  });

  it('while the request runs the button reads "Creating Account..." and everything is disabled', async () => {
    let answer: (response: Response) => void = () => undefined;
    mockServer(() => new Promise<Response>((resolve) => (answer = resolve)));
    const user = userEvent.setup();
    renderSignup();

    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));

    const busyButton = await screen.findByRole('button', { name: 'Creating Account...' });
    expect((busyButton as HTMLButtonElement).disabled).toBe(true);
    for (const label of ['Username', 'Email', 'Password']) {
      expect(screen.getByLabelText<HTMLInputElement>(label).disabled).toBe(true);
    }

    await act(async () => answer(json({ message: 'Email already registered' }, 409)));
    expect(await screen.findByRole('button', { name: 'Sign Up' })).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Username').disabled).toBe(false);
  });

  it('sends the trimmed username, then shows the success messages and moves to /login after 2 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { signupCalls } = mockServer(() => json({ message: 'User created' }, 201));
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    renderSignup();

    await fillForm(user, '  alice  ');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));

    const status = await screen.findByRole('status');
    expect(status.textContent).toBe('Account created successfully!');
    expect(status.querySelector('p')?.className).toContain('text-green');
    expect(signupCalls()).toHaveLength(1);
    expect(signupCalls()[0]).toMatchObject({
      url: '/api/auth/signup',
      method: 'POST',
      body: { username: 'alice', email: 'alice@example.com', password: 'correct horse battery' },
    });

    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    expect(screen.getByRole('status').textContent).toBe('Account created successfully! Redirecting to login...');
    expect(screen.queryByRole('heading', { name: 'Login route' })).toBeNull();

    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    expect(screen.getByRole('heading', { name: 'Login route' })).toBeTruthy();
  });

  it('shows the server message in red when sign-up fails', async () => {
    mockServer(() => json({ message: 'An account with this email already exists' }, 409));
    const user = userEvent.setup();
    renderSignup();

    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('An account with this email already exists');
    expect(alert.className).toContain('text-red');
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('falls back to the error field, then the client error text', async () => {
    const answers: (() => Response)[] = [
      () => json({ error: 'Password is too common' }, 400),
      () => {
        throw new TypeError('Failed to fetch');
      },
    ];
    mockServer(() => {
      const next = answers.shift();
      if (!next) throw new Error('unexpected request');
      return next();
    });
    const user = userEvent.setup();
    renderSignup();

    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Password is too common');

    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect((await screen.findByText('Failed to fetch')).getAttribute('role')).toBe('alert');
  });

  it('someone who came to sign up from an invitation goes on to /login with the way back (?next=)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    mockServer(() => json({ message: 'User created' }, 201));
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    const { router } = renderRoutes(routes, '/signup?next=%2Finvite%2Fabc');
    expect(screen.getByRole('link', { name: 'Sign in here' }).getAttribute('href')).toBe('/login?next=%2Finvite%2Fabc');
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    await screen.findByRole('status');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2000);
    });
    expect(screen.getByRole('heading', { name: 'Login route' })).toBeTruthy();
    expect(router.state.location.search).toBe('?next=%2Finvite%2Fabc');
  });

  describe('SIGNUP_MODE', () => {
    it('a closed server says so instead of offering the form, and sign-in is still offered', async () => {
      mockServer(() => json({}, 404), 'closed');
      renderSignup();
      expect((await screen.findByRole('alert')).textContent).toBe('Sign-up is closed on this server.');
      expect(screen.queryByLabelText('Username')).toBeNull();
      expect(screen.queryByRole('button', { name: 'Sign Up' })).toBeNull();
      expect(screen.getByRole('link', { name: 'Sign in here' }).getAttribute('href')).toBe('/login');
    });

    it('an invite-only server says so to someone who came without an invitation', async () => {
      mockServer(() => json({}, 404), 'invite');
      renderSignup();
      expect((await screen.findByRole('alert')).textContent).toBe('Sign-up is by invitation only.');
      expect(screen.getByText(/their invitation link lets you create an account/)).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Sign Up' })).toBeNull();
    });

    it('someone who came from an invitation link signs up on an invite-only server, the token going along', async () => {
      const { signupCalls } = mockServer(() => json({ message: 'Account created successfully!' }, 201), 'invite');
      const user = userEvent.setup();
      renderRoutes(routes, `/signup?next=${encodeURIComponent(`/invite/${INVITE_TOKEN}`)}`);
      // The form stays once the mode is known (the invitation is there); the token in the body
      // shows the mode was known when it was sent.
      await fillForm(user);
      await user.click(screen.getByRole('button', { name: 'Sign Up' }));
      expect((await screen.findByRole('status')).textContent).toBe('Account created successfully!');
      expect(signupCalls()[0]?.body).toEqual({
        username: 'alice',
        email: 'alice@example.com',
        password: 'correct horse battery',
        invitation: INVITE_TOKEN,
        time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      });
    });

    it('an open server gets the three fields of the spec and the browser’s time zone, even from an invitation link', async () => {
      const { signupCalls } = mockServer(() => json({ message: 'Account created successfully!' }, 201), 'open');
      const user = userEvent.setup();
      renderRoutes(routes, `/signup?next=${encodeURIComponent(`/invite/${INVITE_TOKEN}`)}`);
      await fillForm(user);
      await user.click(screen.getByRole('button', { name: 'Sign Up' }));
      await screen.findByRole('status');
      expect(signupCalls()[0]?.body).toEqual({
        username: 'alice',
        email: 'alice@example.com',
        password: 'correct horse battery',
        // Issue 32: the account's zone starts as the browser's.
        time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      });
    });
  });
});
