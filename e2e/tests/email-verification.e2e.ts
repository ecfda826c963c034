import { describe, expect, test } from 'vitest';
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
  signUpViaUi,
  uniqueUser,
  useBrowser,
} from '../lib/browser';
import { confirmationLink } from '../lib/mailbox';

useBrowser();

// An email is proven by a link (DESIGN §5, docs/decisions/0030): a password sign-up gets a link by
// email (the runner's loopback SMTP server), Settings says whether the address is confirmed and
// sends a new link, and the link's page confirms it with one press. Signing in never waits for it.

describe('confirming an email address', () => {
  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`on a ${name}, a new account signs in at once, and confirms its email from the emailed link`, async () => {
      const page = await newPage(viewport);
      // The SPEC's sign-up and login, unchanged: nothing asks for the confirmation first.
      const user = await signUpViaUi(page, uniqueUser('confirm'));
      await logInViaUi(page, user);

      await open(page, '/settings?tab=account');
      const email = page.getByRole('region', { name: 'Change Email Address' });
      await expectVisible(email.getByText(/not confirmed yet/));
      await expectNoA11yViolations(page, `/settings email not confirmed (${name})`);
      await screenshot(page, `email-verification/${name}-1-settings-unconfirmed`);
      await email.getByRole('button', { name: 'Send a new link' }).click();
      await expectVisible(email.getByRole('status').getByText('A new confirmation link is on its way to your email address.'));

      // The first link still works; opening it confirms nothing until the button is pressed.
      const link = await confirmationLink(user.email, 1);
      expect(new URL(link).origin).toBe(baseUrl());
      await page.goto(link, { waitUntil: 'networkidle' });
      await expectVisible(page.getByRole('heading', { level: 1, name: 'Confirm your email address' }));
      await expectNoA11yViolations(page, `/verify-email (${name})`);
      await screenshot(page, `email-verification/${name}-2-confirm`);
      await page.getByRole('button', { name: 'Confirm my email' }).click();
      await expectVisible(page.getByRole('status').getByText('Thank you! Your email address is confirmed.'));
      await expectNoA11yViolations(page, `/verify-email confirmed (${name})`);
      await screenshot(page, `email-verification/${name}-3-confirmed`);

      await open(page, '/settings?tab=account');
      await expectVisible(page.getByRole('region', { name: 'Change Email Address' }).getByText('Your email address is confirmed.'));
      await screenshot(page, `email-verification/${name}-4-settings-confirmed`);

      // Used once: the second link (sent before) still works, this one says it was used.
      await page.goto(link, { waitUntil: 'networkidle' });
      await page.getByRole('button', { name: 'Confirm my email' }).click();
      await expectVisible(page.getByRole('alert').getByText(/already been used/));
      await expectPath(page, '/verify-email');
    });
  }
});
