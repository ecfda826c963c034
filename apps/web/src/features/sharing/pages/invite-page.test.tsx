import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Landmark, checkAuthAnswer, json, mockFetch, renderRoutes, type FetchCall } from '../../../../test/utils';
import { notify } from '../../../lib/toast';
import { makeInvitation } from '../testing/fixtures';
import { InvitePage } from './invite-page';

vi.mock('../../../lib/toast');

const TOKEN = 'Ab_-'.repeat(10) + 'xyz';
const GONE = 'This invitation has expired or is no longer available';

function renderInvite(handler: (call: FetchCall) => Response) {
  const fetched = mockFetch(handler);
  const user = userEvent.setup();
  const rendered = renderRoutes(
    [
      { path: '/invite/:token', element: <InvitePage /> },
      { path: '/dashboard', element: <Landmark name="Dashboard route" /> },
    ],
    `/invite/${TOKEN}`,
  );
  return { ...fetched, ...rendered, user };
}

describe('invite page', () => {
  it('signed out: says who shares whom as what, and offers Sign in and Sign up that come back here', async () => {
    const { calls } = renderInvite((call) =>
      call.url === '/api/auth/check-auth' ? checkAuthAnswer(null) : json(makeInvitation({ expires_at: '2099-12-31' })),
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Invitation' })).toBeTruthy();
    expect((await screen.findByText(/wants to share/)).textContent).toBe('alice wants to share Mia with you as Editor.');
    expect(screen.getByText('Can see everything, including files')).toBeTruthy();
    expect(screen.getByText(/Can also add, edit and delete records/)).toBeTruthy();
    expect(screen.queryByText(/Can also manage the emergency code/)).toBeNull();
    expect(screen.getByText('Access ends on Dec 31, 2099.')).toBeTruthy();

    const back = encodeURIComponent(`/invite/${TOKEN}`);
    expect((await screen.findByRole('link', { name: 'Sign in' })).getAttribute('href')).toBe(`/login?next=${back}`);
    expect(screen.getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe(`/signup?next=${back}`);
    expect(screen.queryByRole('button', { name: 'Accept invitation' })).toBeNull();
    // The token goes to this site's API only.
    expect(calls.map((c) => c.url).sort()).toEqual([`/api/auth/check-auth`, `/api/invitations/${TOKEN}`]);
  });

  it('names a pet without a name, and says when access has no end', async () => {
    renderInvite((call) =>
      call.url === '/api/auth/check-auth'
        ? checkAuthAnswer(null)
        : json(makeInvitation({ person_name: null, is_pet: true, role: 'viewer' })),
    );
    expect((await screen.findByText(/wants to share/)).textContent).toBe('alice wants to share a pet with you as Viewer.');
    expect(screen.getByText(/Access has no end date; alice can end it at any time/)).toBeTruthy();
  });

  it('signed in: Accept invitation accepts and opens the dashboard on that person', async () => {
    const { calls, user, router } = renderInvite((call) => {
      if (call.url === '/api/auth/check-auth') return checkAuthAnswer('bob');
      if (call.method === 'POST') return json({ personId: 'p-mia', role: 'editor' });
      return json(makeInvitation());
    });
    expect(await screen.findByText('bob')).toBeTruthy();
    await user.click(await screen.findByRole('button', { name: 'Accept invitation' }));
    expect(await screen.findByRole('heading', { name: 'Dashboard route' })).toBeTruthy();
    expect(router.state.location.search).toBe('?member=p-mia');
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({ url: `/api/user/invitations/${TOKEN}/accept`, credentials: 'include' });
    expect(notify.success).toHaveBeenCalledWith('You can now see Mia.');
  });

  it('a refused acceptance shows the server’s message and stays', async () => {
    const { user } = renderInvite((call) => {
      if (call.url === '/api/auth/check-auth') return checkAuthAnswer('alice');
      if (call.method === 'POST') return json({ message: 'You already own this person' }, 400);
      return json(makeInvitation());
    });
    await user.click(await screen.findByRole('button', { name: 'Accept invitation' }));
    expect((await screen.findByRole('alert')).textContent).toBe('You already own this person');
    expect(screen.getByRole('button', { name: 'Accept invitation' })).toBeTruthy();
  });

  it('a used, expired or unknown link says so, with no way to accept', async () => {
    renderInvite((call) => (call.url === '/api/auth/check-auth' ? checkAuthAnswer('bob') : json({ message: GONE }, 404)));
    expect((await screen.findByRole('alert')).textContent).toBe(GONE);
    expect(screen.queryByRole('button', { name: 'Accept invitation' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Go Home' })).toBeTruthy();
  });

  it('a failure to load offers to try again', async () => {
    const answers = [json({}, 500), json(makeInvitation())];
    const { user } = renderInvite((call) => (call.url === '/api/auth/check-auth' ? checkAuthAnswer(null) : answers.shift()!));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('The invitation could not be loaded.');
    await user.click(within(alert.parentElement!).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(/wants to share/)).toBeTruthy();
  });
});
