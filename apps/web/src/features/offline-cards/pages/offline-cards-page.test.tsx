import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkAuthAnswer, json, mockFetch, renderRoutes } from '../../../../test/utils';
import { readSavedCards, writeSavedCards } from '../lib/card-store';
import { forgetOfflineCards } from '../lib/forget-offline-cards';
import { MEMBER_CARD, OWN_CARD, OWN_QR_LINK, savedRecord } from '../testing/fixtures';
import { OfflineCardsPage } from './offline-cards-page';

function renderPage() {
  return renderRoutes(
    [
      { path: '/emergency-cards', element: <OfflineCardsPage /> },
      { path: '/settings', element: <h1>Settings</h1> },
      { path: '/login', element: <h1>Login</h1> },
    ],
    '/emergency-cards',
  );
}

/** No network at all: every request fails the way fetch fails offline. */
function networkDown() {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
  return mockFetch(() => Promise.reject(new TypeError('Failed to fetch')));
}

afterEach(async () => {
  await forgetOfflineCards();
});

describe('emergency cards page', () => {
  it('with no network the kept cards open — no session check needed — one person at a time, with the QR code and when they were saved', async () => {
    await writeSavedCards(savedRecord('u1'));
    const { calls } = networkDown();
    const user = userEvent.setup();
    renderPage();

    expect(await screen.findByRole('heading', { level: 1, name: 'Emergency cards' })).toBeTruthy();
    expect(screen.getByText(/^2 emergency cards kept on this device, saved March 4, 2026 at \d{1,2}:41 [AP]M\./)).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('You are offline: these are the copies saved on this device.');

    const tabs = screen.getByRole('tablist', { name: 'Whose emergency card' });
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((t) => t.textContent),
    ).toEqual(['Jordan Rivers (you)', 'Alex Rivers']);
    const own = screen.getByRole('article', { name: 'Emergency card: Jordan Rivers (you)' });
    // The emergency page's own view: critical facts first, the priority section, the call button.
    expect(within(own).getByTestId('critical-name').textContent).toContain('Jordan Rivers');
    expect(within(own).getByTestId('critical-allergies').textContent).toContain('Penicillin');
    expect(within(own).getByRole('link', { name: 'Call Sam Rivers (Spouse)' }).getAttribute('href')).toBe('tel:5550199');
    expect(within(own).getByRole('heading', { level: 2, name: 'Emergency information' })).toBeTruthy();
    expect(within(own).getByRole('img', { name: 'Emergency QR code of Jordan Rivers (you)' })).toBeTruthy();
    expect(within(own).getByRole('link', { name: OWN_QR_LINK })).toBeTruthy();

    await user.click(within(tabs).getByRole('tab', { name: 'Alex Rivers' }));
    const member = screen.getByRole('article', { name: 'Emergency card: Alex Rivers' });
    expect(within(member).getByTestId('critical-allergies').textContent).toContain('Bee stings');
    // Alex's code is not active: no QR code on the card.
    expect(within(member).queryByRole('img', { name: /Emergency QR code/ })).toBeNull();
    expect(screen.queryByRole('article', { name: 'Emergency card: Jordan Rivers (you)' })).toBeNull();
    // Nothing but the session check was tried, and the cards did not wait for it.
    expect(calls.every((c) => c.url === '/api/auth/check-auth')).toBe(true);
  });

  it('signed in and online, the page brings the kept cards up to date', async () => {
    await writeSavedCards(savedRecord('u1', [OWN_CARD]));
    const renamed = { ...MEMBER_CARD, info: { ...MEMBER_CARD.info, name: 'Alex R. Rivers' } };
    mockFetch((call) => {
      if (call.url === '/api/auth/check-auth') return checkAuthAnswer('jordan');
      if (call.url === '/api/user/emergency-cards') return json({ cards: [OWN_CARD, renamed] });
      return json({}, 404);
    });
    renderPage();
    expect(await screen.findByRole('tab', { name: 'Alex R. Rivers' })).toBeTruthy();
    expect((await readSavedCards())?.cards).toHaveLength(2);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('a different account signed in on this browser never sees the cards the previous owner kept, and they are removed', async () => {
    await writeSavedCards(savedRecord('previous-owner'));
    const { calls } = mockFetch((call) => (call.url === '/api/auth/check-auth' ? checkAuthAnswer('jordan') : json({}, 404)));
    renderPage();
    expect(await screen.findByRole('heading', { name: 'No emergency cards on this device' })).toBeTruthy();
    expect(screen.queryByText('Jordan Rivers')).toBeNull();
    expect(screen.queryByRole('tablist')).toBeNull();
    await waitFor(async () => expect(await readSavedCards()).toBeNull());
    expect(calls.some((c) => c.url === '/api/user/emergency-cards')).toBe(false);
    expect(screen.getByRole('link', { name: 'Settings → Account Settings' }).getAttribute('href')).toBe('/settings?tab=account');
  });

  it('with nothing kept on this device, the page says how to keep the cards', async () => {
    networkDown();
    renderPage();
    expect(await screen.findByRole('heading', { name: 'No emergency cards on this device' })).toBeTruthy();
    expect(screen.getByText(/turn on “Keep emergency cards on this device”/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login');
  });
});
