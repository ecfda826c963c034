import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FORGOT_PASSWORD_ANSWER } from '@kinchart/shared/auth';
import { Landmark, json, mockFetch, renderRoutes } from '../../../../test/utils';
import { ForgotPasswordPage } from './forgot-password-page';

const routes = [
  { path: '/forgot-password', element: <ForgotPasswordPage /> },
  { path: '/login', element: <Landmark name="Login route" /> },
];

async function ask(email: string) {
  const user = userEvent.setup();
  renderRoutes(routes, '/forgot-password');
  await user.type(screen.getByLabelText('Email'), email);
  await user.click(screen.getByRole('button', { name: 'Send reset link' }));
  return user;
}

describe('forgot password page', () => {
  it('asks for the email, sends it, and shows the neutral confirmation in place of the form', async () => {
    const { calls } = mockFetch(() => json({ message: FORGOT_PASSWORD_ANSWER }, 202));
    await ask(' Alice@Example.com ');
    expect((await screen.findByRole('status')).textContent).toContain(FORGOT_PASSWORD_ANSWER);
    expect(screen.getByRole('status').textContent).toContain('The link works once, for 30 minutes.');
    expect(screen.queryByLabelText('Email')).toBeNull();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ url: '/api/auth/forgot-password', method: 'POST', body: { email: 'alice@example.com' } });
    expect(screen.getByRole('link', { name: 'Back to login' }).getAttribute('href')).toBe('/login');
  });

  it('says the same whatever the server knows of the email', async () => {
    const texts: string[] = [];
    for (const email of ['known@example.com', 'nobody@example.com']) {
      mockFetch(() => json({ message: FORGOT_PASSWORD_ANSWER }, 202));
      const { unmount } = renderRoutes(routes, '/forgot-password');
      const user = userEvent.setup();
      await user.type(screen.getByLabelText('Email'), email);
      await user.click(screen.getByRole('button', { name: 'Send reset link' }));
      texts.push((await screen.findByRole('status')).textContent ?? '');
      unmount();
    }
    expect(texts[0]).toBe(texts[1]);
  });

  it('checks the email before sending anything', async () => {
    const { calls } = mockFetch(() => json({ message: FORGOT_PASSWORD_ANSWER }, 202));
    await ask('not an address');
    expect(await screen.findByText('Please enter a valid email address')).toBeTruthy();
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
    expect(calls).toHaveLength(0);
  });

  it('shows the server message when it refuses (too many requests), and keeps the form', async () => {
    mockFetch(() => json({ message: 'Too many password reset requests. Please try again later.' }, 429));
    await ask('alice@example.com');
    expect((await screen.findByRole('alert')).textContent).toBe('Too many password reset requests. Please try again later.');
    expect(screen.getByLabelText('Email')).toBeTruthy();
  });

  it('has one h1 and links back to login and home', () => {
    mockFetch(() => json({}, 404));
    renderRoutes(routes, '/forgot-password');
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual(['Forgot your password?']);
    expect(screen.getByRole('link', { name: 'Back to login' }).getAttribute('href')).toBe('/login');
    expect(screen.getByRole('link', { name: 'Go Home' }).getAttribute('href')).toBe('/');
  });
});
