import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json, Landmark, mockFetch, renderRoutes } from '../../../../test/utils';
import { makeContact, makeMedication, makeMember } from '../testing/fixtures';
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

  it('keeps list changes in the form and sends them with Update Family Member, then goes to /dashboard', async () => {
    const events = vi.fn();
    window.addEventListener('familyMemberUpdated', events);
    const { calls } = mockFetch((call) => {
      if (call.url !== '/api/user/family/members/m1') return json({}, 404);
      if (call.method === 'PUT') return json({ ...member, message: 'Family member updated successfully!' });
      return json(member);
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
    expect(await screen.findByRole('button', { name: 'Remove Uncle Bob' })).toBeTruthy();

    await user.click(screen.getByRole('tab', { name: 'Medications' }));
    await user.click(screen.getByRole('button', { name: 'Remove Amoxicillin' }));
    expect(screen.getByText('No medications added')).toBeTruthy();
    // Nothing is sent until the member is saved.
    expect(calls.filter((c) => c.method !== 'GET')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Update Family Member' }));
    expect(await screen.findByRole('heading', { name: 'Dashboard route' })).toBeTruthy();
    // Back on the dashboard with this member selected, not My Profile.
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(router.state.location.search).toBe('?member=m1');

    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.body).toMatchObject({
      name: 'Carol',
      date_of_birth: '2015-05-20',
      relationship: 'child',
      emergency_contacts: [
        { id: 'c1', name: 'Grandma' },
        { name: 'Uncle Bob', phone_number: '555-0111' },
      ],
      healthcare_providers: [],
      medications: [],
    });
    expect(events).toHaveBeenCalledTimes(1);
    window.removeEventListener('familyMemberUpdated', events);
  });

  it('name, date of birth and relationship are required', async () => {
    const { calls } = mockFetch((call) => (call.url === '/api/user/family/members/m1' ? json(member) : json({}, 404)));
    const user = userEvent.setup();
    renderRoutes(routes, '/edit-family-member/m1');
    await user.clear(await screen.findByLabelText('Relationship'));
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
