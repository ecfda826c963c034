import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet, type RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { api as apiClient } from '../../lib/api-client';
import { Landmark, checkAuthAnswer, json, mockFetch, renderRoutes } from '../../../test/utils';
import { readSavedCards, writeSavedCards } from '../../features/offline-cards/lib/card-store';
import { savedRecord } from '../../features/offline-cards/testing/fixtures';
import { AppLayout } from './app-layout';
import { EmergencyLayout } from './emergency-layout';
import { MarketingLayout } from './marketing-layout';
import { PrivateLayout } from './private-layout';
import { RootLayout } from './root-layout';

/*
 * The layouts of router.tsx with stand-in pages, so these tests are about the frame (header,
 * navigation, footer, guard) and not about whatever each page loads.
 */
const page = (name: string) => <Landmark name={name} />;
const stubRoutes: RouteObject[] = [
  {
    Component: RootLayout,
    children: [
      { Component: MarketingLayout, children: [{ index: true, element: page('Home') }] },
      {
        Component: AppLayout,
        children: [
          { path: 'signup', element: page('Create an Account') },
          { path: 'login', element: page('Welcome Back!') },
          { path: 'privacy-policy', element: page('Privacy Policy') },
          { path: 'invite/:token', element: page('Invitation') },
          {
            Component: PrivateLayout,
            children: ['dashboard', 'appointments', 'view-records', 'settings'].map((path) => ({
              path,
              element: page(`Private ${path}`),
            })),
          },
        ],
      },
      { Component: EmergencyLayout, children: [{ path: 'emergency/:shareId', element: <Outlet /> }] },
    ],
  },
];

/** A call through the app's one API client that finds no server. */
async function fetchAndFail(): Promise<void> {
  await apiClient.get('/api/anything').catch(() => undefined);
}

const year = String(new Date().getFullYear());

/** Signed in as `username` (or out, with null); logout answers `logoutStatus`; anything else 404. */
function api(username: string | null, logoutStatus = 200) {
  return mockFetch((call) => {
    if (call.url === '/api/auth/check-auth') return checkAuthAnswer(username);
    if (call.url === '/api/auth/logout') return json({ message: logoutStatus === 200 ? 'Logged out' : 'nope' }, logoutStatus);
    return json({ message: 'Not found' }, 404);
  });
}

describe('private layout', () => {
  it('shows Loading... while the check runs, then sends a signed-out visitor to /login', async () => {
    api(null);
    const { router } = renderRoutes(stubRoutes, '/settings');
    expect(screen.getByText('Loading...')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Welcome Back!' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    expect(screen.queryByText('Private settings')).toBeNull();
  });

  it('shows the page to a signed-in user', async () => {
    api('alice');
    renderRoutes(stubRoutes, '/settings');
    expect(await screen.findByRole('heading', { name: 'Private settings' })).toBeTruthy();
  });
});

describe('signed-in top bar', () => {
  it('has the brand link, the seven links and Health Records, the greeting and the Upload, Export and Logout buttons', async () => {
    api('alice');
    renderRoutes(stubRoutes, '/dashboard');
    await screen.findByRole('heading', { name: 'Private dashboard' });

    const header = screen.getByRole('banner');
    expect(within(header).getAllByText('Hello, alice!').length).toBeGreaterThan(0);
    expect(within(header).getByRole('link', { name: 'Kinchart' }).getAttribute('href')).toBe('/dashboard');
    const nav = within(header).getByRole('navigation', { name: 'Main' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([
      ['Dashboard', '/dashboard'],
      ['Appointments', '/appointments'],
      ['Upload Records', '/update-records'],
      ['View Records', '/view-records'],
      ['Prescriptions', '/prescriptions'],
      ['Health Records', '/health-records'],
      ['Settings', '/settings'],
      ['Notifications', '/notifications'],
    ]);
    expect(within(nav).getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBe('page');
    // SPEC §2 Layout: the bar's Upload opens its own file picker (POST /api/user/upload).
    const uploadPicker = within(header).getAllByLabelText<HTMLInputElement>('Upload', { selector: 'input' })[0]!;
    expect(uploadPicker.type).toBe('file');
    let uploadPickerOpened = false;
    uploadPicker.addEventListener('click', () => (uploadPickerOpened = true));
    within(header).getAllByRole('button', { name: 'Upload' })[0]!.click();
    expect(uploadPickerOpened).toBe(true);
    // Decision 0004: Export downloads the whole account as a zip (features/export tests cover the download).
    const exportButton = within(header).getAllByRole('button', { name: 'Export' })[0]!;
    expect(exportButton.getAttribute('aria-disabled')).toBe('false');
    expect(within(header).getAllByRole('button', { name: 'Logout' }).length).toBeGreaterThan(0);
    expect(screen.getByRole('contentinfo').textContent).toContain(year);
  });

  it('greets with "Welcome!" when the account has no username', async () => {
    api('');
    renderRoutes(stubRoutes, '/appointments');
    await screen.findByRole('heading', { name: 'Private appointments' });
    expect(within(screen.getByRole('banner')).getAllByText('Welcome!').length).toBeGreaterThan(0);
  });

  it('the mobile menu opens with its button, offers Update Records and Import, and closes on Escape', async () => {
    api('alice');
    const user = userEvent.setup();
    renderRoutes(stubRoutes, '/dashboard');
    const toggle = await screen.findByRole('button', { name: 'Menu' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    const menu = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(menu.hidden).toBe(true);

    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(menu.hidden).toBe(false);
    expect(within(menu).getByRole('link', { name: 'Update Records' }).getAttribute('href')).toBe('/update-records');
    expect(within(menu).getByText('Hello, alice!')).toBeTruthy();
    const picker = within(menu).getByLabelText<HTMLInputElement>('Import', { selector: 'input' });
    expect(picker.type).toBe('file');
    let pickerOpened = false;
    picker.addEventListener('click', () => (pickerOpened = true));
    await user.click(within(menu).getByRole('button', { name: 'Import' }));
    expect(pickerOpened).toBe(true);

    await user.keyboard('{Escape}');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(menu.hidden).toBe(true);
    expect(document.activeElement).toBe(toggle);
  });

  it('Logout ends the session, says so and goes to /signup', async () => {
    const { calls } = api('alice');
    const user = userEvent.setup();
    const { router } = renderRoutes(stubRoutes, '/dashboard');
    await screen.findByRole('heading', { name: 'Private dashboard' });

    await user.click(screen.getAllByRole('button', { name: 'Logout' })[0]!);

    expect(await screen.findByText('Logged out successfully')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Create an Account' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/signup');
    expect(calls.filter((c) => c.url === '/api/auth/logout').map((c) => c.method)).toEqual(['POST']);
    // Signed out now: the header offers Login instead of the navigation bar.
    await waitFor(() => expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull());
    expect(within(screen.getByRole('banner')).getByRole('link', { name: 'Login' })).toBeTruthy();
  });

  it('toasts appear at the bottom of the screen, clear of the header and its buttons', async () => {
    api('alice');
    const user = userEvent.setup();
    renderRoutes(stubRoutes, '/dashboard');
    await screen.findByRole('heading', { name: 'Private dashboard' });
    await user.click(screen.getAllByRole('button', { name: 'Logout' })[0]!);
    const toast = await screen.findByText('Logged out successfully');
    expect(toast.closest('.Toastify__toast-container')?.className).toContain('Toastify__toast-container--bottom-right');
  });

  it('Logout removes the emergency cards kept on this device', async () => {
    await writeSavedCards(savedRecord('u1'));
    api('alice');
    const user = userEvent.setup();
    renderRoutes(stubRoutes, '/dashboard');
    await screen.findByRole('heading', { name: 'Private dashboard' });
    expect((await readSavedCards())?.userId).toBe('u1');

    await user.click(screen.getAllByRole('button', { name: 'Logout' })[0]!);
    expect(await screen.findByRole('heading', { name: 'Create an Account' })).toBeTruthy();
    expect(await readSavedCards()).toBeNull();
  });

  it('a failed logout says "Logout failed" and stays put', async () => {
    api('alice', 500);
    const user = userEvent.setup();
    const { router } = renderRoutes(stubRoutes, '/view-records');
    await screen.findByRole('heading', { name: 'Private view-records' });

    await user.click(screen.getAllByRole('button', { name: 'Logout' })[0]!);

    expect(await screen.findByText('Logout failed')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/view-records');
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeTruthy();
  });
});

describe('which pages get which frame', () => {
  it('marketing pages get the marketing bar (with Login and Sign Up) and the footer', async () => {
    api(null);
    renderRoutes(stubRoutes, '/');
    await screen.findByRole('heading', { name: 'Home' });
    const header = screen.getByRole('banner');
    expect(within(header).getByRole('link', { name: 'How It Works' }).getAttribute('href')).toBe('/howitworks');
    expect((await within(header).findByRole('link', { name: 'Sign Up' })).getAttribute('href')).toBe('/signup');
    expect(within(header).getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/login');
    expect(screen.getByRole('contentinfo').textContent).toContain(year);
  });

  it('the marketing bar offers the dashboard to someone signed in', async () => {
    api('alice');
    renderRoutes(stubRoutes, '/');
    const header = screen.getByRole('banner');
    expect((await within(header).findByRole('link', { name: 'Dashboard' })).getAttribute('href')).toBe('/dashboard');
    expect(within(header).queryByRole('link', { name: 'Sign Up' })).toBeNull();
  });

  it('other public pages get the app header without navigation when signed out, and the footer', async () => {
    api(null);
    renderRoutes(stubRoutes, '/privacy-policy');
    await screen.findByRole('heading', { name: 'Privacy Policy' });
    const header = screen.getByRole('banner');
    expect(within(header).queryByRole('link', { name: 'How It Works' })).toBeNull();
    expect(await within(header).findByRole('link', { name: 'Login' })).toBeTruthy();
    expect(within(header).queryByRole('navigation')).toBeNull();
    expect(screen.getByRole('contentinfo').textContent).toContain(year);
  });

  it('an invitee who signs up or logs in from the header keeps the way back to the invitation', async () => {
    api(null);
    const invitation = `/invite/${'t'.repeat(43)}`;
    const { router } = renderRoutes(stubRoutes, invitation);
    await screen.findByRole('heading', { name: 'Invitation' });
    const header = screen.getByRole('banner');
    const back = `next=${encodeURIComponent(invitation)}`;
    expect((await within(header).findByRole('link', { name: 'Sign Up' })).getAttribute('href')).toBe(`/signup?${back}`);
    expect(within(header).getByRole('link', { name: 'Login' }).getAttribute('href')).toBe(`/login?${back}`);
    // On the sign-up and login pages, the header passes on the page's own way back.
    await router.navigate(`/signup?${back}`);
    expect((await within(screen.getByRole('banner')).findByRole('link', { name: 'Login' })).getAttribute('href')).toBe(`/login?${back}`);
    await router.navigate(`/login?${back}`);
    expect((await within(screen.getByRole('banner')).findByRole('link', { name: 'Sign Up' })).getAttribute('href')).toBe(`/signup?${back}`);
    // Elsewhere the links are plain, and a way back to another site is never passed on.
    await router.navigate('/login?next=//evil.example');
    expect((await within(screen.getByRole('banner')).findByRole('link', { name: 'Sign Up' })).getAttribute('href')).toBe('/signup');
  });

  it('the emergency page has neither header nor footer', async () => {
    api(null);
    renderRoutes(stubRoutes, '/emergency/abc');
    await waitFor(() => expect(screen.getByRole('main')).toBeTruthy());
    expect(screen.queryByRole('banner')).toBeNull();
    expect(screen.queryByRole('contentinfo')).toBeNull();
  });

  it('every framed page starts with a skip link to the main content', async () => {
    api(null);
    renderRoutes(stubRoutes, '/login');
    await screen.findByRole('heading', { name: 'Welcome Back!' });
    const skip = screen.getByRole('link', { name: 'Skip to main content' });
    expect(skip.getAttribute('href')).toBe('#main-content');
    expect(screen.getByRole('main').id).toBe('main-content');
  });

  it('Logout removes edits kept on this device for want of a connection', async () => {
    localStorage.setItem('kinchart.draft.profile', JSON.stringify({ userId: 'u1', savedAt: Date.now(), values: { name: 'Alice' } }));
    api('alice');
    const user = userEvent.setup();
    renderRoutes(stubRoutes, '/dashboard');
    await screen.findByRole('heading', { name: 'Private dashboard' });
    await user.click(screen.getAllByRole('button', { name: 'Logout' })[0]!);
    expect(await screen.findByRole('heading', { name: 'Create an Account' })).toBeTruthy();
    expect(localStorage.getItem('kinchart.draft.profile')).toBeNull();
  });
});

describe('without a connection', () => {
  it('a private page reloaded offline says so and waits — no login page, no Login or Sign Up — and opens once the connection is back', async () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    let reachable = false;
    mockFetch((call) => {
      if (!reachable) return Promise.reject(new TypeError('Failed to fetch'));
      return call.url === '/api/auth/check-auth' ? checkAuthAnswer('alice') : json({ message: 'Not found' }, 404);
    });
    const { router } = renderRoutes(stubRoutes, '/dashboard');

    expect(await screen.findByRole('heading', { level: 1, name: 'You are offline' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard');
    // The banner is a polite live region, and the header does not pretend nobody is signed in.
    const banner = screen.getByText('You are offline. Kinchart will carry on once the connection is back.');
    expect(banner.closest('[role="status"]')).toBeTruthy();
    const header = screen.getByRole('banner');
    expect(within(header).queryByRole('link', { name: 'Login' })).toBeNull();
    expect(within(header).queryByRole('link', { name: 'Sign Up' })).toBeNull();

    reachable = true;
    onLine.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    expect(await screen.findByRole('heading', { name: 'Private dashboard' })).toBeTruthy();
    expect(screen.queryByText('You are offline. Kinchart will carry on once the connection is back.')).toBeNull();
  });

  it('a request that gets no answer shows the banner even while the browser believes it is online', async () => {
    mockFetch((call) => (call.url === '/api/auth/check-auth' ? checkAuthAnswer(null) : Promise.reject(new TypeError('Failed to fetch'))));
    renderRoutes(stubRoutes, '/login');
    await screen.findByRole('heading', { name: 'Welcome Back!' });
    expect(screen.queryByText('You are offline. Kinchart will carry on once the connection is back.')).toBeNull();
    await fetchAndFail();
    expect(await screen.findByText('You are offline. Kinchart will carry on once the connection is back.')).toBeTruthy();
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(screen.queryByText('You are offline. Kinchart will carry on once the connection is back.')).toBeNull());
  });
});
