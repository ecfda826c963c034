import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  DESKTOP,
  PHONE,
  apiCall,
  expectHidden,
  expectNoA11yViolations,
  expectPath,
  expectVisible,
  newPage,
  open,
  screenshot,
  signUpAndLogIn,
  useBrowser,
  type Viewport,
} from '../lib/browser';
import { tinyPdf } from '../lib/files';
import { fillOwnProfile } from '../lib/people';

useBrowser();

// Issue 30 (a new user on desktop and phone): the app offline — a banner, the kept cards one tap
// away from /login, a profile save that waits for the connection and survives closing the tab —
// the navigation bar's upload for the person chosen on the dashboard, tab strips that fit, and a
// lab test reported in two units.

const OFFLINE_BANNER = 'You are offline. Kinchart will carry on once the connection is back.';
const CARDS_LINK = 'Open the emergency cards saved on this device';

/** Settings → Account Settings → keep the cards; resolves once the service worker is active. */
async function keepCards(page: Page): Promise<void> {
  await open(page, '/settings?tab=account');
  const toggle = page.getByRole('switch', { name: 'Keep emergency cards on this device' });
  await expect.poll(() => toggle.isEnabled()).toBe(true);
  await toggle.check();
  await expectVisible(
    page
      .getByRole('region', { name: 'Emergency cards on this device' })
      .getByRole('status')
      .getByText(/emergency card.* saved on this device/),
  );
  await expect.poll(() => page.evaluate(async () => Boolean((await navigator.serviceWorker.ready).active)), { timeout: 20_000 }).toBe(true);
}

/** The tab strip fits its box: no tab runs off the edge or hides behind a scroll. */
async function expectTabsFit(page: Page, name: string): Promise<void> {
  const list = page.getByRole('tablist', { name });
  await expectVisible(list);
  const fits = await list.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const tabs = Array.from(el.querySelectorAll('[role="tab"]'), (t) => t.getBoundingClientRect());
    return (
      el.scrollWidth <= el.clientWidth + 1 &&
      tabs.every((t) => t.left >= box.left - 1 && t.right <= box.right + 1 && t.right <= window.innerWidth)
    );
  });
  expect(fits).toBe(true);
}

describe('offline', () => {
  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const satisfies readonly (readonly [string, Viewport])[]) {
    test(`a signed-in page reloaded offline says so and leads to the kept cards; login says it is offline (${label})`, async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      await fillOwnProfile(page);
      await keepCards(page);

      await page.context().setOffline(true);
      await page.goto('/dashboard');
      await expectVisible(page.getByRole('heading', { level: 1, name: 'You are offline' }));
      await expectVisible(page.getByRole('status').getByText(OFFLINE_BANNER));
      await expectPath(page, '/dashboard');
      // Nobody is known to be signed out: the header offers no Login or Sign Up.
      expect(await page.getByRole('banner').getByRole('link', { name: 'Login' }).count()).toBe(0);
      await expectNoA11yViolations(page, `/dashboard offline (${label})`);
      await screenshot(page, `offline-private-page-${label}`);

      await page.goto('/login');
      await expectVisible(page.getByRole('status').getByText(OFFLINE_BANNER));
      await page.getByLabel('Email').fill('someone@example.com');
      await page.getByLabel('Password').fill('not sent anyway');
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await expectVisible(
        page.getByRole('alert').getByText('You are offline, so you cannot log in right now. Please try again once you are connected.'),
      );
      await expectNoA11yViolations(page, `/login offline (${label})`);
      await screenshot(page, `offline-login-${label}`);

      await page.getByRole('link', { name: CARDS_LINK }).click();
      await expectPath(page, '/emergency-cards');
      await expectVisible(page.getByRole('article', { name: 'Emergency card: Jordan Rivers (you)' }));
      // The cards page while signed in, offline: no Login / Sign Up in its header either.
      expect(await page.getByRole('banner').getByRole('link', { name: 'Sign Up' }).count()).toBe(0);
      await screenshot(page, `offline-cards-from-login-${label}`);

      // Back online, the private page opens by itself.
      await page.goto('/dashboard');
      await expectVisible(page.getByRole('heading', { level: 1, name: 'You are offline' }));
      await page.context().setOffline(false);
      await expectHidden(page.getByRole('heading', { level: 1, name: 'You are offline' }));
      await expectHidden(page.getByText(OFFLINE_BANNER));
      await expectPath(page, '/dashboard');
    });
  }

  test('a profile saved offline waits for the connection with the form kept, then saves', async () => {
    const page = await newPage(PHONE);
    await signUpAndLogIn(page);
    await fillOwnProfile(page);
    await open(page, '/profile');
    const name = page.getByLabel('Name', { exact: true });
    await expect.poll(() => name.inputValue()).toBe('Jordan Rivers');
    await name.fill('Jordan A. Rivers');

    await page.context().setOffline(true);
    await expectVisible(page.getByText(OFFLINE_BANNER));
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expectVisible(page.getByRole('button', { name: 'Waiting for connection…' }));
    await expectVisible(
      page
        .getByRole('status')
        .getByText('You are offline. Your changes are kept on this device and will be saved once the connection is back.'),
    );
    expect(await name.inputValue()).toBe('Jordan A. Rivers');
    await expectNoA11yViolations(page, '/profile waiting for the connection (phone)');
    await screenshot(page, 'offline-profile-waiting-phone');

    await page.context().setOffline(false);
    await expectVisible(page.getByText('Profile updated successfully!'));
    const saved = (await (await page.request.get('/api/user/getPatientProfile')).json()) as { name: string };
    expect(saved.name).toBe('Jordan A. Rivers');
    expect(await page.evaluate(() => localStorage.getItem('kinchart.draft.profile'))).toBeNull();
  });

  test('an edit whose save waited offline survives closing the tab and is offered back', async () => {
    const page = await newPage(DESKTOP);
    await signUpAndLogIn(page);
    await fillOwnProfile(page);
    await open(page, '/profile');
    const name = page.getByLabel('Name', { exact: true });
    await expect.poll(() => name.inputValue()).toBe('Jordan Rivers');
    await name.fill('Jordan Kept');
    await page.context().setOffline(true);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expectVisible(page.getByRole('button', { name: 'Waiting for connection…' }));

    // The tab closes while offline; later, online again, a new tab opens the editor.
    const context = page.context();
    await page.close({ runBeforeUnload: false });
    await context.setOffline(false);
    const again = await context.newPage();
    await again.goto('/profile');
    await expectVisible(again.getByText('Changes you made while offline have not been saved yet.'));
    await expectNoA11yViolations(again, '/profile with an edit kept offline (desktop)');
    await screenshot(again, 'offline-profile-kept-edit-desktop');
    await again.getByRole('button', { name: 'Restore my changes' }).click();
    expect(await again.getByLabel('Name', { exact: true }).inputValue()).toBe('Jordan Kept');
    await again.getByRole('button', { name: 'Save Changes' }).click();
    await expectVisible(again.getByText('Profile updated successfully!'));
    expect(await again.evaluate(() => localStorage.getItem('kinchart.draft.profile'))).toBeNull();
  });
});

describe('the navigation bar’s upload', () => {
  test('files the record for the person chosen on the dashboard, says whose it is, and refuses a file over the limit before sending', async () => {
    const page = await newPage(DESKTOP);
    await signUpAndLogIn(page);
    const member = await apiCall(page, 'POST', '/api/user/family/add', {
      name: 'Alex Rivers',
      date_of_birth: '2015-04-02',
      relationship: 'child',
    });
    const memberId = String(member.id);
    await open(page, '/dashboard');
    const alex = page.getByRole('button', { name: /Alex Rivers/ });
    await alex.click();
    await expect.poll(() => alex.getAttribute('aria-pressed')).toBe('true');

    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('banner').getByRole('button', { name: 'Upload', exact: true }).click(),
    ]);
    await chooser.setFiles({ name: 'school-note.pdf', mimeType: 'application/pdf', buffer: tinyPdf('Note') });
    const toast = page.getByText('Successfully uploaded school-note.pdf for Alex Rivers');
    await expectVisible(toast);
    await screenshot(page, 'header-upload-for-member-desktop');
    const files = (await (await page.request.get(`/api/user/files?person=${memberId}`)).json()) as { name: string }[];
    expect(files.map((f) => f.name)).toEqual(['school-note']);

    // A limit the page is told is small, so the refusal before sending can be seen.
    await page.route('**/api/config', (route) =>
      route.fulfill({ json: { max_upload_bytes: 1024 * 1024, signup_mode: 'open', passkeys: false, sso: null } }),
    );
    await page.reload();
    let sent = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/user/upload') sent += 1;
    });
    const [big] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('banner').getByRole('button', { name: 'Upload', exact: true }).click(),
    ]);
    await big.setFiles({
      name: 'big-scan.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.concat([tinyPdf('Big'), Buffer.alloc(1024 * 1024)]),
    });
    await expectVisible(page.getByText('Failed to upload file: big-scan.pdf is larger than 1 MB, the most this server accepts.'));
    expect(sent).toBe(0);
    await screenshot(page, 'header-upload-too-large-desktop');
  });
});

describe('tab strips fit the screen', () => {
  test('Edit Member’s tabs at 1280 px and Settings’ tabs on a phone', async () => {
    const page = await newPage(DESKTOP);
    await signUpAndLogIn(page);
    const member = await apiCall(page, 'POST', '/api/user/family/add', {
      name: 'Alex Rivers',
      date_of_birth: '2015-04-02',
      relationship: 'child',
    });
    await open(page, `/edit-family-member/${String(member.id)}`);
    await expectTabsFit(page, 'Family member sections');
    await screenshot(page, 'edit-member-tabs-desktop');

    const phone = await newPage(PHONE);
    await signUpAndLogIn(phone);
    await open(phone, '/settings');
    await expectTabsFit(phone, 'Settings');
    await expectNoA11yViolations(phone, '/settings tabs (phone)');
    await screenshot(phone, 'settings-tabs-phone');
  });
});

describe('a lab test in two units', () => {
  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const satisfies readonly (readonly [string, Viewport])[]) {
    test(`gets a chart per unit and a sentence saying why, with dates for people (${label})`, async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      const people = (await (await page.request.get('/api/user/people')).json()) as { id: string; is_self: boolean }[];
      const self = people.find((p) => p.is_self);
      if (!self) throw new Error('No own profile');
      for (const [name, value, unit, date, range] of [
        ['Glucose', 95, 'mg/dL', '2024-03-01', '70-99'],
        ['glucose', 5.9, 'mmol/L', '2023-09-01', '3.9-5.5'],
        ['Glucose ', 101, 'mg/dL', '2023-03-01', '70-99'],
        ['GLUCOSE', 5.2, 'mmol/L', '2022-03-01', '3.9-5.5'],
      ] as const) {
        await apiCall(page, 'POST', `/api/user/people/${self.id}/lab-results`, { name, value, unit, date, reference_range: range });
      }
      await open(page, `/health-records/${self.id}?tab=lab-results`);
      const group = page.getByRole('article', { name: 'Glucose' });
      await expectVisible(group.getByText('These results were reported in different units (mg/dL and mmol/L).', { exact: false }));
      await expectVisible(group.getByRole('figure', { name: 'Glucose over time (mg/dL)' }));
      await expectVisible(group.getByRole('figure', { name: 'Glucose over time (mmol/L)' }));
      await expectVisible(group.getByRole('listitem').first().getByText('Mar 1, 2024'));
      await expectNoA11yViolations(page, `/health-records two units (${label})`);
      await screenshot(page, `lab-results-two-units-${label}`);
    });
  }
});
