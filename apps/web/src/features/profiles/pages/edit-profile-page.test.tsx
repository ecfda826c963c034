import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, Landmark, mockFetch, renderRoutes } from '../../../../test/utils';
import { makeProfile } from '../../../../test/profiles';
import { EditProfilePage } from './edit-profile-page';

const routes = [
  { path: '/edit-profile', element: <EditProfilePage /> },
  { path: '/view-records', element: <Landmark name="View records route" /> },
];

describe('Complete Your Profile', () => {
  it('saves the five fields with POST /api/user/profile, then goes to /view-records', async () => {
    const { calls } = mockFetch((call) => {
      if (call.url === '/api/user/getPatientProfile') return json(makeProfile({ name: null, username: 'alice' }));
      if (call.url === '/api/user/profile') return json({ message: 'Profile updated successfully!' });
      return json({}, 404);
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/edit-profile');

    expect(await screen.findByRole('heading', { level: 1, name: 'Complete Your Profile' })).toBeTruthy();
    expect((await screen.findByLabelText<HTMLInputElement>('Username')).value).toBe('alice');
    await user.type(screen.getByLabelText('Name'), 'Alice Example');
    await user.type(screen.getByLabelText('Date of Birth'), '1980-03-04');
    await user.type(screen.getByLabelText('Address'), '1 Main St');
    await user.type(screen.getByLabelText('Phone Number'), '555-0100');
    await user.click(screen.getByRole('button', { name: 'Complete Profile' }));

    expect(await screen.findByRole('heading', { name: 'View records route' })).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      url: '/api/user/profile',
      body: { username: 'alice', name: 'Alice Example', date_of_birth: '1980-03-04', address: '1 Main St', phone_number: '555-0100' },
    });
  });

  it('needs a name, and shows a failed save in red', async () => {
    const { calls } = mockFetch((call) => {
      if (call.url === '/api/user/getPatientProfile') return json(makeProfile({ name: null }));
      if (call.url === '/api/user/profile') return json({ message: 'date_of_birth: Date of birth cannot be in the future' }, 400);
      return json({}, 404);
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/edit-profile');

    await user.click(await screen.findByRole('button', { name: 'Complete Profile' }));
    expect(await screen.findByText('Name is required')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.type(screen.getByLabelText('Name'), 'Alice');
    await user.click(screen.getByRole('button', { name: 'Complete Profile' }));
    expect((await screen.findByRole('alert')).textContent).toBe('date_of_birth: Date of birth cannot be in the future');
  });

  it('leaving with something typed but not saved asks first, and Leave without saving goes', async () => {
    mockFetch((call) => (call.url === '/api/user/getPatientProfile' ? json(makeProfile({ name: null })) : json({}, 404)));
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/edit-profile');
    await user.type(await screen.findByLabelText('Name'), 'Alice');
    await act(() => router.navigate('/view-records'));
    const ask = await screen.findByRole('alertdialog', { name: 'Leave without saving?' });
    await user.click(within(ask).getByRole('button', { name: 'Leave without saving' }));
    expect(await screen.findByRole('heading', { name: 'View records route' })).toBeTruthy();
  });
});
