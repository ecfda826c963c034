import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { json, Landmark, mockFetch, renderRoutes } from '../../../../test/utils';
import { makeMember, makeProfile } from '../../../../test/profiles';
import { EditFamilyMemberPage } from './edit-family-member-page';
import { ProfilePage } from './profile-page';

// Issue 35: height and weight follow the account's units; a browser in Germany starts metric.
const routes = [
  { path: '/profile', element: <ProfilePage /> },
  { path: '/edit-family-member/:id', element: <EditFamilyMemberPage /> },
  { path: '/dashboard', element: <Landmark name="Dashboard route" /> },
];

function serve(profile = makeProfile(), member = makeMember('m1', { name: 'Carol', relationship: 'child' })) {
  return mockFetch((call) => {
    if (call.url === '/api/user/getPatientProfile') return json(profile);
    if (call.url === '/api/user/updateProfile' && call.method === 'PUT') return json({ message: 'Profile updated successfully!' });
    if (call.url === '/api/user/family/members/m1') {
      return call.method === 'PUT' ? json({ ...member, message: 'Family member updated successfully!' }) : json(member);
    }
    return json({ message: 'Not found' }, 404);
  });
}

describe('height and weight in metric units', { timeout: 15_000 }, () => {
  beforeEach(() => {
    vi.spyOn(Navigator.prototype, 'languages', 'get').mockReturnValue(['de-DE']);
  });

  it('shows the stored cm and kg as they are, with no feet, inches or pounds', async () => {
    serve(makeProfile({ height: 180.34, weight: 74.8 }));
    renderRoutes(routes, '/profile');
    expect((await screen.findByLabelText<HTMLInputElement>('Height (cm)')).value).toBe('180.34');
    expect(screen.getByLabelText<HTMLInputElement>('Weight (kg)').value).toBe('74.8');
    expect(screen.queryByLabelText('Feet')).toBeNull();
    expect(screen.queryByLabelText('Inches')).toBeNull();
    expect(screen.queryByLabelText('Weight (lbs)')).toBeNull();
  });

  it('a save without touching them sends the stored values back unchanged', async () => {
    const { calls } = serve(makeProfile({ height: 172.7, weight: 63.5 }));
    const user = userEvent.setup();
    renderRoutes(routes, '/profile');
    await screen.findByLabelText('Height (cm)');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await screen.findByText('Profile updated successfully!');
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ height: 172.7, weight: 63.5 });
  });

  it('the cm and kg typed are the cm and kg sent', async () => {
    const { calls } = serve();
    const user = userEvent.setup();
    renderRoutes(routes, '/profile');
    await user.type(await screen.findByLabelText('Height (cm)'), '168.5');
    await user.type(screen.getByLabelText('Weight (kg)'), '61.3');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await screen.findByText('Profile updated successfully!');
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ height: 168.5, weight: 61.3 });
  });

  it('refuses a height over 271.78 cm without a request', async () => {
    const { calls } = serve();
    const user = userEvent.setup();
    renderRoutes(routes, '/profile');
    await user.type(await screen.findByLabelText('Height (cm)'), '300');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Height must be a number from 0 to 271.78')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('the family member editor shows and sends cm and kg too', async () => {
    const { calls } = serve(undefined, makeMember('m1', { name: 'Carol', relationship: 'child', height: 120, weight: 25.2 }));
    const user = userEvent.setup();
    renderRoutes(routes, '/edit-family-member/m1');
    const height = await screen.findByLabelText<HTMLInputElement>('Height (cm)');
    expect(height.value).toBe('120');
    expect(screen.getByLabelText<HTMLInputElement>('Weight (kg)').value).toBe('25.2');
    await user.clear(height);
    await user.type(height, '121.5');
    await user.click(screen.getByRole('button', { name: 'Update Family Member' }));
    await screen.findByRole('heading', { name: 'Dashboard route' });
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ height: 121.5, weight: 25.2 });
  });
});

describe('height and weight in imperial units', { timeout: 15_000 }, () => {
  it('a height stored in cm (entered in metric) is kept when the feet and inches are saved untouched', async () => {
    vi.spyOn(Navigator.prototype, 'languages', 'get').mockReturnValue(['en-US']);
    const { calls } = serve(makeProfile({ height: 180, weight: 75 }));
    const user = userEvent.setup();
    renderRoutes(routes, '/profile');
    expect((await screen.findByLabelText<HTMLInputElement>('Feet')).value).toBe('5');
    expect(screen.getByLabelText<HTMLInputElement>('Inches').value).toBe('11');
    expect(screen.getByLabelText<HTMLInputElement>('Weight (lbs)').value).toBe('165.3');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await screen.findByText('Profile updated successfully!');
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ height: 180, weight: 75 });
  });
});
