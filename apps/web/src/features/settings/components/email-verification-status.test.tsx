import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { VERIFICATION_SENT } from '@kinchart/shared/auth';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { EmailVerificationStatus } from './email-verification-status';

const routes = [{ path: '/settings', element: <EmailVerificationStatus /> }];

describe('email confirmation in Settings', () => {
  it('a person whose email is not confirmed asks for a new link', async () => {
    const { calls } = mockFetch((call) =>
      call.method === 'POST'
        ? json({ message: VERIFICATION_SENT }, 202)
        : json({ email: 'pat@example.com', verified: false, can_send: true }),
    );
    renderRoutes(routes, '/settings');
    expect(await screen.findByText(/not confirmed yet/)).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Send a new link' }));
    expect((await screen.findByRole('status')).textContent).toBe(VERIFICATION_SENT);
    expect(calls.find((call) => call.method === 'POST')?.url).toBe('/api/auth/email-verification');
  });

  it('a confirmed email says so, with nothing to press', async () => {
    mockFetch(() => json({ email: 'pat@example.com', verified: true, can_send: true }));
    renderRoutes(routes, '/settings');
    expect(await screen.findByText('Your email address is confirmed.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send a new link' })).toBeNull();
  });

  it('a server without email offers no link, and says what single sign-on will ask instead', async () => {
    mockFetch(() => json({ email: 'pat@example.com', verified: false, can_send: false }));
    renderRoutes(routes, '/settings');
    expect(await screen.findByText(/does not send email/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send a new link' })).toBeNull();
  });

  it('too many links: the server’s words are shown', async () => {
    mockFetch((call) =>
      call.method === 'POST'
        ? json({ message: 'Too many confirmation emails. Please try again in an hour.' }, 429)
        : json({ email: 'pat@example.com', verified: false, can_send: true }),
    );
    renderRoutes(routes, '/settings');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Send a new link' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Too many confirmation emails. Please try again in an hour.');
  });
});
