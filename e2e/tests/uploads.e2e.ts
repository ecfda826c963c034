import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
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

useBrowser();

// SPEC §2 Upload, §8 'Error uploading file: '; DESIGN §6 (an upload over MAX_UPLOAD_MB, 50 MB in
// this suite's server, is refused with 413 naming the limit). Files over Playwright's 50 MB
// buffer limit are written to a temporary folder.

let dir = '';
/** A PDF of `mb` megabytes (its first bytes say PDF, the rest is padding). */
function bigPdf(name: string, mb: number): string {
  const file = path.join(dir, name);
  const bytes = Buffer.alloc(mb * 1024 * 1024, 0x20);
  bytes.write('%PDF-1.4\n');
  writeFileSync(file, bytes);
  return file;
}

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'kinchart-e2e-uploads-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Counts the record uploads the page sends. */
function countUploads(page: Page): () => number {
  let sent = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/user/files') sent += 1;
  });
  return () => sent;
}

function collectAlerts(page: Page): string[] {
  const alerts: string[] = [];
  page.on('dialog', (dialog) => {
    alerts.push(dialog.message());
    void dialog.accept();
  });
  return alerts;
}

const row = (page: Page, name: string) => page.getByRole('list', { name: 'Chosen files' }).getByRole('listitem', { name });

for (const [device, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  describe(`uploads on a ${device} (${viewport.width}x${viewport.height})`, () => {
    test('the upload page and the modal state the limit, and a file over it is refused in the browser without being sent', async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      const uploads = countUploads(page);
      await open(page, '/update-records');
      await expectVisible(page.getByText('Up to 50 MB per file. You can choose several files at once.'));
      const referral = path.join(dir, 'referral.pdf');
      writeFileSync(referral, tinyPdf('Referral'));
      // Paths, not buffers: Playwright cannot mix them, and takes no buffer over 50 MB.
      await page.getByLabel('File', { exact: true }).setInputFiles([bigPdf('scan-too-big.pdf', 51), referral]);
      await expectVisible(row(page, 'scan-too-big.pdf').getByText('File is larger than 50 MB'));
      await expectVisible(row(page, 'referral.pdf').getByText('Ready'));
      await expectNoA11yViolations(page, `/update-records with a file over the limit (${device})`);
      await screenshot(page, `upload-over-limit-${device}`);
      await page.getByRole('button', { name: 'Upload File' }).click();
      await expectVisible(row(page, 'referral.pdf').getByText('Uploaded'));
      expect(uploads()).toBe(1);
      await expectVisible(row(page, 'scan-too-big.pdf').getByText('File is larger than 50 MB'));

      await open(page, '/view-records');
      await page.getByRole('main').getByRole('button', { name: 'Upload', exact: true }).click();
      const modal = page.getByRole('dialog', { name: 'Upload Medical Record' });
      await expectVisible(modal.getByText('Up to 50 MB per file. You can choose several files at once.'));
      await expectNoA11yViolations(page, `Upload Medical Record modal (${device})`);
      await screenshot(page, `upload-modal-limit-${device}`);
    });

    test('a user picks several files at once; each gets its own row and result, and the modal closes when all are in', async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      await open(page, '/view-records');
      await page.getByRole('main').getByRole('button', { name: 'Upload', exact: true }).click();
      const modal = page.getByRole('dialog', { name: 'Upload Medical Record' });
      await modal.getByLabel('File', { exact: true }).setInputFiles([
        { name: 'lab.pdf', mimeType: 'application/pdf', buffer: tinyPdf('Lab') },
        { name: 'letter.pdf', mimeType: 'application/pdf', buffer: tinyPdf('Letter') },
      ]);
      await expectVisible(modal.getByText('Each file is saved as its own record, named after the file.'));
      await modal.getByLabel('Healthcare Provider').fill('Dr. Chen');
      await screenshot(page, `upload-several-${device}`);
      await modal.getByRole('button', { name: 'Upload File' }).click();
      await expectHidden(modal);
      await expectVisible(page.getByRole('article', { name: 'lab', exact: true }).getByText('Dr. Chen'));
      await expectVisible(page.getByRole('article', { name: 'letter', exact: true }).getByText('Dr. Chen'));
    });

    test('Cancel stops an upload under way and the form leaves "Uploading..."', async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      const alerts = collectAlerts(page);
      // Hold the upload on its way, as a slow connection would.
      await page.route('**/api/user/files', (route) => (route.request().method() === 'POST' ? undefined : route.fallback()));
      await open(page, '/update-records');
      await page
        .getByLabel('File', { exact: true })
        .setInputFiles({ name: 'scan.pdf', mimeType: 'application/pdf', buffer: tinyPdf('Scan') });
      await page.getByRole('button', { name: 'Upload File' }).click();
      await expectVisible(page.getByRole('button', { name: 'Uploading...' }));
      await expectNoA11yViolations(page, `/update-records while uploading (${device})`);
      await screenshot(page, `upload-in-progress-${device}`);
      await page.getByRole('button', { name: 'Cancel upload' }).click();
      await expectVisible(row(page, 'scan.pdf').getByText('Cancelled'));
      await expectVisible(page.getByRole('button', { name: 'Upload File' }));
      await expectHidden(page.getByRole('button', { name: 'Uploading...' }));
      expect(await page.getByLabel('Record Name').inputValue()).toBe('scan');
      expect(alerts).toEqual([]);
    });
  });
}

describe('an upload the server refuses', () => {
  test('a file over the server’s limit shows its 413 message and the form leaves "Uploading..." (browser check bypassed)', async () => {
    const page = await newPage(DESKTOP);
    await signUpAndLogIn(page);
    const alerts = collectAlerts(page);
    // Tell the page a larger limit than the server's, so the 60 MB file is really sent.
    await page.route('**/api/config', (route) => route.fulfill({ json: { max_upload_bytes: 500 * 1024 * 1024, signup_mode: 'open' } }));
    await open(page, '/update-records');
    await page.getByLabel('File', { exact: true }).setInputFiles(bigPdf('scan-60mb.pdf', 60));
    await page.getByRole('button', { name: 'Upload File' }).click();
    // Said once, beside the file, as an alert (issue 30: a browser alert box only repeated it).
    await expectVisible(row(page, 'scan-60mb.pdf').getByRole('alert').getByText('Error uploading file: File is larger than 50 MB'), 30_000);
    expect(alerts).toEqual([]);
    await expectVisible(page.getByRole('button', { name: 'Upload File' }));
    await expectHidden(page.getByRole('button', { name: 'Uploading...' }));
    await screenshot(page, 'upload-refused-by-server-desktop');
  });
});
