import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { EMAIL_VERIFIED } from '@kinchart/shared/auth';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { VerifyEmailPage } from './verify-email-page';

const TOKEN = 'v'.repeat(43);
const routes = [{ path: '/verify-email', element: <VerifyEmailPage /> }];

describe('verify email page', () => {
  it('a person confirms their email with one press: the token of the link is sent, and the page says it worked', async () => {
    const { calls } = mockFetch(() => json({ message: EMAIL_VERIFIED }));
    renderRoutes(routes, `/verify-email?token=${TOKEN}`);
    expect(screen.getByRole('heading', { level: 1, name: 'Confirm your email address' })).toBeTruthy();
    // Opening the link changes nothing by itself: a mail scanner that follows it confirms nothing.
    expect(calls).toHaveLength(0);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Confirm my email' }));
    expect((await screen.findByRole('status')).textContent).toBe(EMAIL_VERIFIED);
    expect(calls).toEqual([expect.objectContaining({ url: '/api/auth/verify-email', method: 'POST', body: { token: TOKEN } })]);
    expect(screen.queryByRole('button', { name: 'Confirm my email' })).toBeNull();
  });

  it('says why a link does not work', async () => {
    const used =
      'This confirmation link has already been used. If Settings still says your email is not confirmed, ask for a new link there.';
    mockFetch(() => json({ message: used }, 400));
    renderRoutes(routes, `/verify-email?token=${TOKEN}`);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Confirm my email' }));
    expect((await screen.findByRole('alert')).textContent).toBe(used);
  });

  it('a link without its token offers no button', () => {
    const { calls } = mockFetch(() => json({}, 404));
    renderRoutes(routes, '/verify-email');
    expect(screen.getByRole('alert').textContent).toMatch(/link is incomplete/);
    expect(screen.queryByRole('button', { name: 'Confirm my email' })).toBeNull();
    expect(calls).toHaveLength(0);
  });
});
