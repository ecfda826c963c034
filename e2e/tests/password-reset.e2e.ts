import { describe, expect, test } from 'vitest';
import type { Viewport } from '../lib/browser';
import {
  DESKTOP,
  PHONE,
  baseUrl,
  expectNoA11yViolations,
  expectPath,
  expectVisible,
  logInViaUi,
  newPage,
  open,
  screenshot,
  signUpViaApi,
  uniqueUser,
  useBrowser,
} from '../lib/browser';
import { mailsTo, waitForMail } from '../lib/mailbox';

useBrowser();

// A way back in (docs/decisions/0025): "Forgot password?" on /login, the emailed link (the
// server sends it through the runner's loopback SMTP server), a new password, and login with it.

const NEUTRAL = 'If an account uses this email, a link to reset its password is on its way.';
const RESET_SUBJECT = 'Kinchart: reset your password';

describe('password reset', () => {
  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as [string, Viewport][]) {
    test(`on a ${name}, someone who forgot their password gets a link by email, sets a new one and logs in with it`, async () => {
      const page = await newPage(viewport);
      const user = await signUpViaApi(page);
      await page.context().clearCookies();

      await open(page, '/login');
      await screenshot(page, `password-reset/${name}-0-login`);
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await expectPath(page, '/forgot-password');
      await expectVisible(page.getByRole('heading', { level: 1, name: 'Forgot your password?' }));
      await expectNoA11yViolations(page);
      await screenshot(page, `password-reset/${name}-1-forgot`);

      await page.getByLabel('Email', { exact: true }).fill(user.email);
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await expectVisible(page.getByText(NEUTRAL));
      await expectNoA11yViolations(page, '/forgot-password (sent)');
      await screenshot(page, `password-reset/${name}-2-sent`);

      const mail = await waitForMail(user.email, 1, 15_000, RESET_SUBJECT);
      expect(mail.headers.subject).toBe(RESET_SUBJECT);
      const link = /https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_-]{43}/.exec(mail.text)?.[0];
      expect(link, mail.text).toBeDefined();
      expect(new URL(link!).origin).toBe(baseUrl());

      await page.goto(link!, { waitUntil: 'networkidle' });
      await expectVisible(page.getByRole('heading', { level: 1, name: 'Choose a new password' }));
      await expectNoA11yViolations(page, '/reset-password');
      await screenshot(page, `password-reset/${name}-3-reset`);

      // The confirmation must match before anything is sent (SPEC §5's message).
      const newPassword = `${user.password}-new`;
      await page.getByLabel('New Password', { exact: true }).fill(newPassword);
      await page.getByLabel('Confirm New Password', { exact: true }).fill(`${newPassword}x`);
      await page.getByRole('button', { name: 'Set new password' }).click();
      await expectVisible(page.getByText('New passwords do not match'));
      await page.getByLabel('Confirm New Password', { exact: true }).fill(newPassword);
      await page.getByRole('button', { name: 'Set new password' }).click();
      await expectVisible(page.getByText('Your password has been reset. Please log in with your new password.'));
      await expectNoA11yViolations(page, '/reset-password (done)');
      await screenshot(page, `password-reset/${name}-4-done`);

      await page.getByRole('link', { name: 'Go to login' }).click();
      await expectPath(page, '/login');
      await logInViaUi(page, { ...user, password: newPassword });

      // The link worked once, and says so as soon as it is opened again: no password to type first.
      await page.context().clearCookies();
      await page.goto(link!, { waitUntil: 'networkidle' });
      await expectVisible(page.getByRole('alert').getByText('This password reset link has already been used. Please ask for a new one.'));
      expect(await page.getByLabel('New Password', { exact: true }).count()).toBe(0);
      await expectVisible(page.getByRole('link', { name: 'Ask for one' }));
      await expectNoA11yViolations(page, '/reset-password (used link)');
      await screenshot(page, `password-reset/${name}-5-used-link`);
    });
  }

  test('the confirmation is the same for an email no account uses, and no email goes out', async () => {
    const page = await newPage();
    const user = await signUpViaApi(page);
    await page.context().clearCookies();
    const nobody = uniqueUser('nobody').email;
    const ask = async (email: string) => {
      await open(page, '/forgot-password');
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await expectVisible(page.getByText(NEUTRAL));
    };
    await ask(nobody);
    // An account's request after it: its email arriving is the mailbox's signal that the server is
    // past the first request, whose email (if any) would have been queued first.
    await ask(user.email);
    await waitForMail(user.email, 1, 15_000, RESET_SUBJECT);
    expect(await mailsTo(nobody)).toEqual([]);
  });
});
