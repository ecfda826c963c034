import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { checkAuthAnswer, json, Landmark, mockFetch, renderRoutes, type FetchCall } from '../../../../test/utils';
import { readSavedCards, savedRecord, writeSavedCards } from '../../offline-cards/testing/fixtures';
import { SettingsPage } from './settings-page';

const routes = [
  { path: '/settings', element: <SettingsPage /> },
  { path: '/edit-profile', element: <Landmark name="Edit profile route" /> },
  { path: '/login', element: <Landmark name="Login route" /> },
];

function serve(extra: (call: FetchCall) => Response | undefined = () => undefined) {
  return mockFetch((call) => {
    const answer = extra(call);
    if (answer) return answer;
    if (call.url === '/api/auth/check-auth') return checkAuthAnswer('alice');
    if (call.url === '/api/user/family/members') return json([]);
    return json({ message: 'Not found' }, 404);
  });
}

describe('settings page', () => {
  it('has a side menu of four tabs with Personal QR Code selected by default', async () => {
    serve();
    renderRoutes(routes, '/settings');
    const tablist = await screen.findByRole('tablist', { name: 'Settings' });
    const tabs = within(tablist).getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Account Settings', 'Family Members', 'Personal QR Code', 'Family QR Codes']);
    expect(tabs[2]!.getAttribute('aria-selected')).toBe('true');
    expect(tablist.getAttribute('aria-orientation')).toBe('vertical');
  });

  it('Account Settings: Edit Profile, Manage Family, the forms, the Two-Factor Authentication section and the Danger Zone', async () => {
    serve();
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/settings?tab=account');

    expect(await screen.findByRole('heading', { name: 'Change Password' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Change Email Address' })).toBeTruthy();
    expect(screen.getByLabelText('New Email').getAttribute('type')).toBe('email');
    // SPEC §2's 'Coming Soon' button is now the real section (docs/decisions/0026).
    expect(screen.getByRole('region', { name: 'Two-Factor Authentication' })).toBeTruthy();
    expect(screen.queryByText('Coming Soon')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Danger Zone' })).toBeTruthy();
    // Issue 35: the language chooser, labelled, beside the units, above the time zone.
    const language = screen.getByRole('region', { name: 'Language and units' });
    expect(within(language).getByRole('combobox', { name: 'Language' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Manage Family' }));
    expect(screen.getByRole('tab', { name: 'Family Members' }).getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Family Members' }));
    const panel = screen.getByRole('tabpanel', { name: 'Family Members' });
    expect(await within(panel).findByText('No family members added')).toBeTruthy();

    await user.click(screen.getByRole('tab', { name: 'Account Settings' }));
    await user.click(screen.getByRole('button', { name: 'Edit Profile' }));
    expect(await screen.findByRole('heading', { name: 'Edit profile route' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/edit-profile');
  });

  it('Account Settings shows the storage the account uses and its quota, with a labelled progress bar', async () => {
    const used = Math.round(12.3 * 1024 * 1024);
    const quota = 5120 * 1024 * 1024;
    serve((call) => (call.url === '/api/user/storage' ? json({ used_bytes: used, quota_bytes: quota }) : undefined));
    renderRoutes(routes, '/settings?tab=account');
    const section = await screen.findByRole('region', { name: 'Storage' });
    expect(await within(section).findByText('Storage: 12.3 MB of 5 GB used')).toBeTruthy();
    const bar = within(section).getByRole<HTMLProgressElement>('progressbar', { name: 'Storage used' });
    expect(bar.value).toBe(used);
    expect(bar.max).toBe(quota);
    expect(within(section).queryByText(/almost full/i)).toBeNull();
  });

  it('Account Settings warns when the storage is almost full, and says so when it cannot be read', async () => {
    serve((call) =>
      call.url === '/api/user/storage' ? json({ used_bytes: 950 * 1024 * 1024, quota_bytes: 1024 * 1024 * 1024 }) : undefined,
    );
    const { unmount } = renderRoutes(routes, '/settings?tab=account');
    const section = await screen.findByRole('region', { name: 'Storage' });
    expect(await within(section).findByText('Storage: 950 MB of 1 GB used')).toBeTruthy();
    expect(within(section).getByText(/almost full/i)).toBeTruthy();
    unmount();

    serve((call) => (call.url === '/api/user/storage' ? json({ message: 'Something went wrong. Please try again.' }, 500) : undefined));
    renderRoutes(routes, '/settings?tab=account');
    const failed = await screen.findByRole('region', { name: 'Storage' });
    expect(await within(failed).findByText('Could not load how much storage is used.')).toBeTruthy();
    expect(within(failed).getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('the email form sends newEmail and password and falls back to "Failed to update email"', async () => {
    const { calls } = serve((call) => (call.url === '/api/auth/change-email' ? json({}, 500) : undefined));
    const user = userEvent.setup();
    renderRoutes(routes, '/settings?tab=account');
    await user.type(await screen.findByLabelText('New Email'), 'new@example.com');
    await user.type(screen.getByLabelText('Password'), 'my-password-1');
    await user.click(screen.getByRole('button', { name: 'Update Email' }));

    expect(await screen.findByText('Failed to update email')).toBeTruthy();
    expect(calls.find((c) => c.url === '/api/auth/change-email')).toMatchObject({
      method: 'PUT',
      body: { newEmail: 'new@example.com', password: 'my-password-1' },
    });
  });

  it('Delete Account asks the browser first, then for the password, then deletes and goes to /login', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const answers = [json({ message: 'Incorrect password' }, 401), json({ message: 'Account deleted successfully' })];
    const { calls } = serve((call) => (call.url === '/api/auth/deleteAccount' ? answers.shift()! : undefined));
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/settings?tab=account');

    await user.click(await screen.findByRole('button', { name: 'Delete Account' }));
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Delete Account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Account' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete Account' }));
    expect(await within(dialog).findByText('Password is required')).toBeTruthy();

    await user.type(within(dialog).getByLabelText('Password'), 'wrong-password');
    await user.click(within(dialog).getByRole('button', { name: 'Delete Account' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Incorrect password');

    await user.clear(within(dialog).getByLabelText('Password'));
    await user.type(within(dialog).getByLabelText('Password'), 'right-password');
    await user.click(within(dialog).getByRole('button', { name: 'Delete Account' }));
    expect(await screen.findByRole('heading', { name: 'Login route' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    const deletes = calls.filter((c) => c.url === '/api/auth/deleteAccount');
    expect(deletes.map((c) => [c.method, c.body])).toEqual([
      ['DELETE', { password: 'wrong-password' }],
      ['DELETE', { password: 'right-password' }],
    ]);
  });

  it('deleting the account also removes the emergency cards kept on this device', async () => {
    await writeSavedCards(savedRecord('u1'));
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    serve((call) => (call.url === '/api/auth/deleteAccount' ? json({ message: 'Account deleted successfully' }) : undefined));
    const user = userEvent.setup();
    renderRoutes(routes, '/settings?tab=account');
    // The switch shows what this device keeps.
    const toggle = await screen.findByRole<HTMLInputElement>('switch', { name: 'Keep emergency cards on this device' });
    await waitFor(() => expect(toggle.checked).toBe(true));

    await user.click(await screen.findByRole('button', { name: 'Delete Account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Account' });
    await user.type(within(dialog).getByLabelText('Password'), 'right-password');
    await user.click(within(dialog).getByRole('button', { name: 'Delete Account' }));
    expect(await screen.findByRole('heading', { name: 'Login route' })).toBeTruthy();
    expect(await readSavedCards()).toBeNull();
  });

  it('a failed deletion says "Failed to delete account"', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    serve((call) => (call.url === '/api/auth/deleteAccount' ? json({}, 500) : undefined));
    const user = userEvent.setup();
    renderRoutes(routes, '/settings?tab=account');
    await user.click(await screen.findByRole('button', { name: 'Delete Account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Account' });
    await user.type(within(dialog).getByLabelText('Password'), 'pw-123456');
    await user.click(within(dialog).getByRole('button', { name: 'Delete Account' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Failed to delete account');
  });
});
