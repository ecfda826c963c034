import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeFamilyPerson, makeSelf, makeSharedPerson } from '../../../../test/people';
import { json, Landmark, mockFetch, renderRoutes, type FetchCall } from '../../../../test/utils';
import { dispatchAppEvent } from '../../../lib/events';
import { getSelectedPersonId, setSelectedPersonId } from '../../../lib/selected-person';
import { makeContact, makeMedication, makeMember, makeMemberSummary, makeProfile } from '../../../../test/profiles';
import { DashboardPage } from './dashboard-page';

const routes = [
  { path: '/dashboard', element: <DashboardPage /> },
  { path: '/edit-profile', element: <Landmark name="Edit profile route" /> },
];

const rex = makeMemberSummary('p1', { name: 'Rex', relationship: 'dog', is_pet: true });
const carol = makeMemberSummary('m2', { name: 'Carol', relationship: 'child' });
const self = makeSelf('self-1');
/** GET /api/user/people: yourself first, then your family. */
const peopleOf = (...members: (typeof rex)[]) => [
  self,
  ...members.map((m) => makeFamilyPerson(m.id, { name: m.name, relationship: m.relationship, is_pet: m.is_pet })),
];

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

/** Answers the dashboard's calls; `extra` goes first. The files, appointments and QR slots get empty answers. */
function serve(extra: (call: FetchCall) => Response | undefined = () => undefined) {
  return mockFetch((call) => {
    const answer = extra(call);
    if (answer) return answer;
    if (call.url === '/api/user/getPatientProfile') return json(profile);
    if (call.url === '/api/user/people') return json(peopleOf(rex, carol));
    if (call.url.startsWith('/api/user/files')) return json([]);
    if (call.url.startsWith('/api/user/appointments')) return json([]);
    return json({ message: 'Not found' }, 404);
  });
}

beforeEach(() => {
  setSelectedPersonId(null);
});

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
    expect(
      within(meds)
        .getAllByRole('listitem')
        .map((li) => li.querySelector('span')?.textContent),
    ).toEqual(['Lisinopril', 'Metformin', 'Atorvastatin']);
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
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    serve((call) => (call.url.startsWith('/api/user/') && !call.url.startsWith('/api/user/files') ? json({}, 500) : undefined));
    renderRoutes(routes, '/dashboard');
    expect(await screen.findByText('Failed to load family members')).toBeTruthy();
    expect(await screen.findByText('Failed to load profile data')).toBeTruthy();
    const group = screen.getByRole('group', { name: 'Whose profile to show' });
    expect(
      within(group)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['My Profile']);
    expect(block('Current Medications').textContent).toContain('No current medications');
  });

  it('refreshes when a family member is updated elsewhere on the page', async () => {
    let members = [rex];
    serve((call) => (call.url === '/api/user/people' ? json(peopleOf(...members)) : undefined));
    renderRoutes(routes, '/dashboard');
    await screen.findByRole('button', { name: /Rex/ });
    members = [rex, carol];
    act(() => dispatchAppEvent('familyMemberUpdated'));
    expect(await screen.findByRole('button', { name: 'Carol' })).toBeTruthy();
  });

  it('empties the member list when a refresh fails, rather than keep the list it had (SPEC §4)', async () => {
    let fail = false;
    serve((call) => (call.url === '/api/user/people' ? (fail ? json({}, 500) : json(peopleOf(rex))) : undefined));
    renderRoutes(routes, '/dashboard');
    await screen.findByRole('button', { name: /Rex/ });
    fail = true;
    act(() => dispatchAppEvent('familyMemberUpdated'));
    expect(await screen.findByText('Failed to load family members')).toBeTruthy();
    const group = screen.getByRole('group', { name: 'Whose profile to show' });
    expect(
      within(group)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['My Profile']);
  });

  describe('people and sharing', () => {
    const grandpa = makeSharedPerson('s1', { name: 'Grandpa Joe', shared_by: 'sam', role: 'viewer' });
    const nana = makeSharedPerson('s2', { name: 'Nana', shared_by: 'kim', role: 'editor' });
    const servePeople = (extra: (call: FetchCall) => Response | undefined = () => undefined) =>
      serve((call) => {
        const answer = extra(call);
        if (answer) return answer;
        if (call.url === '/api/user/people') return json([...peopleOf(rex), grandpa, nana]);
        if (call.url === '/api/user/people/s1')
          return json({
            ...makeMember('s1', { name: 'Grandpa Joe', relationship: 'parent', blood_type: 'B+' }),
            is_self: false,
            role: 'viewer',
            shared_by: 'sam',
          });
        if (call.url === '/api/user/people/s2')
          return json({ ...makeMember('s2', { name: 'Nana', relationship: 'parent' }), is_self: false, role: 'editor', shared_by: 'kim' });
        return undefined;
      });

    it('lists people shared with the user after the family, each with a "Shared by {username}" badge', async () => {
      servePeople();
      renderRoutes(routes, '/dashboard');
      const group = await screen.findByRole('group', { name: 'Whose profile to show' });
      await within(group).findByRole('button', { name: /Grandpa Joe/ });
      const buttons = within(group).getAllByRole('button');
      expect(buttons.map((b) => b.textContent)).toEqual(['My Profile', 'Rex', 'Grandpa Joe Shared by sam', 'Nana Shared by kim']);
      expect(within(buttons[1]!).queryByText(/Shared by/)).toBeNull();
    });

    it("a viewer sees a shared person's profile from the people route, with no edit control and no QR code", async () => {
      const { calls } = servePeople();
      const user = userEvent.setup();
      renderRoutes(routes, '/dashboard');
      await user.click(await screen.findByRole('button', { name: /Grandpa Joe/ }));
      expect(await within(block('Critical Medical Info')).findByText('B+')).toBeTruthy();
      expect(calls.some((c) => c.url === '/api/user/people/s1')).toBe(true);
      expect(calls.some((c) => c.url === '/api/user/family/members/s1')).toBe(false);
      const info = screen.getByRole('region', { name: 'Profile Information' });
      expect(within(info).getByText('Shared by sam')).toBeTruthy();
      expect(within(info).getByText('Your access: Viewer')).toBeTruthy();
      expect(screen.queryByRole('link', { name: /Edit/ })).toBeNull();
      expect(calls.some((c) => c.url.includes('/qr'))).toBe(false);
    });

    it('opened on a shared person (?member=, as after accepting an invitation) it asks only the people route', async () => {
      const { calls } = servePeople();
      renderRoutes(routes, '/dashboard?member=s1');
      expect(await screen.findByText('Your access: Viewer')).toBeTruthy();
      expect(await within(block('Critical Medical Info')).findByText('B+')).toBeTruthy();
      expect(calls.some((c) => c.url === '/api/user/family/members/s1')).toBe(false);
      expect(within(block('Basic Info')).queryByText('Alice Example')).toBeNull();
    });

    it('an editor of a shared person edits them through the family member page', async () => {
      servePeople();
      const user = userEvent.setup();
      renderRoutes(routes, '/dashboard');
      await user.click(await screen.findByRole('button', { name: /Nana/ }));
      expect(await screen.findByText('Your access: Editor')).toBeTruthy();
      expect(screen.getByRole('link', { name: 'Edit Member' }).getAttribute('href')).toBe('/edit-family-member/s2');
    });

    it('Recent Uploads and Upcoming appointments follow the selected person', async () => {
      const soon = new Date(Date.now() + 2 * 86_400_000);
      const day = `${soon.getFullYear()}-${String(soon.getMonth() + 1).padStart(2, '0')}-${String(soon.getDate()).padStart(2, '0')}`;
      const appointment = (id: string, provider: string, personId: string) => ({
        appointment_id: id,
        id,
        appointment_date: day,
        start_time: `${day}T09:30:00`,
        end_time: `${day}T10:00:00`,
        provider_name: provider,
        reason_for_visit: 'Check-up',
        location: null,
        created_at: '2026-01-01T00:00:00.000Z',
        person_id: personId,
        person_name: null,
        reminder_minutes: [1440, 120],
      });
      const { calls } = servePeople((call) => {
        if (call.url === '/api/user/appointments?person=self-1') return json([appointment('a1', 'Dr. Own', 'self-1')]);
        if (call.url === '/api/user/appointments?person=p1') return json([appointment('a2', 'Dr. Vet', 'p1')]);
        if (call.url === '/api/user/family/members/p1') return json(makeMember('p1', { ...rex }));
        return undefined;
      });
      const user = userEvent.setup();
      renderRoutes(routes, '/dashboard');
      const upcoming = await screen.findByRole('region', { name: 'Upcoming appointments' });
      expect(await within(upcoming).findByText('Dr. Own - Check-up')).toBeTruthy();
      expect(within(upcoming).getByText('9:30 AM – 10:00 AM')).toBeTruthy();
      expect(calls.some((c) => c.url === '/api/user/files?person=self-1')).toBe(true);

      await user.click(screen.getByRole('button', { name: /Rex/ }));
      const next = await screen.findByRole('region', { name: 'Upcoming appointments' });
      expect(await within(next).findByText('Dr. Vet - Check-up')).toBeTruthy();
      expect(within(next).queryByText('Dr. Own - Check-up')).toBeNull();
      expect(calls.some((c) => c.url === '/api/user/files?person=p1')).toBe(true);
      expect(screen.getByRole('heading', { name: 'Recent Uploads' })).toBeTruthy();
      expect(within(next).getByRole('link', { name: 'View All Appointments' }).getAttribute('href')).toBe('/appointments?person=p1');
    });

    it('keeps the chosen person for the other screens, and comes back to them on /dashboard', async () => {
      servePeople();
      const user = userEvent.setup();
      const first = renderRoutes(routes, '/dashboard');
      await user.click(await screen.findByRole('button', { name: /Nana/ }));
      expect(getSelectedPersonId()).toBe('s2');
      first.unmount();

      const { router } = renderRoutes(routes, '/dashboard');
      expect(await screen.findByText('Your access: Editor')).toBeTruthy();
      expect(screen.getByRole('button', { name: /Nana/ }).getAttribute('aria-pressed')).toBe('true');
      await user.click(screen.getByRole('button', { name: 'My Profile' }));
      expect(getSelectedPersonId()).toBeNull();
      expect(router.state.location.search).toBe('');
    });

    it('forgets a chosen person who is no longer shared', async () => {
      setSelectedPersonId('gone');
      serve();
      renderRoutes(routes, '/dashboard');
      expect(await screen.findByText('Alice Example')).toBeTruthy();
      expect(screen.getByRole('button', { name: 'My Profile' }).getAttribute('aria-pressed')).toBe('true');
      await waitFor(() => expect(getSelectedPersonId()).toBeNull());
    });
  });
});
