import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json, Landmark, mockFetch, renderRoutes } from '../../../../test/utils';
import { makeContact, makeMedication, makeMember } from '../../../../test/profiles';
import { makeSchedule } from '../../../../test/care';
import { makeFamilyPerson, makeSelf } from '../../../../test/people';
import { EditFamilyMemberPage } from './edit-family-member-page';

const routes = [
  { path: '/edit-family-member/:id', element: <EditFamilyMemberPage /> },
  { path: '/dashboard', element: <Landmark name="Dashboard route" /> },
];

const member = makeMember('m1', {
  name: 'Carol',
  relationship: 'child',
  emergency_contacts: [makeContact('c1', { name: 'Grandma' })],
  medications: [makeMedication('med1', { medication_name: 'Amoxicillin', dosage: '250 mg' })],
});

describe('Edit Family Member page', { timeout: 15_000 }, () => {
  it('has the seven tabs of the spec', async () => {
    mockFetch((call) => (call.url === '/api/user/family/members/m1' ? json(member) : json({}, 404)));
    renderRoutes(routes, '/edit-family-member/m1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit Family Member' })).toBeTruthy();
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual([
      'Basic Information',
      'Medical Conditions',
      'Additional Information',
      'Emergency Contacts',
      'Healthcare Providers',
      'Medications',
      'Emergency QR',
    ]);
    expect(screen.getByLabelText<HTMLInputElement>('Relationship').value).toBe('child');
  });

  it('saves each contact and medication change at once through its own call, and Update Family Member sends the fields', async () => {
    const events = vi.fn();
    window.addEventListener('familyMemberUpdated', events);
    let stored = member;
    const uncleBob = makeContact('c2', { name: 'Uncle Bob', phone_number: '555-0111' });
    const { calls } = mockFetch((call) => {
      const base = '/api/user/family/members/m1';
      if (call.url === `${base}/emergency-contacts` && call.method === 'POST') {
        stored = { ...stored, emergency_contacts: [...stored.emergency_contacts, uncleBob] };
        return json({ ...uncleBob, message: 'Emergency contact added successfully!' }, 201);
      }
      if (call.url === `${base}/medications/med1` && call.method === 'DELETE') {
        stored = { ...stored, medications: [] };
        return json({ message: 'Medication removed successfully!' });
      }
      if (call.url !== base) return json({}, 404);
      if (call.method === 'PUT') return json({ ...stored, message: 'Family member updated successfully!' });
      return json(stored);
    });
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/edit-family-member/m1');

    await user.click(await screen.findByRole('tab', { name: 'Emergency Contacts' }));
    // SPEC §5: a contact is added only when name and phone are both present.
    await user.type(screen.getByLabelText('Contact Name'), 'Uncle Bob');
    await user.click(screen.getByRole('button', { name: 'Add Contact' }));
    expect(await screen.findByText('Contact phone number is required')).toBeTruthy();
    await user.type(screen.getByLabelText('Contact Phone Number'), '555-0111');
    await user.click(screen.getByRole('button', { name: 'Add Contact' }));
    expect(await screen.findByText('Emergency contact added successfully!')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Remove Uncle Bob' })).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      url: '/api/user/family/members/m1/emergency-contacts',
      body: { name: 'Uncle Bob', phone_number: '555-0111' },
    });

    await user.click(screen.getByRole('tab', { name: 'Medications' }));
    await user.click(screen.getByRole('button', { name: 'Remove Amoxicillin' }));
    expect(await screen.findByText('No medications added')).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/user/family/members/m1/medications/med1')).toBe(true);
    expect(events).toHaveBeenCalledTimes(2);
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);

    // Nothing in the fields changed, so leaving does not ask; saving goes back to the dashboard with this member.
    await user.click(screen.getByRole('button', { name: 'Update Family Member' }));
    expect(await screen.findByRole('heading', { name: 'Dashboard route' })).toBeTruthy();
    // Back on the dashboard with this member selected, not My Profile.
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(router.state.location.search).toBe('?member=m1');
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.body).toMatchObject({ name: 'Carol', date_of_birth: '2015-05-20', relationship: 'child' });
    // The lists are not sent again: a copy could only be older than what each call saved.
    expect(put?.body).not.toHaveProperty('emergency_contacts');
    expect(put?.body).not.toHaveProperty('medications');
    window.removeEventListener('familyMemberUpdated', events);
  });

  it('the Medications tab shows each current medication’s schedule and edits it (issue 32)', async () => {
    const stopped = makeMedication('med2', { medication_name: 'Old syrup', is_current: false });
    let schedules = [makeSchedule('med1', { person_id: 'm1', times: ['08:00', '20:00'], quantity_on_hand: 20, runs_out_on: '2026-12-07' })];
    const { calls } = mockFetch((call) => {
      if (call.url === '/api/user/family/members/m1') return json({ ...member, medications: [...member.medications, stopped] });
      if (call.url === '/api/user/people') return json([makeSelf('self-1'), makeFamilyPerson('m1', { name: 'Carol' })]);
      if (call.url === '/api/user/people/m1/schedules') return json({ schedules });
      if (call.url === '/api/user/people/m1/medications/med1/schedule' && call.method === 'PUT') {
        schedules = [makeSchedule('med1', { person_id: 'm1', times: ['09:00'], quantity_on_hand: 20, runs_out_on: '2026-12-17' })];
        return json(schedules[0]);
      }
      return json({}, 404);
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/edit-family-member/m1');

    await user.click(await screen.findByRole('tab', { name: 'Medications' }));
    expect(await screen.findByText('08:00, 20:00 · every day')).toBeTruthy();
    expect(screen.getByText('20 on hand · runs out around Dec 7, 2026')).toBeTruthy();
    // A medication no longer taken has no schedule to show.
    expect(screen.queryByRole('button', { name: /schedule of Old syrup/ })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Edit schedule of Amoxicillin' }));
    const dialog = screen.getByRole('dialog', { name: 'Schedule for Amoxicillin' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove time 2' }));
    const time = within(dialog).getByLabelText<HTMLInputElement>('Time 1');
    await user.clear(time);
    await user.type(time, '09:00');
    await user.click(within(dialog).getByRole('button', { name: 'Save schedule' }));
    expect(await screen.findByText('09:00 · every day')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
      url: '/api/user/people/m1/medications/med1/schedule',
      body: { times: ['09:00'], days: [1, 2, 3, 4, 5, 6, 7], quantity_on_hand: 20 },
    });
  });

  it('leaving with unsaved fields asks first: Stay keeps what was typed, Leave without saving goes', async () => {
    const { calls } = mockFetch((call) => (call.url === '/api/user/family/members/m1' ? json(member) : json({}, 404)));
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/edit-family-member/m1');
    await user.type(await screen.findByLabelText('Phone Number'), '555-0142');

    await act(() => router.navigate('/dashboard'));
    const ask = await screen.findByRole('alertdialog', { name: 'Leave without saving?' });
    expect(document.activeElement).toBe(within(ask).getByRole('button', { name: 'Stay on this page' }));
    await user.click(within(ask).getByRole('button', { name: 'Stay on this page' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(router.state.location.pathname).toBe('/edit-family-member/m1');
    expect(screen.getByLabelText<HTMLInputElement>('Phone Number').value).toBe('555-0142');

    // Cancel is leaving too.
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(
      within(await screen.findByRole('alertdialog', { name: 'Leave without saving?' })).getByRole('button', {
        name: 'Leave without saving',
      }),
    );
    expect(await screen.findByRole('heading', { name: 'Dashboard route' })).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('closing or reloading the tab with unsaved fields asks the browser to confirm, and not once saved fields are clean', async () => {
    mockFetch((call) => (call.url === '/api/user/family/members/m1' ? json(member) : json({}, 404)));
    const user = userEvent.setup();
    renderRoutes(routes, '/edit-family-member/m1');
    const unload = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    await screen.findByLabelText('Phone Number');
    expect(unload()).toBe(false);
    await user.type(screen.getByLabelText('Phone Number'), '5');
    expect(unload()).toBe(true);
    await user.clear(screen.getByLabelText('Phone Number'));
    expect(unload()).toBe(false);
  });

  it('name, date of birth and relationship are required', async () => {
    const { calls } = mockFetch((call) => (call.url === '/api/user/family/members/m1' ? json(member) : json({}, 404)));
    const user = userEvent.setup();
    renderRoutes(routes, '/edit-family-member/m1');
    await user.selectOptions(await screen.findByLabelText('Relationship'), '');
    await user.click(screen.getByRole('tab', { name: 'Medications' }));
    await user.click(screen.getByRole('button', { name: 'Update Family Member' }));

    expect(await screen.findByText('Relationship is required')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Basic Information' }).getAttribute('aria-selected')).toBe('true');
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('says so when the member cannot be loaded or saved', async () => {
    mockFetch((call) => {
      if (call.url === '/api/user/family/members/gone') return json({}, 404);
      if (call.method === 'PUT') return json({}, 500);
      return call.url === '/api/user/family/members/m1' ? json(member) : json({}, 404);
    });
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/edit-family-member/gone');
    expect(await screen.findByText('Failed to load family member data')).toBeTruthy();

    await router.navigate('/edit-family-member/m1');
    await user.click(await screen.findByRole('button', { name: 'Update Family Member' }));
    expect(await screen.findByText('Failed to update family member')).toBeTruthy();
  });
});
