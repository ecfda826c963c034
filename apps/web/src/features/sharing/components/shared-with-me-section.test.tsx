import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { makePerson } from '../testing/fixtures';
import { SharedWithMeSection } from './shared-with-me-section';

const me = makePerson('p-me', { name: 'Bob', is_self: true });
const mia = makePerson('p-mia', { name: 'Mia', relationship: 'child', role: 'editor', shared_by: 'alice', share_id: 's-mia' });
const rex = makePerson('p-rex', { name: 'Rex', is_pet: true, role: 'manager', shared_by: 'carol', share_id: 's-rex' });

describe('Shared with me', () => {
  it('lists the people shared with you, whose they are and what you may do', async () => {
    mockFetch(() => json([me, mia, rex]));
    renderRoutes([{ path: '/', element: <SharedWithMeSection /> }], '/');
    const list = await screen.findByRole('list', { name: 'Shared with me' });
    const cards = within(list)
      .getAllByRole('listitem')
      .filter((li) => li.parentElement === list);
    expect(cards).toHaveLength(2);
    expect(within(cards[0]!).getByText('Mia')).toBeTruthy();
    expect(within(cards[0]!).getByText('Shared by alice')).toBeTruthy();
    expect(within(cards[0]!).getByText('Editor access')).toBeTruthy();
    // Only a manager shares on.
    expect(within(cards[0]!).queryByRole('button', { name: 'Share access to Mia' })).toBeNull();
    expect(within(cards[1]!).getByText('Pet')).toBeTruthy();
    expect(within(cards[1]!).getByRole('button', { name: 'Share access to Rex' })).toBeTruthy();
    expect(within(cards[0]!).getByRole('link', { name: 'Open Mia' }).getAttribute('href')).toBe('/dashboard?member=p-mia');
  });

  it('Leave asks first, then ends your share and the person goes', async () => {
    let people = [me, mia];
    const { calls } = mockFetch((call) => {
      if (call.method === 'DELETE') {
        people = [me];
        return json({ message: 'You no longer have access to this person' });
      }
      return json(people);
    });
    const user = userEvent.setup();
    renderRoutes([{ path: '/', element: <SharedWithMeSection /> }], '/');
    await user.click(await screen.findByRole('button', { name: 'Leave Mia' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Leave Mia?' });
    expect(confirm.textContent).toContain('You will no longer see Mia. alice can invite you again.');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Leave Mia' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Leave' }));
    expect(await screen.findByText('You left Mia successfully.')).toBeTruthy();
    expect(calls.find((c) => c.method === 'DELETE')?.url).toBe('/api/user/people/p-mia/shares/s-mia');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Leave Mia' })).toBeNull());
    expect(screen.getByText(/Nobody has shared anyone with you yet/)).toBeTruthy();
  });

  it('a manager opens Share access for the shared person', async () => {
    mockFetch((call) => json(call.url.endsWith('/shares') ? [] : [me, rex]));
    const user = userEvent.setup();
    renderRoutes([{ path: '/', element: <SharedWithMeSection /> }], '/');
    await user.click(await screen.findByRole('button', { name: 'Share access to Rex' }));
    expect(await screen.findByRole('dialog', { name: 'Share access to Rex' })).toBeTruthy();
  });
});
