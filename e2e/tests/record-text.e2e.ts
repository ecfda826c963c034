import type { Page } from 'playwright-core';
import { describe, test } from 'vitest';
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
import { tinyPdf } from '../lib/files';
import { scannedPdf } from '../lib/scans';

useBrowser();

// Issue 33 (DESIGN §14, decisions 0047 and 0049): a scanned letter is uploaded; its card says
// "Reading text…" while the server reads it, then offers what the text suggests; Apply writes it
// into the record; View Records' 'Search files...' finds the scan by a word inside it and shows the
// line that matched.

const LETTER = [
  'City Clinic - Outpatient letter',
  'Date of service: 12 March 2026',
  'Physician: Dr. Ana Ruiz',
  'Reason for visit: Persistent cough',
  'Ferritin 12 ng/mL (low)',
];

async function uploadFromViewRecords(page: Page, files: { name: string; buffer: Buffer }[]): Promise<void> {
  await page.getByRole('main').getByRole('button', { name: 'Upload', exact: true }).click();
  const modal = page.getByRole('dialog', { name: 'Upload Medical Record' });
  await modal
    .getByLabel('File', { exact: true })
    .setInputFiles(files.map(({ name, buffer }) => ({ name, mimeType: 'application/pdf', buffer })));
  await modal.getByRole('button', { name: 'Upload File' }).click();
  await expectHidden(modal, 30_000);
}

for (const [device, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  describe(`a scanned letter's text on a ${device} (${viewport.width}x${viewport.height})`, () => {
    test('the card reads the scan, offers its date, provider and reason, applies them on a click, and the search finds a word inside it', async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      await open(page, '/view-records');
      await uploadFromViewRecords(page, [
        { name: 'clinic-letter.pdf', buffer: await scannedPdf([LETTER.join('\n')]) },
        { name: 'referral.pdf', buffer: tinyPdf('Referral') },
      ]);

      const card = page.getByRole('article', { name: 'clinic-letter', exact: true });
      await expectVisible(card);
      // Until it is read, the card says so (the list asks again every few seconds).
      await expectVisible(card.getByRole('status').getByText('Reading text…'));
      await screenshot(page, `record-text-reading-${device}`);

      // OCR of one page takes seconds: then the suggestion, nothing applied by itself.
      const suggestion = card.getByText(/^Suggested:/);
      await expectVisible(suggestion, 60_000);
      await screenshot(page, `record-text-suggestion-${device}`);
      await expectVisible(card.getByText(/^Suggested: .+ · Dr\. Ana Ruiz · Persistent cough$/));
      await expectHidden(card.getByText('Reading text…'));
      await expectVisible(card.getByText('Not provided').first());
      await card.scrollIntoViewIfNeeded();
      await expectNoA11yViolations(page, `View Records with a suggestion (${device})`);

      await card.getByRole('button', { name: 'Apply suggestion to clinic-letter' }).click();
      await expectHidden(suggestion);
      await expectVisible(card.getByRole('definition').getByText('Dr. Ana Ruiz', { exact: true }));
      await expectVisible(card.getByRole('definition').getByText('Persistent cough', { exact: true }));
      await expectVisible(card.getByRole('definition').getByText(/Mar(ch)? 12, 2026|12 Mar(ch)? 2026/));

      // 'Search files...' finds the scan by a word only its text holds, with the matching line.
      await page.getByPlaceholder('Search files...').fill('ferritin');
      await expectVisible(page.getByText('Showing 1 of 2 records'));
      await expectHidden(page.getByRole('article', { name: 'referral', exact: true }));
      await expectVisible(card.getByText('Page 1', { exact: true }));
      await expectVisible(card.locator('mark').getByText(/ferritin/i));
      await card.scrollIntoViewIfNeeded();
      await expectNoA11yViolations(page, `View Records searching inside files (${device})`);
      await screenshot(page, `record-text-search-${device}`);
    });
  });
}
