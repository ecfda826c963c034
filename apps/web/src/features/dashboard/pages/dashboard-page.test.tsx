import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, Landmark, mockFetch, renderRoutes, type FetchCall } from '../../../../test/utils';
import { dispatchAppEvent } from '../../../lib/events';
import { makeContact, makeMedication, makeMember, makeMemberSummary, makeProfile } from '../../profiles/testing/fixtures';
import { DashboardPage } from './dashboard-page';

const routes = [
  { path: '/dashboard', element: <DashboardPage /> },
  { path: '/edit-profile', element: <Landmark name="Edit profile route" /> },
];

const rex = makeMemberSummary('p1', { name: 'Rex', relationship: 'dog', is_pet: true });
const carol = makeMemberSummary('m2', { name: 'Carol', relationship: 'child' });

const profile = makeProfile({
  name: 'Alice Example',
  date_of_birth: '1980-03-04',
  phone_number: '555-0100',
  address: '1 Main St',
  blood_type: 'O+',
  has_allergies: true,
  allergy_details: 'Penicillin',
  has_bleeding_disorders: true,
  emergency_contacts: [makeContact('c1', { name: 'Dana' }), makeContact('c2', { name: 'Bob', is_primary: true, phone_number: '555-0101' })],
  medications: [
    makeMedication('1', { medication_name: 'Lisinopril' }),
    makeMedication('2', { medication_name: 'Old pill', is_current: false }),
    makeMedication('3', { medication_name: 'Metformin' }),
    makeMedication('4', { medication_name: 'Atorvastatin' }),
    makeMedication('5', { medication_name: 'Aspirin' }),
    makeMedication('6', { medication_name: 'Vitamin D' }),
  ],
});

/** Answers the dashboard's calls; `extra` goes first. The files and QR slots get empty answers. */
function serve(extra: (call: FetchCall) => Response | undefined = () => undefined) {
  return mockFetch((call) => {
    const answer = extra(call);
    if (answer) return answer;
    if (call.url === '/api/user/getPatientProfile') return json(profile);
    if (call.url === '/api/user/family/members') return json([rex, carol]);
    if (call.url === '/api/user/files') return json([]);
    return json({ message: 'Not found' }, 404);
  });
}

function block(name: string) {
  return screen.getByRole('heading', { level: 3, name }).closest('section')!;
}

describe('dashboard', () => {
  it('shows My Profile with its four blocks: basic info, blood type and warnings, the primary contact, 3 medications and "+2 more"', async () => {
    serve();
    renderRoutes(routes, '/dashboard');
    expect(screen.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeTruthy();
    expect(await screen.findByText('Alice Example')).toBeTruthy();

    expect(block('Basic Info').textContent).toContain('Mar 4, 1980');
    expect(block('Basic Info').textContent).not.toContain('Relationship');
    const critical = block('Critical Medical Info');
    expect(critical.textContent).toContain('O+');
    expect(critical.textContent).toContain('Warning: Allergies');
    expect(critical.textContent).toContain('Penicillin');
    expect(critical.textContent).toContain('Warning: Bleeding Disorder');
    expect(block('Primary Emergency Contact').textContent).toContain('Bob');

    const meds = block('Current Medications');
    expect(within(meds).getAllByRole('listitem').map((li) => li.querySelector('span')?.textContent)).toEqual([
      'Lisinopril',
      'Metformin',
      'Atorvastatin',
    ]);
    expect(within(meds).getByText('+2 more')).toBeTruthy();
    expect(meds.textContent).not.toContain('Old pill');
  });

  it('has My Profile and one button per member; pets carry a paw marker named Pet', async () => {
    serve();
    renderRoutes(routes, '/dashboard');
    const group = await screen.findByRole('group', { name: 'Whose profile to show' });
    await within(group).findByRole('button', { name: /Rex/ });
    const buttons = within(group).getAllByRole('button');
    expect(buttons.map((b) => b.textContent)).toEqual(['My Profile', 'Rex', 'Carol']);
    expect(buttons[0]!.getAttribute('aria-pressed')).toBe('true');
    expect(within(buttons[1]!).getByRole('img', { name: 'Pet' })).toBeTruthy();
    expect(within(buttons[2]!).queryByRole('img', { name: 'Pet' })).toBeNull();
  });

  it('selecting a member loads their details and shows their relationship', async () => {
    const full = makeMember('p1', { ...rex, medications: [makeMedication('9', { medication_name: 'Heartworm chew' })] });
    const { calls } = serve((call) => (call.url === '/api/user/family/members/p1' ? json(full) : undefined));
    const user = userEvent.setup();
    renderRoutes(routes, '/dashboard');

    await user.click(await screen.findByRole('button', { name: /Rex/ }));
    expect(await screen.findByText('Heartworm chew')).toBeTruthy();
    expect(calls.some((c) => c.url === '/api/user/family/members/p1')).toBe(true);
    expect(screen.getByRole('button', { name: /Rex/ }).getAttribute('aria-pressed')).toBe('true');
    expect(block('Basic Info').textContent).toContain('RelationshipDog');
    expect(screen.getByRole('link', { name: 'Edit Member' }).getAttribute('href')).toBe('/edit-family-member/p1');
    // Recent uploads belong to My Profile only.
    expect(screen.queryByRole('heading', { name: 'Recent Uploads' })).toBeNull();
  });

  it('opens with the member of ?member= selected, and switching keeps the address in step', async () => {
    const full = makeMember('m2', { ...carol, medications: [makeMedication('9', { medication_name: 'Amoxicillin' })] });
    serve((call) => (call.url === '/api/user/family/members/m2' ? json(full) : undefined));
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/dashboard?member=m2');

    expect(await screen.findByText('Amoxicillin')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Carol' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('link', { name: 'Edit Member' }).getAttribute('href')).toBe('/edit-family-member/m2');

    await user.click(screen.getByRole('button', { name: 'My Profile' }));
    expect(screen.getByRole('button', { name: 'My Profile' }).getAttribute('aria-pressed')).toBe('true');
    expect(router.state.location.search).toBe('');
    await user.click(screen.getByRole('button', { name: /Rex/ }));
    expect(router.state.location.search).toBe('?member=p1');
  });

  it('a ?member= that is not one of the family shows My Profile', async () => {
    serve();
    renderRoutes(routes, '/dashboard?member=someone-else');
    await screen.findByRole('button', { name: 'Carol' });
    expect(await screen.findByText('Alice Example')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'My Profile' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('falls back to the list entry when the member cannot be loaded', async () => {
    serve((call) => (call.url === '/api/user/family/members/m2' ? json({}, 500) : undefined));
    const user = userEvent.setup();
    renderRoutes(routes, '/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Carol' }));
    await within(block('Basic Info')).findByText('Carol');
    expect(block('Basic Info').textContent).toContain('Child');
    expect(block('Current Medications').textContent).toContain('No current medications');
  });

  it('shows Finish Profile while the name is missing and it leads to /edit-profile', async () => {
    serve((call) => (call.url === '/api/user/getPatientProfile' ? json(makeProfile({ name: null })) : undefined));
    const user = userEvent.setup();
    renderRoutes(routes, '/dashboard');
    // Also while the profile is still loading.
    expect(screen.getByRole('button', { name: 'Finish Profile' })).toBeTruthy();
    await screen.findByRole('button', { name: 'Carol' });
    await user.click(screen.getByRole('button', { name: 'Finish Profile' }));
    expect(await screen.findByRole('heading', { name: 'Edit profile route' })).toBeTruthy();
  });

  it('hides Finish Profile once the profile has a name', async () => {
    serve();
    renderRoutes(routes, '/dashboard');
    await screen.findByText('Alice Example');
    expect(screen.queryByRole('button', { name: 'Finish Profile' })).toBeNull();
  });

  it('fetch failures empty the lists', async () => {
    serve((call) => (call.url.startsWith('/api/user/') && call.url !== '/api/user/files' ? json({}, 500) : undefined));
    renderRoutes(routes, '/dashboard');
    expect(await screen.findByText('Failed to load family members')).toBeTruthy();
    expect(await screen.findByText('Failed to load profile data')).toBeTruthy();
    const group = screen.getByRole('group', { name: 'Whose profile to show' });
    expect(within(group).getAllByRole('button').map((b) => b.textContent)).toEqual(['My Profile']);
    expect(block('Current Medications').textContent).toContain('No current medications');
  });

  it('refreshes when a family member is updated elsewhere on the page', async () => {
    let members = [rex];
    serve((call) => (call.url === '/api/user/family/members' ? json(members) : undefined));
    renderRoutes(routes, '/dashboard');
    await screen.findByRole('button', { name: /Rex/ });
    members = [rex, carol];
    act(() => dispatchAppEvent('familyMemberUpdated'));
    expect(await screen.findByRole('button', { name: 'Carol' })).toBeTruthy();
  });

  it('empties the member list when a refresh fails, rather than keep the list it had (SPEC §4)', async () => {
    let fail = false;
    serve((call) => (call.url === '/api/user/family/members' ? (fail ? json({}, 500) : json([rex])) : undefined));
    renderRoutes(routes, '/dashboard');
    await screen.findByRole('button', { name: /Rex/ });
    fail = true;
    act(() => dispatchAppEvent('familyMemberUpdated'));
    expect(await screen.findByText('Failed to load family members')).toBeTruthy();
    const group = screen.getByRole('group', { name: 'Whose profile to show' });
    expect(within(group).getAllByRole('button').map((b) => b.textContent)).toEqual(['My Profile']);
  });
});
