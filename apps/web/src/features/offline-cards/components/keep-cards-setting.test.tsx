import 'fake-indexeddb/auto';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { readSavedCards, writeSavedCards } from '../lib/card-store';
import { forgetOfflineCards } from '../lib/forget-offline-cards';
import { MEMBER_CARD, OWN_CARD, savedRecord } from '../testing/fixtures';
import { KeepCardsSetting } from './keep-cards-setting';

const SWITCH = { name: 'Keep emergency cards on this device' } as const;

/** The switch, once this device's record has been read (it is disabled until then). */
async function findSwitch(): Promise<HTMLInputElement> {
  const toggle = await screen.findByRole<HTMLInputElement>('switch', SWITCH);
  await waitFor(() => expect(toggle.disabled).toBe(false));
  return toggle;
}

function renderSetting(userId = 'u1') {
  return renderRoutes(
    [
      { path: '/settings', element: <KeepCardsSetting userId={userId} /> },
      { path: '/emergency-cards', element: <h1>Kept cards</h1> },
    ],
    '/settings',
  );
}

afterEach(async () => {
  await forgetOfflineCards();
});

describe('Keep emergency cards on this device', () => {
  it('an owner turns it on: every person’s card is saved on this device, with the time, and the cards page is one link away', async () => {
    const { calls } = mockFetch((call) =>
      call.url === '/api/user/emergency-cards' ? json({ cards: [OWN_CARD, MEMBER_CARD] }) : json({}, 404),
    );
    const user = userEvent.setup();
    renderSetting();
    const toggle = await findSwitch();
    expect(toggle.checked).toBe(false);
    // Explained plainly, beside the switch.
    expect(toggle.getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.getByText(/even with no internet connection/)).toBeTruthy();

    await user.click(toggle);
    // Said in the status line, so a screen reader hears it too.
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toMatch(/^2 emergency cards saved on this device, last on \w+ \d{1,2}, \d{4} at /),
    );
    expect(screen.getByRole<HTMLInputElement>('switch', SWITCH).checked).toBe(true);
    expect(calls.filter((c) => c.url === '/api/user/emergency-cards')).toHaveLength(1);

    const stored = await readSavedCards();
    expect(stored?.userId).toBe('u1');
    expect(stored?.cards.map((c) => c.info.name)).toEqual(['Jordan Rivers', 'Alex Rivers']);
    expect(Date.parse(stored?.savedAt ?? '')).toBeLessThanOrEqual(Date.now());

    await user.click(screen.getByRole('link', { name: 'Open the emergency cards' }));
    expect(await screen.findByRole('heading', { name: 'Kept cards' })).toBeTruthy();
  });

  it('turning it off removes the cards from this device', async () => {
    mockFetch(() => json({}, 404));
    await writeSavedCards(savedRecord('u1'));
    const user = userEvent.setup();
    renderSetting();
    const toggle = await findSwitch();
    expect(toggle.checked).toBe(true);

    await user.click(toggle);
    expect(await screen.findByText('The emergency cards were removed from this device.')).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>('switch', SWITCH).checked).toBe(false);
    expect(screen.queryByRole('link', { name: 'Open the emergency cards' })).toBeNull();
    expect(await readSavedCards()).toBeNull();
  });

  it('when the cards cannot be downloaded, the switch stays on and says they are saved next time online', async () => {
    mockFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    const user = userEvent.setup();
    renderSetting();
    await user.click(await findSwitch());
    expect(await screen.findByText(/could not be downloaded just now/)).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>('switch', SWITCH).checked).toBe(true);
    expect(screen.getByRole('link', { name: 'Open the emergency cards' })).toBeTruthy();
    expect(await readSavedCards()).toMatchObject({ userId: 'u1', savedAt: null, cards: [] });
  });

  it('cards another account left on this browser do not count as this user’s: the switch is off', async () => {
    mockFetch(() => json({}, 404));
    await writeSavedCards(savedRecord('someone-else'));
    renderSetting('u1');
    expect((await findSwitch()).checked).toBe(false);
    expect(screen.getByRole('status').textContent).toBe('');
  });
});
