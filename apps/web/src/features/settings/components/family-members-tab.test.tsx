import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderRoutes } from '../../../../test/utils';
import { NOT_CONFIGURED_QR } from '../../emergency/testing/fixtures';
import { makeMember, makeMemberSummary } from '../../../../test/profiles';
import { FamilyMembersTab } from './family-members-tab';

const rex = makeMemberSummary('p1', { name: 'Rex', relationship: 'dog', is_pet: true, date_of_birth: '2019-06-01' });
const carol = makeMemberSummary('m2', { name: 'Carol', relationship: 'child', date_of_birth: '2012-09-15' });

function renderTab() {
  return renderRoutes([{ path: '/', element: <FamilyMembersTab /> }], '/');
}

describe('Family Members tab', () => {
  it('shows a card per member with relationship, Born date and a Pet marker', async () => {
    mockFetch(() => json([rex, carol]));
    renderTab();
    const cards = await screen.findAllByRole('listitem');
    expect(cards).toHaveLength(2);
    expect(cards[0]!.textContent).toContain('Rex');
    expect(cards[0]!.textContent).toContain('Dog');
    expect(cards[0]!.textContent).toContain('Born Jun 1, 2019');
    expect(within(cards[0]!).getByText('Pet')).toBeTruthy();
    expect(within(cards[1]!).queryByText('Pet')).toBeNull();
    expect(screen.getByRole('button', { name: 'Add Member' })).toBeTruthy();
  });

  it('says when there are no members, or when they cannot be loaded', async () => {
    const answers = [json([]), json({}, 500)];
    mockFetch(() => answers.shift()!);
    const { queryClient } = renderTab();
    expect(await screen.findByText('No family members added')).toBeTruthy();
    await queryClient.refetchQueries();
    expect(await screen.findByText('Failed to load family members')).toBeTruthy();
  });

  it('the card menu opens with the keyboard and Delete Member asks before deleting', async () => {
    const events = vi.fn();
    window.addEventListener('familyMemberUpdated', events);
    let list = [rex, carol];
    const { calls } = mockFetch((call) => {
      if (call.method === 'DELETE') {
        list = [carol];
        return json({ message: 'Family member deleted successfully' });
      }
      return json(list);
    });
    const user = userEvent.setup();
    renderTab();

    const menuButton = await screen.findByRole('button', { name: 'Actions for Rex' });
    expect(menuButton.getAttribute('aria-haspopup')).toBe('menu');
    menuButton.focus();
    await user.keyboard('{Enter}');
    const menu = screen.getByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((i) => i.textContent),
    ).toEqual(['Edit Member', 'Delete Member']);
    expect(document.activeElement?.textContent).toBe('Edit Member');
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement?.textContent).toBe('Delete Member');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(menuButton);

    await user.click(menuButton);
    await user.click(screen.getByRole('menuitem', { name: 'Delete Member' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Delete Member' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await user.click(menuButton);
    await user.click(screen.getByRole('menuitem', { name: 'Delete Member' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete Member' }));

    expect(await screen.findByText('Family member deleted successfully')).toBeTruthy();
    expect(calls.find((c) => c.method === 'DELETE')?.url).toBe('/api/user/family/members/p1');
    await vi.waitFor(() => expect(screen.queryByRole('button', { name: 'Actions for Rex' })).toBeNull());
    expect(events).toHaveBeenCalled();
    window.removeEventListener('familyMemberUpdated', events);
  });

  it('a failed delete says "Failed to delete family member"', async () => {
    mockFetch((call) => (call.method === 'DELETE' ? json({}, 500) : json([rex])));
    const user = userEvent.setup();
    renderTab();
    await user.click(await screen.findByRole('button', { name: 'Actions for Rex' }));
    await user.click(screen.getByRole('menuitem', { name: 'Delete Member' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete Member' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to delete family member');
  });

  it('clicking a card opens the Edit Family Member dialog; Save Changes closes it', async () => {
    const full = makeMember('m2', { ...carol });
    const { calls } = mockFetch((call) => {
      if (call.url === '/api/user/family/members') return json([carol]);
      if (call.method === 'PUT') return json({ ...full, name: 'Caroline', message: 'Family member updated successfully!' });
      // The editor's QR panel asks for Carol's code: none set up yet.
      if (call.url === '/api/user/family/members/m2/qr') return json(NOT_CONFIGURED_QR);
      return json(full);
    });
    const user = userEvent.setup();
    renderTab();
    await user.click(await screen.findByRole('button', { name: /^Carol/ }));

    const dialog = await screen.findByRole('dialog', { name: 'Edit Family Member' });
    const name = await within(dialog).findByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'Caroline');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({ url: '/api/user/family/members/m2', body: { name: 'Caroline' } });
  });

  it('each member card and your own profile offer Share access and Access history', async () => {
    const people = [
      { id: 'self1', name: 'Alice', relationship: null, is_pet: false, is_self: true, role: 'owner', shared_by: null, share_id: null },
      { id: 'm2', name: 'Carol', relationship: 'child', is_pet: false, is_self: false, role: 'owner', shared_by: null, share_id: null },
    ];
    const { calls } = mockFetch((call) => {
      if (call.url === '/api/user/people') return json(people);
      if (call.url.endsWith('/shares') || call.url.endsWith('/access-history')) return json([]);
      return json([carol]);
    });
    const user = userEvent.setup();
    renderTab();

    expect(await screen.findByText('Your profile')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Share access to your profile' }));
    expect(await screen.findByRole('dialog', { name: 'Share access to your profile' })).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Share access to your profile' }));

    await user.click(screen.getByRole('button', { name: 'Share access to Carol' }));
    const dialog = await screen.findByRole('dialog', { name: 'Share access to Carol' });
    expect(await within(dialog).findByText('Nobody else has access yet.')).toBeTruthy();
    expect(calls.some((c) => c.url === '/api/user/people/m2/shares')).toBe(true);
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('button', { name: 'Access history of Carol' }));
    expect(await screen.findByRole('dialog', { name: 'Access history: Carol' })).toBeTruthy();
    expect(await screen.findByText(/Nothing yet/)).toBeTruthy();
    expect(calls.some((c) => c.url === '/api/user/people/m2/access-history')).toBe(true);
  });
});
