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
  logInViaApi,
  newPage,
  open,
  screenshot,
  signUpAndLogIn,
  signUpViaApi,
  uniqueUser,
  useBrowser,
} from '../lib/browser';
import { fillOwnProfile } from '../lib/people';

useBrowser();

// DESIGN §7: the owner's emergency cards can be kept offline on their own device (PWA). Turned on
// in Settings, every person's card opens with the network cut — the service worker serves the
// app shell, the cards come from IndexedDB — and logging out removes them.

const SWITCH = { name: 'Keep emergency cards on this device' } as const;

async function ownerWithFamily(page: Page): Promise<void> {
  await fillOwnProfile(page);
  await apiCall(page, 'POST', '/api/user/family/add', { name: 'Alex Rivers', date_of_birth: '2015-04-02', relationship: 'child' });
  await apiCall(page, 'POST', '/api/user/wearable-qr', { pin: '4826' });
}

/** Settings → Account Settings → the switch, turned on; resolves once the cards are saved and the worker is ready. */
async function keepCards(page: Page): Promise<void> {
  await open(page, '/settings?tab=account');
  const toggle = page.getByRole('switch', SWITCH);
  await expectVisible(toggle);
  expect(await toggle.isChecked()).toBe(false);
  await expect.poll(() => toggle.isEnabled()).toBe(true);
  await toggle.check();
  const section = page.getByRole('region', { name: 'Emergency cards on this device' });
  await expectVisible(section.getByRole('status').getByText(/^2 emergency cards saved on this device, last on /));
  expect(await toggle.isChecked()).toBe(true);
  // The service worker is active once it has precached the app shell.
  await expect.poll(() => page.evaluate(async () => Boolean((await navigator.serviceWorker.ready).active)), { timeout: 20_000 }).toBe(true);
}

async function logOut(page: Page, viewport: typeof DESKTOP | typeof PHONE): Promise<void> {
  if (viewport === PHONE) await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'Logout' }).filter({ visible: true }).click();
  await expectPath(page, '/signup');
}

describe('emergency cards kept on the owner’s device', () => {
  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`the owner keeps the cards, they open with the network cut, and logout removes them (${label})`, async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      await ownerWithFamily(page);

      await keepCards(page);
      await expectNoA11yViolations(page, `/settings with the cards kept (${label})`);
      await screenshot(page, `offline-cards-setting-${label}`);

      // No network at all: the page is loaded afresh, not navigated to inside the running app.
      await page.context().setOffline(true);
      await page.goto('/emergency-cards');
      await expectVisible(page.getByRole('heading', { level: 1, name: 'Emergency cards' }));
      await expectVisible(page.getByText('You are offline: these are the copies saved on this device.'));
      const own = page.getByRole('article', { name: 'Emergency card: Jordan Rivers (you)' });
      await expectVisible(own.getByTestId('critical-allergies').getByText('Penicillin'));
      await expectVisible(own.getByRole('link', { name: 'Call Sam Rivers (Spouse)' }));
      await expectVisible(own.getByRole('img', { name: 'Emergency QR code of Jordan Rivers (you)' }));
      await expectNoA11yViolations(page, `/emergency-cards offline (${label})`);
      await screenshot(page, `offline-cards-own-${label}`);

      await page.getByRole('tab', { name: 'Alex Rivers' }).click();
      const member = page.getByRole('article', { name: 'Emergency card: Alex Rivers' });
      await expectVisible(member.getByTestId('critical-name').getByText('Alex Rivers'));
      // Alex's code was never set up: no QR code on that card.
      expect(await member.getByRole('img', { name: /Emergency QR code/ }).count()).toBe(0);
      await expectNoA11yViolations(page, `/emergency-cards offline, a member's card (${label})`);
      await screenshot(page, `offline-cards-member-${label}`);

      // Back online and still signed in: logout removes the cards and the worker from this device.
      await page.context().setOffline(false);
      await open(page, '/dashboard');
      await logOut(page, viewport);
      await open(page, '/emergency-cards');
      await expectVisible(page.getByRole('heading', { name: 'No emergency cards on this device' }));
      await expectHidden(page.getByText('Jordan Rivers'));
      expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
      await expectNoA11yViolations(page, `/emergency-cards after logout (${label})`);
      await screenshot(page, `offline-cards-after-logout-${label}`);

      // And with the network cut again, nothing of the cards is left to open.
      await page.context().setOffline(true);
      expect(await page.goto('/emergency-cards').catch(() => null)).toBeNull();
      await page.context().setOffline(false);
    });
  }

  test('someone else signing in on the same browser never sees the cards the previous owner kept', async () => {
    const page = await newPage(PHONE);
    await signUpAndLogIn(page);
    await ownerWithFamily(page);
    await keepCards(page);

    // The owner's session ends without a logout (it expired); another person signs in here.
    await page.context().clearCookies();
    const other = await signUpViaApi(page, uniqueUser('other'));
    await logInViaApi(page, other);
    await open(page, '/emergency-cards');
    await expectVisible(page.getByRole('heading', { name: 'No emergency cards on this device' }));
    await expectHidden(page.getByText('Jordan Rivers'));
    await expectNoA11yViolations(page, '/emergency-cards as another account (phone)');
    await screenshot(page, 'offline-cards-other-account-phone');

    // Their switch is off, and the previous owner's copy is gone from the device.
    await open(page, '/settings?tab=account');
    const toggle = page.getByRole('switch', SWITCH);
    await expect.poll(() => toggle.isEnabled()).toBe(true);
    expect(await toggle.isChecked()).toBe(false);
  });
});
