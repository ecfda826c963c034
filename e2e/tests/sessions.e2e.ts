import { readFile } from 'node:fs/promises';
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
  useBrowser,
} from '../lib/browser';
import { ageSessionAuthentication } from '../lib/database';
import { openFamilySettings, openShareDialog } from '../lib/sharing';

// DESIGN §5, docs/decisions/0024: Settings → Account Settings lists every browser signed in to the
// account and signs any of them out; exporting everything and creating a share ask for the password
// again when the session's last one is more than 10 minutes old, then go on by themselves.

useBrowser();

/** Settings → Account Settings → Sessions, with its list loaded. */
async function openSessions(page: Page) {
  await open(page, '/settings?tab=account');
  const section = page.getByRole('region', { name: 'Sessions' });
  await expectVisible(section.getByRole('listitem').first());
  return section;
}

describe('sessions you can see', () => {
  test('a person sees both browsers in Settings, signs the other one out, and that browser is signed out', async () => {
    const laptop = await newPage(DESKTOP);
    const user = await signUpAndLogIn(laptop);
    const phone = await newPage(PHONE);
    await logInViaApi(phone, user);
    await open(phone, '/dashboard');

    const section = await openSessions(laptop);
    const items = section.getByRole('listitem');
    await expect.poll(() => items.count()).toBe(2);
    // This browser first, marked; the device in plain words, its address and times.
    await expectVisible(items.first().getByText('This device'));
    expect(await items.first().textContent()).toMatch(/^Chrome on Linux/);
    for (const label of ['IP address', 'Signed in', 'Last active']) await expectVisible(items.nth(1).getByText(label, { exact: true }));
    await expectVisible(section.getByRole('button', { name: 'Sign out of all other sessions' }));
    await expectNoA11yViolations(laptop, 'Settings → Sessions (desktop)');
    await screenshot(laptop, 'sessions-settings-desktop');

    // The phone sees the same two, itself first.
    const phoneSection = await openSessions(phone);
    await expect.poll(() => phoneSection.getByRole('listitem').count()).toBe(2);
    await expectVisible(phoneSection.getByRole('listitem').first().getByText('This device'));
    await phoneSection.scrollIntoViewIfNeeded();
    await expectNoA11yViolations(phone, 'Settings → Sessions (phone)');
    await screenshot(phone, 'sessions-settings-phone');

    // The laptop signs the phone out.
    await section.getByRole('button', { name: /^Sign out Chrome on .+, signed in / }).click();
    await expectVisible(section.getByRole('status').getByText(/signed out successfully\.$/));
    await expect.poll(() => items.count()).toBe(1);
    await expectVisible(section.getByText('You are not signed in anywhere else.'));

    // The phone's next page finds itself signed out; the laptop goes on.
    await phone.goto('/settings?tab=account');
    await expectPath(phone, '/login');
    await open(laptop, '/dashboard');
    await expectPath(laptop, '/dashboard');
  });

  test('"Sign out of all other sessions" signs out every other browser at once', async () => {
    const page = await newPage(PHONE);
    const user = await signUpAndLogIn(page);
    const others = [await newPage(DESKTOP), await newPage(DESKTOP)];
    for (const other of others) {
      await logInViaApi(other, user);
      await open(other, '/dashboard');
    }

    const section = await openSessions(page);
    await expect.poll(() => section.getByRole('listitem').count()).toBe(3);
    await section.getByRole('button', { name: 'Sign out of all other sessions' }).click();
    await expectVisible(section.getByText('Signed out of 2 other sessions successfully.'));
    await expect.poll(() => section.getByRole('listitem').count()).toBe(1);

    for (const other of others) {
      await other.goto('/settings');
      await expectPath(other, '/login');
    }
  });
});

describe('re-authentication', () => {
  test('Export after 10 minutes asks for the password, refuses a wrong one, and then downloads', async () => {
    const page = await newPage(DESKTOP);
    const user = await signUpAndLogIn(page);
    await ageSessionAuthentication(page, 11);

    const exportButton = page.getByRole('banner').getByRole('button', { name: 'Export', exact: true });
    await exportButton.click();
    const dialog = page.getByRole('dialog', { name: 'Confirm your password' });
    await expectVisible(dialog);
    const password = dialog.getByLabel('Password', { exact: true });
    // Focus starts in the field.
    await expect.poll(() => password.evaluate((el) => el === document.activeElement)).toBe(true);
    await expectNoA11yViolations(page, 'Confirm your password (desktop)');
    await screenshot(page, 'sessions-reauth-export-desktop');

    await password.fill('not the right password');
    await dialog.getByRole('button', { name: 'Confirm', exact: true }).click();
    await expectVisible(dialog.getByRole('alert').getByText('Password is incorrect'));
    await screenshot(page, 'sessions-reauth-wrong-desktop');

    await password.fill(user.password);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Confirm', exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^kinchart-export-\d{4}-\d{2}-\d{2}\.zip$/);
    const zip = await readFile(await download.path());
    expect(zip.subarray(0, 2).toString('latin1')).toBe('PK');
    await expectHidden(dialog);
    await expectVisible(page.getByText(/^Export complete: kinchart-export-/));
  });

  test('creating a share after 10 minutes asks for the password on a phone, then makes the link', async () => {
    const page = await newPage(PHONE);
    const user = await signUpAndLogIn(page);
    await apiCall(page, 'POST', '/api/user/family/add', { name: 'Robin Rivers', date_of_birth: '2016-02-03', relationship: 'child' });
    await ageSessionAuthentication(page, 30);

    await openFamilySettings(page);
    const share = await openShareDialog(page, 'Robin Rivers');
    await share.getByRole('button', { name: 'Create invitation link' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm your password' });
    await expectVisible(dialog);
    await expectNoA11yViolations(page, 'Confirm your password (phone)');
    await screenshot(page, 'sessions-reauth-share-phone');

    await dialog.getByLabel('Password', { exact: true }).fill(user.password);
    await dialog.getByRole('button', { name: 'Confirm', exact: true }).click();
    await expectHidden(dialog);
    const link = share.getByRole('textbox', { name: 'Invitation link' });
    await expectVisible(link);
    expect(await link.inputValue()).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
  });
});
