import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { checkAuthAnswer, json, mockFetch, renderRoutes } from '../../../../test/utils';
import { makeAccessEvent } from '../testing/fixtures';
import { AccessHistoryDialog } from './access-history-dialog';

function renderHistory(events: unknown, status = 200) {
  const fetched = mockFetch((call) => (call.url === '/api/auth/check-auth' ? checkAuthAnswer('alice') : json(events, status)));
  renderRoutes([{ path: '/', element: <AccessHistoryDialog person={{ id: 'm1', label: 'Mia' }} onClose={vi.fn()} /> }], '/');
  return fetched;
}

describe('Access history dialog', () => {
  it('lists who did what and when, newest first, in words', async () => {
    const { calls } = renderHistory([
      makeAccessEvent('e3', { what: 'GET /api/user/files/:id/content', created_at: '2026-03-05T14:30:00' }),
      makeAccessEvent('e2', { action: 'person_share_accept', what: 'Accepted an invitation (Editor)', created_at: '2026-03-04T10:00:00' }),
      makeAccessEvent('e1', {
        actor: 'alice',
        action: 'person_share_create',
        what: 'Created an invitation (Editor)',
        created_at: '2026-03-04T09:00:00',
      }),
    ]);
    const dialog = await screen.findByRole('dialog', { name: 'Access history: Mia' });
    const list = await within(dialog).findByRole('list', { name: 'Access history' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((r) => r.textContent)).toEqual([
      'Mar 5, 2026, 2:30 PMgrandmaOpened a record file',
      'Mar 4, 2026, 10:00 AMgrandmaAccepted an invitation (Editor)',
      // The owner's own actions read "You".
      'Mar 4, 2026, 9:00 AMYouCreated an invitation (Editor)',
    ]);
    expect(rows[0]!.querySelector('time')?.getAttribute('dateTime')).toBe('2026-03-05T14:30:00');
    expect(calls.find((c) => c.url.includes('access-history'))?.url).toBe('/api/user/people/m1/access-history');
  });

  it('shows repeated reads by one person as one row, with how many and from when to when', async () => {
    renderHistory([
      makeAccessEvent('e9', {
        what: 'GET /api/user/people/:personId',
        what_all: [
          'GET /api/user/people/:personId',
          'GET /api/user/files',
          'GET /api/user/people/:personId/conditions',
          'GET /api/user/files/:id/content',
        ],
        count: 7,
        first_at: '2026-03-05T14:21:00',
        created_at: '2026-03-05T14:30:00',
      }),
      makeAccessEvent('e2', { actor: 'bo', count: 3, first_at: '2026-03-05T14:20:10', created_at: '2026-03-05T14:20:50' }),
    ]);
    const list = await screen.findByRole('list', { name: 'Access history' });
    const [row, quick] = within(list).getAllByRole('listitem');
    expect(quick!.textContent).toBe('Mar 5, 2026, 2:20 PMboViewed record files3 times, at 2:20 PM');
    expect(row!.textContent).toBe(
      'Mar 5, 2026, 2:30 PMgrandmaViewed the profile, record files, and conditions; opened a record file7 times, from 2:21 PM to 2:30 PM',
    );
  });

  it('says when nothing has happened yet', async () => {
    renderHistory([]);
    expect(await screen.findByText('Nothing yet. When someone you share Mia with opens or changes anything, it shows here.')).toBeTruthy();
  });

  it('says when the history cannot be loaded', async () => {
    renderHistory({ message: 'Only the owner of this person can do this' }, 403);
    expect((await screen.findByRole('alert')).textContent).toBe('Only the owner of this person can do this');
  });
});
