import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import {
  DESKTOP,
  PHONE,
  expectHidden,
  expectNoA11yViolations,
  expectPath,
  expectVisible,
  newPage,
  open,
  screenshot,
  signUpAndLogIn,
  signUpViaApi,
  uniqueUser,
  useBrowser,
} from '../lib/browser';
import { ageSessionAuthentication } from '../lib/database';
import { confirmationLink } from '../lib/mailbox';

useBrowser();

// Single sign-on with OpenID Connect (docs/decisions/0029): /login offers "Sign in with Acme ID";
// the person signs in at the provider (a real oidc-provider on loopback that e2e/run.mjs started,
// e2e/lib/oidc-provider.mjs) and lands on the dashboard, their account linked by its verified email
// — at once when the account's email is proven, else after that account's password (decision 0030).

const issuer = (): string => {
  const value = process.env.E2E_OIDC_ISSUER;
  if (!value) throw new Error('E2E_OIDC_ISSUER is not set: run the journeys through e2e/run.mjs');
  return value;
};

/** At the provider's development pages: sign in as `login`, then allow Kinchart. */
async function signInAtProvider(page: Page, login: string) {
  await page.waitForURL((url) => url.origin === issuer(), { waitUntil: 'domcontentloaded' });
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  const consent = page.getByRole('button', { name: 'Continue' });
  // The consent page comes the first time this browser signs in there.
  await page.waitForURL((url) => url.origin !== issuer() || url.pathname.startsWith('/interaction/'), { waitUntil: 'domcontentloaded' });
  if (new URL(page.url()).origin === issuer()) await consent.click();
}

/** Confirms `email` with the link its sign-up emailed (docs/decisions/0030), as its owner would. */
async function confirmEmail(page: Page, email: string) {
  await page.goto(await confirmationLink(email), { waitUntil: 'networkidle' });
  await page.getByRole('button', { name: 'Confirm my email' }).click();
  await expectVisible(page.getByText('Thank you! Your email address is confirmed.'));
}

/** A page whose requests to the provider page's web fonts (another site) go nowhere. */
async function pageWithoutWebFonts(viewport: typeof DESKTOP | typeof PHONE): Promise<Page> {
  const page = await newPage(viewport);
  await page.route('https://fonts.googleapis.com/**', (route) => route.abort());
  return page;
}

describe('single sign-on', () => {
  for (const [device, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`a person with an account signs in with the organisation's provider and lands on the dashboard (${device})`, async () => {
      const page = await pageWithoutWebFonts(viewport);
      // The account exists (made with a password, its email confirmed by its link); this browser is not signed in.
      const setUp = await newPage(viewport);
      const user = await signUpViaApi(setUp, uniqueUser('sso'));
      await confirmEmail(setUp, user.email);

      await open(page, '/login');
      const button = page.getByRole('button', { name: 'Sign in with Acme ID' });
      await expectVisible(button);
      await expectNoA11yViolations(page, `/login with single sign-on (${device})`);
      await screenshot(page, `sso-login-${device}`);

      await button.click();
      await signInAtProvider(page, user.email);
      await expectPath(page, '/dashboard', 20_000);
      await expectVisible(page.getByRole('heading', { name: 'Dashboard' }));
      await screenshot(page, `sso-dashboard-${device}`);

      // A real session: the API knows who this is.
      const me = await page.request.get('/api/auth/check-auth');
      expect(me.status()).toBe(200);
      expect(((await me.json()) as { user: { email: string } }).user.email).toBe(user.email);
    });

    test(`an account whose email was never confirmed asks for its password once before the provider is linked (${device})`, async () => {
      const page = await pageWithoutWebFonts(viewport);
      const setUp = await newPage(viewport);
      const user = await signUpViaApi(setUp, uniqueUser('ssolink'));

      await open(page, '/login');
      await page.getByRole('button', { name: 'Sign in with Acme ID' }).click();
      await signInAtProvider(page, user.email);
      await expectPath(page, '/link-account', 20_000);
      await expectVisible(page.getByRole('heading', { level: 1, name: 'Link your account' }));
      await expectVisible(page.getByText(user.email));
      // Not signed in yet: the provider's word alone does not open an account someone else may have made.
      expect((await page.request.get('/api/auth/check-auth')).status()).toBe(401);
      await expectNoA11yViolations(page, `/link-account (${device})`);
      await screenshot(page, `sso-link-account-${device}`);

      await page.getByLabel('Password', { exact: true }).fill('not the password at all');
      await page.getByRole('button', { name: 'Link and sign in' }).click();
      await expectVisible(page.getByRole('alert').getByText('Password is incorrect'));
      await screenshot(page, `sso-link-account-wrong-${device}`);

      await page.getByLabel('Password', { exact: true }).fill(user.password);
      await page.getByRole('button', { name: 'Link and sign in' }).click();
      await expectPath(page, '/dashboard', 20_000);
      await expectVisible(page.getByRole('heading', { name: 'Dashboard' }));

      // Linked: the next sign-in with the provider goes straight in.
      await page.context().clearCookies();
      await open(page, '/login');
      await page.getByRole('button', { name: 'Sign in with Acme ID' }).click();
      await signInAtProvider(page, user.email);
      await expectPath(page, '/dashboard', 20_000);
    });

    test(`an email the provider did not verify is refused with a clear message (${device})`, async () => {
      const page = await pageWithoutWebFonts(viewport);
      const user = uniqueUser('unverified');
      await open(page, '/login');
      await page.getByRole('button', { name: 'Sign in with Acme ID' }).click();
      await signInAtProvider(page, `unverified:${user.email}`);
      await expectPath(page, '/login', 20_000);
      const alert = page.getByRole('alert');
      await expectVisible(alert);
      expect(await alert.innerText()).toBe('Your identity provider did not confirm your email address, so it cannot sign you in here.');
      expect(new URL(page.url()).searchParams.get('sso_error')).toBe('unverified');
      await expectNoA11yViolations(page, `/login after a refused single sign-on (${device})`);
      await screenshot(page, `sso-error-${device}`);
      // Still signed out.
      expect((await page.request.get('/api/auth/check-auth')).status()).toBe(401);
    });
  }
  test('the password prompt before an export offers the provider; back on the page, the export goes through', async () => {
    const page = await pageWithoutWebFonts(DESKTOP);
    const user = await signUpAndLogIn(page, uniqueUser('ssoreauth'));
    await ageSessionAuthentication(page, 11);

    const exportButton = page.getByRole('banner').getByRole('button', { name: 'Export', exact: true });
    await exportButton.click();
    const dialog = page.getByRole('dialog', { name: 'Confirm your password' });
    const viaProvider = dialog.getByRole('button', { name: 'Confirm with Acme ID' });
    await expectVisible(viaProvider);
    await expectNoA11yViolations(page, 'Confirm your password, with single sign-on');
    await screenshot(page, 'sso-reauth-dialog-desktop');

    await viaProvider.click();
    // prompt=login: the provider asks again even though this browser has never been there.
    await signInAtProvider(page, user.email);
    // Back on the page it left (the toast lasts 3 s, SPEC §9), the mark taken out of the address.
    await expectVisible(page.getByText('Confirmed. Please try that again: you will not be asked for 10 minutes.'), 20_000);
    await expectPath(page, '/dashboard');
    expect(new URL(page.url()).search).toBe('');

    const [download] = await Promise.all([page.waitForEvent('download'), exportButton.click()]);
    expect(download.suggestedFilename()).toMatch(/^kinchart-export-\d{4}-\d{2}-\d{2}\.zip$/);
    await expectHidden(dialog);
  });
});
