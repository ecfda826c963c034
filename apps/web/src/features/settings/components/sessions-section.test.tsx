import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { SessionInfo } from '@kinchart/shared/auth';
import { Landmark, json, mockFetch, renderRoutes } from '../../../../test/utils';
import { notify } from '../../../lib/toast';
import { SessionsSection } from './sessions-section';

vi.mock('../../../lib/toast');

const CHROME_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

const here: SessionInfo = {
  id: 's-here',
  current: true,
  created_at: '2026-03-04T09:00:00.000Z',
  last_seen_at: '2026-03-04T10:00:00.000Z',
  user_agent: CHROME_LINUX,
  ip: '198.51.100.7',
  reminders: false,
};
const phone: SessionInfo = {
  id: 's-phone',
  current: false,
  created_at: '2026-03-02T08:00:00.000Z',
  last_seen_at: '2026-03-03T18:30:00.000Z',
  user_agent: SAFARI_IPHONE,
  ip: '203.0.113.9',
  reminders: true,
};
const unknown: SessionInfo = {
  id: 's-unknown',
  current: false,
  created_at: '2026-03-01T08:00:00.000Z',
  last_seen_at: '2026-03-01T08:05:00.000Z',
  user_agent: null,
  ip: null,
  reminders: false,
};

function renderSection() {
  return renderRoutes(
    [
      { path: '/settings', element: <SessionsSection /> },
      { path: '/signup', element: <Landmark name="Sign up page" /> },
    ],
    '/settings',
  );
}

describe('Sessions', () => {
  it('lists each signed-in browser in plain words with its address and times, this device first and marked', async () => {
    mockFetch(() => json([here, phone, unknown]));
    renderSection();
    const items = await screen.findAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[0]?.textContent).toContain('Chrome on Linux');
    expect(within(items[0]!).getByText('This device')).toBeTruthy();
    expect(within(items[0]!).getByText('198.51.100.7')).toBeTruthy();
    expect(within(items[1]!).getByText('Safari on iPhone')).toBeTruthy();
    expect(within(items[1]!).queryByText('This device')).toBeNull();
    expect(within(items[1]!).getByText('Signed in')).toBeTruthy();
    expect(within(items[1]!).getByText('Last active')).toBeTruthy();
    expect(items[1]?.querySelector('time')?.getAttribute('dateTime')).toBe(phone.created_at);
    expect(within(items[2]!).getByText('Unknown device')).toBeTruthy();
    // The session a browser subscribed to reminders in says so: signing it out stops them (decision 0044).
    expect(within(items[1]!).getByText('Receives reminders')).toBeTruthy();
    expect(within(items[0]!).queryByText('Receives reminders')).toBeNull();
    expect(within(items[2]!).queryByText('Receives reminders')).toBeNull();
    // Every Sign out button says which session it ends.
    expect(screen.getByRole('button', { name: 'Sign out this device' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /^Sign out Safari on iPhone, signed in / })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign out of all other sessions' })).toBeTruthy();
  });

  it('a user signs out another session: it is ended on the server and leaves the list', async () => {
    let sessions = [here, phone];
    const { calls } = mockFetch((call) => {
      if (call.method === 'DELETE') {
        sessions = [here];
        return json({ message: 'Session ended', current: false });
      }
      return json(sessions);
    });
    const user = userEvent.setup();
    renderSection();
    await user.click(await screen.findByRole('button', { name: /^Sign out Safari on iPhone/ }));
    expect(await screen.findByText('Safari on iPhone signed out successfully.')).toBeTruthy();
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(1));
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual(['/api/auth/sessions/s-phone']);
    expect(screen.getByText('You are not signed in anywhere else.')).toBeTruthy();
  });

  it('"Sign out of all other sessions" ends them and says how many', async () => {
    let sessions = [here, phone, unknown];
    const { calls } = mockFetch((call) => {
      if (call.method === 'DELETE') {
        sessions = [here];
        return json({ message: 'Signed out of 2 other sessions', ended: 2 });
      }
      return json(sessions);
    });
    const user = userEvent.setup();
    renderSection();
    await user.click(await screen.findByRole('button', { name: 'Sign out of all other sessions' }));
    expect(await screen.findByText('Signed out of 2 other sessions successfully.')).toBeTruthy();
    expect(calls.find((c) => c.method === 'DELETE')?.url).toBe('/api/auth/sessions');
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(1));
    expect(screen.queryByRole('button', { name: 'Sign out of all other sessions' })).toBeNull();
  });

  it('signing out this device is a logout: it lands on the sign-up page', async () => {
    const { calls } = mockFetch((call) =>
      call.method === 'DELETE' ? json({ message: 'Logged out successfully', current: true }) : json([here, phone]),
    );
    const user = userEvent.setup();
    renderSection();
    await user.click(await screen.findByRole('button', { name: 'Sign out this device' }));
    expect(await screen.findByRole('heading', { name: 'Sign up page' })).toBeTruthy();
    expect(calls.find((c) => c.method === 'DELETE')?.url).toBe('/api/auth/sessions/s-here');
    expect(notify.success).toHaveBeenCalledWith('Logged out successfully');
  });

  it('says so when a session could not be signed out', async () => {
    mockFetch((call) => (call.method === 'DELETE' ? json({ message: 'Session not found' }, 404) : json([here, phone])));
    const user = userEvent.setup();
    renderSection();
    await user.click(await screen.findByRole('button', { name: /^Sign out Safari on iPhone/ }));
    expect((await screen.findByRole('alert')).textContent).toBe('Session not found');
  });
});
