import { describe, expect, test } from 'vitest';
import {
  DESKTOP,
  PHONE,
  expectHidden,
  expectNoA11yViolations,
  expectVisible,
  newPage,
  open,
  screenshot,
  signUpAndLogIn,
  useBrowser,
} from '../lib/browser';

useBrowser();

// A failure stays inside the page it belongs to (SPEC §2 Layout: the header and navigation are
// on every signed-in page), says what failed and offers Try again; empty states ('No records
// yet', SPEC §2 Dashboard) only for lists that really are empty.

for (const [device, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  describe(`failures on a ${device} (${viewport.width}x${viewport.height})`, () => {
    test('a page whose code cannot be downloaded says so under the header, and Try again loads it', async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      // The prescriptions page's chunk does not arrive (a bad connection, or a deploy in between).
      const chunk = /\/assets\/prescriptions-page-[\w-]+\.js$/;
      await page.route(chunk, (route) => route.abort('connectionfailed'));
      await page.goto('/prescriptions');
      const main = page.getByRole('main');
      await expectVisible(main.getByRole('heading', { level: 1, name: 'This page could not be loaded.' }));
      await expectVisible(page.getByRole('banner'));
      await expectHidden(page.getByText('Something went wrong'));
      await expectNoA11yViolations(page, `/prescriptions whose code failed (${device})`);
      await screenshot(page, `page-not-loaded-${device}`);

      await page.unroute(chunk);
      await main.getByRole('button', { name: 'Try again' }).click();
      await expectVisible(page.getByRole('heading', { level: 1, name: 'Prescriptions' }));
      await expectHidden(page.getByText('This page could not be loaded.'));
    });

    test('the dashboard says the records could not be loaded, not "No records yet", and Try again fetches them', async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      // The dashboard asks for the selected person's records (?person=…): every files list fails.
      const filesList = (url: URL) => url.pathname === '/api/user/files';
      await page.route(filesList, (route) => route.fulfill({ status: 500, json: { message: 'Internal Server Error' } }));
      await open(page, '/dashboard');
      const recent = page.getByRole('region', { name: 'Recent Uploads' });
      await expectVisible(recent.getByText('Your records could not be loaded.'));
      expect(await recent.getByText('No records yet').count()).toBe(0);
      await expectNoA11yViolations(page, `/dashboard whose records failed (${device})`);
      await screenshot(page, `dashboard-records-failed-${device}`);

      await page.unroute(filesList);
      await recent.getByRole('button', { name: 'Try again' }).click();
      await expectVisible(recent.getByText('No records yet'));
      await expectHidden(recent.getByText('Your records could not be loaded.'));
    });
  });
}
