import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json, Landmark, mockFetch, renderRoutes, type FetchCall } from '../../../../test/utils';
import { makeContact, makeProfile } from '../../../../test/profiles';
import { ProfilePage } from './profile-page';

const routes = [
  { path: '/profile', element: <ProfilePage /> },
  { path: '/dashboard', element: <Landmark name="Dashboard route" /> },
];

function serve(overrides: (call: FetchCall) => Response | undefined = () => undefined, profile = makeProfile()) {
  return mockFetch((call) => {
    const answer = overrides(call);
    if (answer) return answer;
    if (call.url === '/api/user/getPatientProfile') return json(profile);
    return json({ message: 'Not found' }, 404);
  });
}

// These journeys type a lot; give a slow CI machine room.
describe('full profile editor', { timeout: 15_000 }, () => {
  it('has the five tabs of the spec, Basic Information first', async () => {
    serve();
    renderRoutes(routes, '/profile');
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual([
      'Basic Information',
      'Medical Conditions',
      'Emergency Contacts',
      'Healthcare Providers',
      'Medications',
    ]);
    expect(tabs[0]!.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByLabelText<HTMLInputElement>('Name').value).toBe('Alice Example');
    const bloodTypes = within(screen.getByLabelText('Blood Type'))
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(bloodTypes).toEqual(['Select blood type', 'A+', 'A-', 'B+', 'B-', 'AB+', 'AB-', 'O+', 'O-']);
  });

  it('checking a condition reveals its details text area, unchecking hides it again', async () => {
    serve();
    const user = userEvent.setup();
    renderRoutes(routes, '/profile');
    await user.click(await screen.findByRole('tab', { name: 'Medical Conditions' }));

    expect(screen.queryByLabelText('Allergy details')).toBeNull();
    await user.click(screen.getByRole('checkbox', { name: 'Allergies' }));
    const details = screen.getByRole('textbox', { name: 'Allergy details' });
    await user.type(details, 'Penicillin');
    expect(screen.queryByLabelText('Bleeding disorder details')).toBeNull();

    await user.click(screen.getByRole('checkbox', { name: 'Allergies' }));
    expect(screen.queryByLabelText('Allergy details')).toBeNull();
  });

  it('shows stored height and weight in feet, inches and pounds', async () => {
    serve(undefined, makeProfile({ height: 180.34, weight: 74.8 }));
    renderRoutes(routes, '/profile');
    expect((await screen.findByLabelText<HTMLInputElement>('Feet')).value).toBe('5');
    expect(screen.getByLabelText<HTMLInputElement>('Inches').value).toBe('11');
    expect(screen.getByLabelText<HTMLInputElement>('Weight (lbs)').value).toBe('165');
  });

  it('Save Changes sends 5 ft 11 in as 180.34 cm and 165 lbs as 74.8 kg, shows the message in green and goes to /dashboard after 2 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { calls } = serve((call) =>
      call.method === 'PUT' && call.url === '/api/user/updateProfile' ? json({ message: 'Profile updated successfully!' }) : undefined,
    );
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    renderRoutes(routes, '/profile');

    await user.type(await screen.findByLabelText('Feet'), '5');
    await user.type(screen.getByLabelText('Inches'), '11');
    await user.type(screen.getByLabelText('Weight (lbs)'), '165');
    await user.selectOptions(screen.getByLabelText('Blood Type'), 'O+');
    await user.click(screen.getByRole('tab', { name: 'Medical Conditions' }));
    await user.click(screen.getByRole('checkbox', { name: 'Allergies' }));
    await user.type(screen.getByLabelText('Allergy details'), 'Penicillin');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    const status = await screen.findByText('Profile updated successfully!');
    expect(status.className).toContain('text-green');
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.url).toBe('/api/user/updateProfile');
    expect(put?.body).toMatchObject({
      name: 'Alice Example',
      height: 180.34,
      weight: 74.8,
      blood_type: 'O+',
      has_allergies: true,
      allergy_details: 'Penicillin',
    });
    // The list tabs save on their own; the profile save leaves the lists alone.
    expect(put?.body).not.toHaveProperty('medications');

    await act(async () => {
      await vi.advanceTimersByTimeAsync(1900);
    });
    expect(screen.queryByRole('heading', { name: 'Dashboard route' })).toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(200);
    });
    expect(screen.getByRole('heading', { name: 'Dashboard route' })).toBeTruthy();
  });

  it('an out-of-range height is refused on the Basic Information tab without a request', async () => {
    const { calls } = serve();
    const user = userEvent.setup();
    renderRoutes(routes, '/profile');
    await user.type(await screen.findByLabelText('Inches'), '12');
    await user.click(screen.getByRole('tab', { name: 'Medications' }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText('Inches must be a whole number from 0 to 11')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Basic Information' }).getAttribute('aria-selected')).toBe('true');
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('a failed save shows the server message, else "An error occurred", in red', async () => {
    const answers = [() => json({ message: 'weight: Weight (kg) must be between 0 and 453.6' }, 400), () => json({}, 500)];
    serve((call) => (call.method === 'PUT' ? answers.shift()!() : undefined));
    const user = userEvent.setup();
    renderRoutes(routes, '/profile');
    const save = await screen.findByRole('button', { name: 'Save Changes' });

    await user.click(save);
    expect((await screen.findByRole('alert')).textContent).toBe('weight: Weight (kg) must be between 0 and 453.6');
    await user.click(save);
    expect((await screen.findByText('An error occurred')).className).toContain('text-red');
  });

  it('a save made offline waits for the connection with the form kept, and goes through once the connection is back', async () => {
    localStorage.clear();
    let down = true;
    const { calls } = serve((call) => {
      if (call.method !== 'PUT') return undefined;
      if (down) throw new TypeError('Failed to fetch');
      return json({ message: 'Profile updated successfully!' });
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/profile');
    const name = await screen.findByLabelText<HTMLInputElement>('Name');
    await user.clear(name);
    await user.type(name, 'Alice Offline');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByRole('button', { name: 'Waiting for connection…' })).toBeTruthy();
    expect(
      screen.getByText('You are offline. Your changes are kept on this device and will be saved once the connection is back.'),
    ).toBeTruthy();
    expect(screen.queryByText('Error updating profile')).toBeNull();
    expect(screen.getByLabelText<HTMLInputElement>('Name').value).toBe('Alice Offline');

    down = false;
    window.dispatchEvent(new Event('online'));
    expect(await screen.findByText('Profile updated successfully!')).toBeTruthy();
    const puts = calls.filter((c) => c.method === 'PUT');
    expect((puts.at(-1)!.body as { name: string }).name).toBe('Alice Offline');
    // Saved: nothing of the edit is left on the device.
    expect(localStorage.getItem('kinchart.draft.profile')).toBeNull();
  });

  it('an edit whose save waited offline survives closing the tab, is offered back, and can then be saved', async () => {
    localStorage.clear();
    serve((call) => {
      if (call.method === 'PUT') throw new TypeError('Failed to fetch');
      return undefined;
    });
    const user = userEvent.setup();
    const first = renderRoutes(routes, '/profile');
    const name = await screen.findByLabelText<HTMLInputElement>('Name');
    await user.clear(name);
    await user.type(name, 'Alice Kept');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await screen.findByRole('button', { name: 'Waiting for connection…' });
    // The tab closes.
    first.unmount();
    window.dispatchEvent(new Event('online'));

    const { calls } = serve((call) => (call.method === 'PUT' ? json({ message: 'Profile updated successfully!' }) : undefined));
    renderRoutes(routes, '/profile');
    expect(await screen.findByText('Changes you made while offline have not been saved yet.')).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Name').value).toBe('Alice Example');
    await user.click(screen.getByRole('button', { name: 'Restore my changes' }));
    expect(screen.getByLabelText<HTMLInputElement>('Name').value).toBe('Alice Kept');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Profile updated successfully!')).toBeTruthy();
    expect((calls.find((c) => c.method === 'PUT')!.body as { name: string }).name).toBe('Alice Kept');
    expect(localStorage.getItem('kinchart.draft.profile')).toBeNull();
  });

  it('an edit kept for one account is never offered to another, and leaves the device', async () => {
    localStorage.setItem(
      'kinchart.draft.profile',
      JSON.stringify({ userId: 'someone-else', savedAt: Date.now(), values: { name: 'Not yours' } }),
    );
    serve();
    renderRoutes(routes, '/profile');
    await screen.findByLabelText('Name');
    expect(screen.queryByText('Changes you made while offline have not been saved yet.')).toBeNull();
    expect(localStorage.getItem('kinchart.draft.profile')).toBeNull();
  });

  it('says so when the profile cannot be loaded', async () => {
    mockFetch(() => json({}, 500));
    renderRoutes(routes, '/profile');
    expect(await screen.findByText('Failed to load profile data')).toBeTruthy();
  });

  it('adds an emergency contact through its own call and lists it', async () => {
    const added = makeContact('c9', { name: 'Bob', phone_number: '555-0101', is_primary: true });
    let stored = makeProfile();
    const { calls } = serve((call) => {
      if (call.url === '/api/user/getPatientProfile') return json(stored);
      if (call.method !== 'POST' || call.url !== '/api/user/emergency-contacts') return undefined;
      stored = { ...stored, emergency_contacts: [added] };
      return json({ ...added, message: 'Emergency contact added successfully!' }, 201);
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/profile');
    await user.click(await screen.findByRole('tab', { name: 'Emergency Contacts' }));
    expect(screen.getByText('No emergency contacts added')).toBeTruthy();

    await user.type(screen.getByLabelText('Contact Name'), 'Bob');
    await user.type(screen.getByLabelText('Contact Phone Number'), '555-0101');
    await user.click(screen.getByRole('checkbox', { name: 'Primary contact' }));
    await user.click(screen.getByRole('button', { name: 'Add Contact' }));

    expect(await screen.findByText('Emergency contact added successfully!')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ name: 'Bob', phone_number: '555-0101', is_primary: true });
    expect(screen.getByRole('button', { name: 'Remove Bob' })).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Contact Name').value).toBe('');
  });

  it('leaving with unsaved fields asks first; Stay keeps them, and a list entry saved on its own does not count', async () => {
    serve();
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/profile');
    await user.type(await screen.findByLabelText('Weight (lbs)'), '150');
    await act(() => router.navigate('/dashboard'));
    const ask = await screen.findByRole('alertdialog', { name: 'Leave without saving?' });
    await user.click(within(ask).getByRole('button', { name: 'Stay on this page' }));
    expect(screen.getByLabelText<HTMLInputElement>('Weight (lbs)').value).toBe('150');
    expect(router.state.location.pathname).toBe('/profile');

    await user.clear(screen.getByLabelText('Weight (lbs)'));
    await act(() => router.navigate('/dashboard'));
    expect(await screen.findByRole('heading', { name: 'Dashboard route' })).toBeTruthy();
  });

  it('an emergency contact cannot be added without a phone number, as in the family editor', async () => {
    const { calls } = serve();
    const user = userEvent.setup();
    renderRoutes(routes, '/profile');
    await user.click(await screen.findByRole('tab', { name: 'Emergency Contacts' }));

    const phone = screen.getByLabelText('Contact Phone Number');
    expect(phone.getAttribute('aria-required')).toBe('true');
    await user.type(screen.getByLabelText('Contact Name'), 'Bob');
    await user.type(phone, '   ');
    await user.click(screen.getByRole('button', { name: 'Add Contact' }));
    expect(await screen.findByText('Contact phone number is required')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('the medication form starts with Currently Taking checked and reports a failure', async () => {
    const { calls } = serve((call) => (call.method === 'POST' ? json({}, 500) : undefined));
    const user = userEvent.setup();
    renderRoutes(routes, '/profile');
    await user.click(await screen.findByRole('tab', { name: 'Medications' }));

    const taking = screen.getByRole<HTMLInputElement>('checkbox', { name: 'Currently Taking' });
    expect(taking.checked).toBe(true);
    await user.type(screen.getByLabelText('Medication Name'), 'Aspirin');
    await user.click(screen.getByRole('button', { name: 'Add Medication' }));

    expect(await screen.findByText('Error adding medication')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      url: '/api/user/medications',
      body: { medication_name: 'Aspirin', is_current: true },
    });
  });
});
