import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
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
} from '../lib/browser';
import { ageSessionAuthentication } from '../lib/database';
import { addVirtualAuthenticator } from '../lib/webauthn';

useBrowser();

// Passkeys (DESIGN §5, docs/decisions/0027) with Chromium's virtual authenticator: a user adds a
// passkey in Settings, signs out, signs in with the passkey alone, then with password and passkey
// as the second step, and confirms it is them with the passkey before an export.

async function logOut(page: Page) {
  await apiCall(page, 'POST', '/api/auth/logout', {});
}

describe('passkeys', () => {
  for (const [device, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`a user adds a passkey, signs in with it alone and as the second step, and confirms an export with it (${device})`, async () => {
      const page = await newPage(viewport);
      const authenticator = await addVirtualAuthenticator(page);
      const user = await signUpAndLogIn(page);

      // Settings → Account Settings → Passkeys: none yet; add one under a name.
      await open(page, '/settings?tab=account');
      const section = page.getByRole('region', { name: 'Passkeys' });
      await expectVisible(section.getByText('You have no passkeys yet.'));
      await section.getByLabel('Passkey name').fill('Work laptop');
      await section.getByRole('button', { name: 'Add a passkey' }).click();

      // The first second factor brings recovery codes, shown once.
      const saved = section.getByRole('region', { name: 'Save your recovery codes' });
      await expectVisible(saved);
      expect(await saved.getByRole('listitem').allInnerTexts()).toHaveLength(10);
      await saved.getByRole('button', { name: 'I have saved my codes' }).click();
      const list = section.getByRole('list', { name: 'Your passkeys' });
      await expectVisible(list.getByText('Work laptop'));
      await expectVisible(list.getByText('Never'));
      const [credential] = await authenticator.credentials();
      expect(credential?.isResidentCredential).toBe(true);
      await expectNoA11yViolations(page, `Settings → passkeys (${device})`);
      await section.scrollIntoViewIfNeeded();
      await screenshot(page, `passkeys-settings-${device}`);

      // Rename it.
      await section.getByRole('button', { name: 'Rename Work laptop' }).click();
      await section.getByLabel('New name').fill('Laptop fingerprint');
      await section.getByRole('button', { name: 'Save' }).click();
      await expectVisible(section.getByText('Passkey renamed successfully.'));
      await expectVisible(list.getByText('Laptop fingerprint'));

      // Signed out: the passkey alone signs in, with no email typed.
      await logOut(page);
      await open(page, '/login');
      const passkeyButton = page.getByRole('button', { name: 'Sign in with a passkey' });
      await expectVisible(passkeyButton);
      await expectNoA11yViolations(page, `/login with passkeys (${device})`);
      await screenshot(page, `passkeys-login-${device}`);
      await passkeyButton.click();
      const toast = page.getByText('Login successful.');
      await expectVisible(toast);
      await expectPath(page, '/dashboard');
      // The browser asks for reduced motion (lib/browser.ts): the toast still stays its 3 s (SPEC §9).
      await page.waitForTimeout(1_500);
      expect(await toast.isVisible()).toBe(true);

      // Password first: the passkey is now the second step.
      await logOut(page);
      await open(page, '/login');
      await page.getByLabel('Email', { exact: true }).fill(user.email);
      await page.getByLabel('Password', { exact: true }).fill(user.password);
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await expectVisible(page.getByText('Use your passkey to finish signing in', { exact: false }));
      await expectVisible(page.getByRole('button', { name: 'Use a recovery code instead' }));
      await expectNoA11yViolations(page, `/login passkey second step (${device})`);
      await screenshot(page, `passkeys-second-step-${device}`);
      await page.getByRole('button', { name: 'Use your passkey', exact: true }).click();
      await expectVisible(page.getByText('Login successful.'));
      await expectPath(page, '/dashboard');

      // Eleven minutes later, Export asks to confirm: the passkey answers.
      await ageSessionAuthentication(page, 11);
      await open(page, '/settings?tab=account');
      const exportButton = page.getByRole('region', { name: 'Import and Export' }).getByRole('button', { name: 'Export', exact: true });
      await exportButton.click();
      const dialog = page.getByRole('dialog', { name: 'Confirm your password' });
      await expectVisible(dialog);
      const usePasskey = dialog.getByRole('button', { name: 'Use a passkey instead' });
      await expectVisible(usePasskey);
      await expectNoA11yViolations(page, `Confirm with a passkey (${device})`);
      await screenshot(page, `passkeys-reauth-${device}`);
      const [download] = await Promise.all([page.waitForEvent('download'), usePasskey.click()]);
      expect(download.suggestedFilename()).toMatch(/^kinchart-export-\d{4}-\d{2}-\d{2}\.zip$/);
      await expectHidden(dialog);

      // The list shows when it was last used; removing it ends the second factor.
      await open(page, '/settings?tab=account');
      await expect.poll(() => list.getByText('Never').count()).toBe(0);
      await section.getByRole('button', { name: 'Remove Laptop fingerprint' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Remove the passkey “Laptop fingerprint”?' });
      await expectVisible(confirm.getByText('It is your only second factor', { exact: false }));
      await confirm.getByRole('button', { name: 'Remove' }).click();
      await expectVisible(section.getByText('Passkey removed successfully.'));
      await expectVisible(section.getByText('You have no passkeys yet.'));
    });
  }
});
