import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import {
  DESKTOP,
  PHONE,
  apiCall,
  expectNoA11yViolations,
  expectPath,
  expectVisible,
  newPage,
  open,
  screenshot,
  signUpAndLogIn,
  useBrowser,
} from '../lib/browser';
import type { TestUser } from '../lib/browser';
import { totpCode } from '../lib/totp';

useBrowser();

// Two-factor authentication (DESIGN §5, docs/decisions/0026): a user turns on TOTP in Settings with
// the key shown on screen, then signs in with password and code, and with a recovery code.

/** A close-up of one part of the page, beside the full-page shots in e2e/screenshots/. */
async function closeUp(locator: Locator, name: string) {
  await locator.screenshot({ path: fileURLToPath(new URL(`../screenshots/${name}.png`, import.meta.url)), animations: 'disabled' });
}

async function logOut(page: Page) {
  await apiCall(page, 'POST', '/api/auth/logout', {});
}

async function passwordStep(page: Page, user: TestUser) {
  await open(page, '/login');
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
}

describe('two-factor authentication', () => {
  for (const [device, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`a user turns on an authenticator app, then signs in with a code and with a recovery code (${device})`, async () => {
      const page = await newPage(viewport);
      const user = await signUpAndLogIn(page);

      // Settings → Account Settings → Two-Factor Authentication: off, then set up.
      await open(page, '/settings?tab=account');
      const section = page.getByRole('region', { name: 'Two-Factor Authentication' });
      await expectVisible(section.getByText('Off', { exact: true }));
      await section.getByRole('button', { name: 'Set up' }).click();
      await expectVisible(section.getByRole('img', { name: 'QR code to scan with your authenticator app' }));
      const secret = (await section.locator('code').innerText()).replace(/\s+/g, '');
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      await expectNoA11yViolations(page, `Settings → two-factor set-up (${device})`);
      await section.scrollIntoViewIfNeeded();
      await screenshot(page, `two-factor-setup-${device}`);
      await closeUp(section, `two-factor-setup-section-${device}`);

      await section.getByLabel('Enter the 6-digit code from the app').fill(totpCode(secret));
      await section.getByRole('button', { name: 'Turn on' }).click();
      const saved = section.getByRole('region', { name: 'Save your recovery codes' });
      await expectVisible(saved);
      const recoveryCodes = await saved.getByRole('listitem').allInnerTexts();
      expect(recoveryCodes).toHaveLength(10);
      await expectNoA11yViolations(page, `Settings → recovery codes (${device})`);
      await saved.scrollIntoViewIfNeeded();
      await screenshot(page, `two-factor-recovery-codes-${device}`);
      await closeUp(saved, `two-factor-recovery-codes-section-${device}`);
      await saved.getByRole('button', { name: 'I have saved my codes' }).click();
      await expectVisible(section.getByText('10 of 10 recovery codes left.'));
      await closeUp(section, `two-factor-on-section-${device}`);

      // Password, then the code. The set-up spent this time step's code, so the next step's code is
      // typed — the server accepts one step of drift either way (RFC 6238 §5.2).
      await logOut(page);
      await passwordStep(page, user);
      const code = page.getByLabel('Authentication code');
      await expectVisible(code);
      expect(await code.getAttribute('autocomplete')).toBe('one-time-code');
      expect(await code.getAttribute('inputmode')).toBe('numeric');
      await expectVisible(page.getByText('Enter the 6-digit code from your authenticator app.'));
      await expectNoA11yViolations(page, `/login second step (${device})`);
      await screenshot(page, `two-factor-login-code-${device}`);
      await code.fill(totpCode(secret, Date.now() + 30_000));
      await page.getByRole('button', { name: 'Verify' }).click();
      await expectVisible(page.getByText('Login successful.'));
      await expectPath(page, '/dashboard');

      // Password, then a recovery code instead.
      await logOut(page);
      await passwordStep(page, user);
      await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
      const recovery = page.getByLabel('Recovery code');
      await expectVisible(recovery);
      await expectNoA11yViolations(page, `/login recovery code (${device})`);
      await screenshot(page, `two-factor-login-recovery-${device}`);
      await recovery.fill(recoveryCodes[0]!);
      await page.getByRole('button', { name: 'Verify' }).click();
      await expectPath(page, '/dashboard');

      await open(page, '/settings?tab=account');
      await expectVisible(page.getByRole('region', { name: 'Two-Factor Authentication' }).getByText('9 of 10 recovery codes left.'));
    });
  }
});
