import { describe, expect, test } from 'vitest';
import {
  DESKTOP,
  PHONE,
  apiCall,
  expectHidden,
  expectNoA11yViolations,
  expectVisible,
  newPage,
  open,
  screenshot,
  signUpAndLogIn,
  useBrowser,
} from '../lib/browser';
import { tinyPdf } from '../lib/files';

useBrowser();

// SPEC §2 Notifications (one list grouped by date, newest first; 'No notifications to display'),
// §3 Local notification (a finished upload on this device).

for (const [device, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  describe(`notifications on a ${device} (${viewport.width}x${viewport.height})`, () => {
    test('a user sees this device’s upload notice and the account’s notifications in one dated list, and the empty message only when both are empty', async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      await open(page, '/notifications');
      await expectVisible(page.getByText('No notifications to display'));

      // A finished upload leaves a notice in this browser.
      await open(page, '/update-records');
      await page
        .getByLabel('File', { exact: true })
        .setInputFiles({ name: 'lab.pdf', mimeType: 'application/pdf', buffer: tinyPdf('Lab') });
      await page.getByRole('button', { name: 'Upload File' }).click();
      await expectVisible(page.getByText('Uploaded “lab” successfully.'));
      // Setting up the QR code gives the account a notification on the server.
      await apiCall(page, 'POST', '/api/user/wearable-qr', { pin: '4826' });

      await open(page, '/notifications');
      const upload = page.getByRole('article', { name: /^File "lab" uploaded on / });
      const setup = page.getByRole('article', { name: 'Emergency QR code set up' });
      await expectVisible(upload);
      await expectVisible(setup);
      await expectVisible(upload.getByText('This device', { exact: true }));
      expect(await setup.getByText('This device', { exact: true }).count()).toBe(0);
      await expectHidden(page.getByText('No notifications to display'));
      // One list: both sit under the same day heading.
      const today = page.getByRole('region', { name: 'Today' });
      expect(await today.getByRole('article').count()).toBe(2);
      await expectNoA11yViolations(page, `/notifications with both kinds (${device})`);
      await screenshot(page, `notifications-one-list-${device}`);

      await upload.getByRole('button', { name: 'Hide' }).click();
      await expectHidden(upload);
      await expectHidden(page.getByText('No notifications to display'));
      await setup.getByRole('button', { name: 'Hide' }).click();
      await expectHidden(setup);
      await expectVisible(page.getByText('No notifications to display'));
    });
  });
}
