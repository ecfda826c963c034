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
import { seedRecord, tinyPdf } from '../lib/files';

useBrowser();

// What a person is told, and where the keyboard lands: SPEC §2 View Records and Sign Up,
// §4 Deletion dialogs; DESIGN §5 password rules; WAI-ARIA APG "Dialog (Modal)".

for (const [device, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  describe(`feedback on a ${device} (${viewport.width}x${viewport.height})`, () => {
    test('a new user reads the password rules under the password field before signing up', async () => {
      const page = await newPage(viewport);
      await open(page, '/signup');
      const password = page.getByLabel('Password', { exact: true });
      const describedBy = (await password.getAttribute('aria-describedby')) ?? '';
      expect(describedBy).not.toBe('');
      const rules = await page.evaluate(
        (ids) => ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' '),
        describedBy.split(' '),
      );
      expect(rules).toContain('8–256 characters, and not a common password.');
      await expectVisible(page.getByText('8–256 characters, and not a common password.'));
      await expectNoA11yViolations(page, `/signup (${device})`);
      await screenshot(page, `signup-password-rules-${device}`);
    });

    test('a user who deletes a record is told "Record deleted."', async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      await seedRecord(page, { fileName: 'lab.pdf', mimeType: 'application/pdf', buffer: tinyPdf('Lab'), customName: 'Lab report' });
      await seedRecord(page, { fileName: 'scan.pdf', mimeType: 'application/pdf', buffer: tinyPdf('Scan'), customName: 'Knee scan' });
      await open(page, '/view-records');
      await page.getByRole('button', { name: 'Delete Lab report' }).click();
      await page.getByRole('alertdialog', { name: 'Confirm Delete' }).getByRole('button', { name: 'Delete' }).click();
      await expectVisible(page.getByRole('status').filter({ hasText: 'Record deleted.' }));
      await expectHidden(page.getByRole('article', { name: 'Lab report', exact: true }));
      await expectVisible(page.getByRole('article', { name: 'Knee scan', exact: true }));
      await expectNoA11yViolations(page, `/view-records after a delete (${device})`);
      await screenshot(page, `view-records-deleted-${device}`);
    });

    test('a dialog opens with the keyboard on its first field, and Escape still closes it', async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      await open(page, '/prescriptions');
      const opener = page.getByRole('main').getByRole('button', { name: 'Add Medication' });
      await opener.click();
      const dialog = page.getByRole('dialog', { name: 'Add Medication' });
      await expectVisible(dialog);
      await expect.poll(() => page.evaluate(() => document.activeElement?.id ?? '')).not.toBe('');
      const focusedId = await page.evaluate(() => document.activeElement?.id ?? '');
      expect(await dialog.getByLabel('Medication Name').getAttribute('id')).toBe(focusedId);
      // Typing goes straight into the field.
      await page.keyboard.type('Metformin');
      expect(await dialog.getByLabel('Medication Name').inputValue()).toBe('Metformin');
      await expectNoA11yViolations(page, `Add Medication dialog (${device})`);
      await screenshot(page, `dialog-first-field-${device}`);
      await page.keyboard.press('Escape');
      await expectHidden(dialog);
    });
  });
}
