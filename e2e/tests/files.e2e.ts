import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  DESKTOP,
  PHONE,
  baseUrl,
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
import { seedRecord, tinyPdf } from '../lib/files';

useBrowser();

// SPEC §2 Upload, View Records, View Files modal, Dashboard Recent Uploads; §4 Upload, Record
// rename, Deletion dialogs; §8 Files. Fixtures are tiny real files made from bytes here.

/** A 1×1 PNG. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const tinyPng = () => Buffer.from(PNG_BASE64, 'base64');

/** Drops a file on the drop zone the way a browser does: a DataTransfer made in the page. */
async function dropFile(page: Page, file: { name: string; type: string; base64: string }): Promise<void> {
  const dataTransfer = await page.evaluateHandle(({ name, type, base64 }) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const transfer = new DataTransfer();
    transfer.items.add(new File([bytes], name, { type }));
    return transfer;
  }, file);
  const zone = page.getByRole('button', { name: /Drag and drop a file here/ });
  await zone.dispatchEvent('dragenter', { dataTransfer });
  await zone.dispatchEvent('dragover', { dataTransfer });
  await zone.dispatchEvent('drop', { dataTransfer });
}

/** A picture of what is on screen (a whole-page capture would show a fixed dialog over the top only). */
async function screenshotViewport(page: Page, name: string): Promise<void> {
  const dir = fileURLToPath(new URL('../screenshots/', import.meta.url));
  await mkdir(dir, { recursive: true });
  await page.screenshot({ path: `${dir}${name}.png`, animations: 'disabled' });
}

const card = (page: Page, name: string) => page.getByRole('article', { name, exact: true });
const cardTitles = (page: Page) => page.getByRole('list', { name: 'Medical records' }).getByRole('heading').allTextContents();

function today(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

describe('medical record files', () => {
  test('a user uploads by picker and by drag and drop, then finds the records in View Records and on the dashboard', async () => {
    const page = await newPage();
    await signUpAndLogIn(page);

    await open(page, '/update-records');
    await expectVisible(page.getByRole('heading', { level: 1, name: 'Upload Medical Records' }));
    await expectVisible(page.getByText(/Supports PDF, JPG, PNG, DOCX and others\. Files are securely stored and encrypted\./));
    const uploadButton = page.getByRole('button', { name: 'Upload File' });
    expect(await uploadButton.isDisabled()).toBe(true);
    await expectNoA11yViolations(page, '/update-records (empty)');

    // By the picker: the name is pre-filled without its extension, the date with today.
    await page.getByLabel('File', { exact: true }).setInputFiles({
      name: 'blood-test.results.pdf',
      mimeType: 'application/pdf',
      buffer: tinyPdf('Blood test'),
    });
    expect(await page.getByLabel('Record Name').inputValue()).toBe('blood-test.results');
    expect(await page.getByLabel('Visit Date').inputValue()).toBe(today());
    await page.getByLabel('Record Name').fill('Blood test results');
    await page.getByLabel('Visit Date').fill('2024-03-05');
    await page.getByLabel('Healthcare Provider').fill('Dr. Adams');
    await page.getByLabel('Visit Location').fill('City Clinic');
    await page.getByLabel('Reason for Visit').fill('Annual check-up');
    await expectNoA11yViolations(page, '/update-records (file chosen)');
    await screenshot(page, 'update-records-filled-desktop');
    await uploadButton.click();

    await expectVisible(page.getByText('Uploaded “Blood test results” successfully.'));
    // SPEC §4: every field and the file input reset; the details fold away again.
    await expectHidden(page.getByLabel('Record Name'));
    expect(await page.getByLabel('File', { exact: true }).inputValue()).toBe('');
    expect(await uploadButton.isDisabled()).toBe(true);
    // SPEC §3: the local notification is stored under 'notifications'.
    const stored = await page.evaluate(() => localStorage.getItem('notifications'));
    expect(stored).toContain('File \\"Blood test results\\" uploaded on ');

    // By drag and drop.
    await dropFile(page, { name: 'chest-xray.png', type: 'image/png', base64: PNG_BASE64 });
    expect(await page.getByLabel('Record Name').inputValue()).toBe('chest-xray');
    expect(await page.getByLabel('Visit Date').inputValue()).toBe(today());
    await page.getByLabel('Healthcare Provider').fill('Dr. Baker');
    await page.getByRole('button', { name: 'Upload File' }).click();
    await expectVisible(page.getByText('Uploaded “chest-xray” successfully.'));

    await page.getByRole('link', { name: 'View Records' }).first().click();
    await expectPath(page, '/view-records');
    const blood = card(page, 'Blood test results');
    await expectVisible(blood);
    for (const text of ['Dr. Adams', 'City Clinic', 'Annual check-up']) await expectVisible(blood.getByText(text));
    await expectVisible(card(page, 'chest-xray').getByText('Dr. Baker'));

    await open(page, '/dashboard');
    const recent = page.getByRole('region', { name: 'Recent Uploads' });
    await expectVisible(recent.getByRole('article', { name: 'chest-xray' }));
    await expectVisible(recent.getByRole('article', { name: 'Blood test results' }).getByText('Dr. Adams'));
    await expectVisible(recent.getByRole('link', { name: 'View All Records' }));
  });

  test('a refused file shows "Error uploading file: " with the server’s reason beside it', async () => {
    const page = await newPage();
    await signUpAndLogIn(page);
    await open(page, '/update-records');
    const alerts: string[] = [];
    page.on('dialog', (dialog) => {
      alerts.push(dialog.message());
      void dialog.accept();
    });
    // HTML renamed .pdf: the server sniffs the bytes and answers 415.
    await page.getByLabel('File', { exact: true }).setInputFiles({
      name: 'not-really.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('<!doctype html><html><body>hello</body></html>'),
    });
    await page.getByRole('button', { name: 'Upload File' }).click();
    // Said once, beside the file, for screen readers too; no browser alert box repeating it (issue 30).
    await expectVisible(
      page
        .getByRole('listitem', { name: 'not-really.pdf' })
        .getByRole('alert')
        .getByText(/^Error uploading file: This file type is not supported\./),
    );
    expect(alerts).toEqual([]);
    // The form keeps what was typed so the user can choose another file.
    expect(await page.getByLabel('Record Name').inputValue()).toBe('not-really');
  });

  test('a user searches, filters, sorts, renames inline, opens a document and deletes after confirming', async () => {
    const page = await newPage();
    await signUpAndLogIn(page);
    await seedRecord(page, {
      fileName: 'lab.pdf',
      mimeType: 'application/pdf',
      buffer: tinyPdf('Lab'),
      customName: 'Lab report',
      customDate: '2024-02-01',
      providerName: 'Dr. Chen',
    });
    const xray = await seedRecord(page, {
      fileName: 'xray.png',
      mimeType: 'image/png',
      buffer: tinyPng(),
      customName: 'Knee X-ray',
      customDate: '2024-04-10',
      visitLocation: 'Ortho Center',
    });
    await seedRecord(page, {
      fileName: 'allergy.pdf',
      mimeType: 'application/pdf',
      buffer: tinyPdf('Allergy'),
      customName: 'Allergy letter',
      customDate: '2023-12-24',
      visitReason: 'Pollen',
    });

    await open(page, '/view-records');
    await expectVisible(card(page, 'Knee X-ray'));
    // Date Descending is the default.
    expect(await cardTitles(page)).toEqual(['Knee X-ray', 'Lab report', 'Allergy letter']);
    await expectNoA11yViolations(page, '/view-records');

    await page.getByLabel('Sort by').selectOption({ label: 'Date Ascending' });
    expect(await cardTitles(page)).toEqual(['Allergy letter', 'Lab report', 'Knee X-ray']);
    await page.getByLabel('Sort by').selectOption({ label: 'Name A-Z' });
    expect(await cardTitles(page)).toEqual(['Allergy letter', 'Knee X-ray', 'Lab report']);
    await page.getByLabel('Sort by').selectOption({ label: 'Name Z-A' });
    expect(await cardTitles(page)).toEqual(['Lab report', 'Knee X-ray', 'Allergy letter']);

    await page.getByLabel('Type').selectOption({ label: 'Images' });
    expect(await cardTitles(page)).toEqual(['Knee X-ray']);
    await page.getByLabel('Type').selectOption({ label: 'PDF' });
    expect(await cardTitles(page)).toEqual(['Lab report', 'Allergy letter']);
    await page.getByLabel('Type').selectOption({ label: 'Documents' });
    await expectVisible(page.getByText('No records match your search.'));
    await page.getByLabel('Type').selectOption({ label: 'All Types' });

    await page.getByPlaceholder('Search files...').fill('pollen');
    expect(await cardTitles(page)).toEqual(['Allergy letter']);
    await page.getByPlaceholder('Search files...').fill('');
    expect(await cardTitles(page)).toHaveLength(3);

    // Rename inline: blank is refused with an alert, then Save keeps the new name.
    const alerts: string[] = [];
    page.on('dialog', (dialog) => {
      alerts.push(dialog.message());
      void dialog.accept();
    });
    await page.getByRole('button', { name: 'Rename Lab report' }).click();
    const nameInput = page.getByLabel('New name for Lab report');
    await nameInput.fill('   ');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => alerts).toEqual(['File name cannot be empty']);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expectVisible(card(page, 'Lab report'));
    await page.getByRole('button', { name: 'Rename Lab report' }).click();
    await nameInput.fill('Cholesterol panel');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectVisible(card(page, 'Cholesterol panel'));
    await open(page, '/view-records');
    await expectVisible(card(page, 'Cholesterol panel'));
    await expectHidden(card(page, 'Lab report'));

    // View Document opens the file in a new tab, served with its real type.
    const responses: { url: string; type: string | undefined }[] = [];
    page.context().on('response', (res) => {
      if (res.url().includes('/content')) responses.push({ url: res.url(), type: res.headers()['content-type'] });
    });
    const [tab] = await Promise.all([
      page.context().waitForEvent('page'),
      card(page, 'Knee X-ray').getByRole('link', { name: 'View Document' }).click(),
    ]);
    await tab.waitForLoadState('load');
    expect(new URL(tab.url()).pathname).toBe(xray.url);
    await expect.poll(() => responses.find((r) => r.url.endsWith(xray.url))?.type).toBe('image/png');
    await tab.close();

    // The PDF answers as a PDF too (a headless browser may download rather than show it).
    const pdfHref = await card(page, 'Cholesterol panel').getByRole('link', { name: 'View Document' }).getAttribute('href');
    const pdf = await page.request.get(pdfHref!);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

    // Delete asks first; Cancel keeps the record, Delete removes it.
    await page.getByRole('button', { name: 'Delete Allergy letter' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Confirm Delete' });
    await expectVisible(dialog);
    await expectNoA11yViolations(page, 'Confirm Delete dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expectVisible(card(page, 'Allergy letter'));
    await page.getByRole('button', { name: 'Delete Allergy letter' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expectHidden(card(page, 'Allergy letter'));
    await open(page, '/view-records');
    expect(await cardTitles(page)).toEqual(['Knee X-ray', 'Cholesterol panel']);
  });

  test('the Upload Medical Record modal uploads from View Records', async () => {
    const page = await newPage();
    await signUpAndLogIn(page);
    await open(page, '/view-records');
    await expectVisible(page.getByText('No records yet'));
    await page.getByRole('main').getByRole('button', { name: 'Upload', exact: true }).click();
    const modal = page.getByRole('dialog', { name: 'Upload Medical Record' });
    await expectVisible(modal);
    await modal
      .getByLabel('File', { exact: true })
      .setInputFiles({ name: 'referral.pdf', mimeType: 'application/pdf', buffer: tinyPdf('Referral') });
    await expectNoA11yViolations(page, 'Upload Medical Record modal');
    await modal.getByRole('button', { name: 'Upload File' }).click();
    await expectHidden(modal);
    await expectVisible(card(page, 'referral'));
  });

  test('the top bar’s Upload and the phone menu’s Import upload the chosen file with a toast', async () => {
    const page = await newPage();
    await signUpAndLogIn(page);
    const recent = page.getByRole('region', { name: 'Recent Uploads' });
    await expectVisible(recent.getByText('No records yet'));

    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('banner').getByRole('button', { name: 'Upload', exact: true }).click(),
    ]);
    await chooser.setFiles({ name: 'discharge-note.pdf', mimeType: 'application/pdf', buffer: tinyPdf('Discharge') });
    // Whose record it is, in the toast; the record is named without the file's extension (issue 30).
    const toast = page.getByText('Successfully uploaded discharge-note.pdf for you');
    await expectVisible(toast);
    // SPEC §4 Refresh events: the dashboard refreshes without a reload.
    await expectVisible(recent.getByRole('article', { name: 'discharge-note' }));
    // The toast sits at the bottom, clear of the top bar's buttons (issue 30).
    const toastBox = await toast.boundingBox();
    const bannerBox = await page.getByRole('banner').boundingBox();
    expect(toastBox && bannerBox && toastBox.y > bannerBox.y + bannerBox.height).toBe(true);
    await expectHidden(toast);

    // A refused file: an error toast.
    const [refused] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('banner').getByRole('button', { name: 'Upload', exact: true }).click(),
    ]);
    await refused.setFiles({ name: 'page.pdf', mimeType: 'application/pdf', buffer: Buffer.from('<html></html>') });
    await expectVisible(page.getByText('Failed to upload file'));

    const phone = await newPage(PHONE);
    await signUpAndLogIn(phone);
    await phone.getByRole('button', { name: 'Menu' }).click();
    const [phoneChooser] = await Promise.all([phone.waitForEvent('filechooser'), phone.getByRole('button', { name: 'Import' }).click()]);
    await phoneChooser.setFiles({ name: 'vaccination.png', mimeType: 'image/png', buffer: tinyPng() });
    await expectVisible(phone.getByText('Successfully uploaded vaccination.png for you'));
    await open(phone, '/view-records');
    await expectVisible(card(phone, 'vaccination'));
  });

  test('View Files shares the selected files through a link and QR code that work signed out until revoked', async () => {
    const page = await newPage();
    await signUpAndLogIn(page);
    await seedRecord(page, { fileName: 'scan.png', mimeType: 'image/png', buffer: tinyPng(), customName: 'Wrist scan' });
    await seedRecord(page, { fileName: 'plan.pdf', mimeType: 'application/pdf', buffer: tinyPdf('Plan'), customName: 'Care plan' });

    await open(page, '/view-records');
    await page.getByRole('button', { name: 'View Files' }).click();
    const modal = page.getByRole('dialog', { name: 'View Files' });
    await expectVisible(modal.getByRole('checkbox', { name: 'Wrist scan' }));
    await expectVisible(modal.getByText(/^\d+(\.\d+)? (Bytes|KB) · Created /));
    await expectNoA11yViolations(page, 'View Files modal');

    // SPEC §2: the first selected file gets a QR code and a link, with nothing else to press.
    await modal.getByRole('checkbox', { name: 'Wrist scan' }).check();
    const qr = modal.getByRole('img', { name: 'QR code that opens the selected files' });
    await expectVisible(qr);
    expect(await qr.getAttribute('width')).toBe('200');
    const linkText = (await modal.getByRole('link', { name: /\/shared\// }).textContent()) ?? '';
    expect(linkText.startsWith(`${baseUrl()}/shared/`)).toBe(true);
    await expectNoA11yViolations(page, 'View Files modal with a link');
    await screenshotViewport(page, 'view-files-modal-desktop');

    // Someone without an account opens the link.
    const visitor = await newPage(PHONE);
    await open(visitor, new URL(linkText).pathname);
    await expectVisible(visitor.getByRole('heading', { name: 'Shared medical records' }));
    await expectVisible(visitor.getByText('Wrist scan'));
    await expectHidden(visitor.getByText('Care plan'));
    const href = await visitor.getByRole('link', { name: 'Open' }).getAttribute('href');
    const shared = await visitor.request.get(href!);
    expect(shared.status()).toBe(200);
    expect(shared.headers()['content-type']).toBe('image/png');
    await expectNoA11yViolations(visitor, '/shared/:token');
    await screenshot(visitor, 'shared-files-phone');

    await modal.getByRole('button', { name: 'Revoke' }).click();
    await expectHidden(qr);
    await expectVisible(modal.getByRole('button', { name: 'Create share link' }));
    await open(visitor, new URL(linkText).pathname);
    await expectVisible(visitor.getByRole('alert').getByText('This link has expired or is no longer available'));
  });
});

for (const [device, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  describe(`records screens on a ${device} (${viewport.width}x${viewport.height})`, () => {
    test('the upload page, View Records and the dashboard pass axe and can be captured', async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      for (let i = 1; i <= 9; i += 1) {
        await seedRecord(page, {
          fileName: `record-${i}.pdf`,
          mimeType: 'application/pdf',
          buffer: tinyPdf(`Record ${i}`),
          customName: i === 3 ? 'A record with a rather long name that has to wrap on small screens' : `Visit summary ${i}`,
          customDate: `2024-0${i}-1${i}`,
          providerName: `Dr. Provider ${i}`,
          visitLocation: 'Riverside Medical Center',
          visitReason: 'Follow-up on blood pressure and medication review',
        });
      }

      await open(page, '/update-records');
      await page
        .getByLabel('File', { exact: true })
        .setInputFiles({ name: 'echo.pdf', mimeType: 'application/pdf', buffer: tinyPdf('Echo') });
      await expectNoA11yViolations(page, `/update-records (${device})`);
      await screenshot(page, `update-records-${device}`);

      await open(page, '/view-records');
      await expectVisible(card(page, 'Visit summary 9'));
      await expectNoA11yViolations(page, `/view-records (${device})`);
      await screenshot(page, `view-records-${device}`);
      await screenshotViewport(page, `view-records-top-${device}`);
      await page.getByRole('button', { name: 'Rename Visit summary 9' }).click();
      await screenshot(page, `view-records-rename-${device}`);
      await page.getByRole('button', { name: 'Cancel' }).click();

      await page.getByRole('button', { name: 'View Files' }).click();
      await page.getByRole('dialog', { name: 'View Files' }).getByRole('checkbox').first().check();
      await expectVisible(page.getByRole('img', { name: 'QR code that opens the selected files' }));
      await expectNoA11yViolations(page, `View Files modal (${device})`);
      await screenshotViewport(page, `view-files-${device}`);
      await page.keyboard.press('Escape');

      await open(page, '/dashboard');
      const recent = page.getByRole('region', { name: 'Recent Uploads' });
      await expectVisible(recent.getByRole('article').first());
      // SPEC §9: at most 8 cards, 300 px wide.
      expect(await recent.getByRole('article').count()).toBe(8);
      expect((await recent.getByRole('article').first().boundingBox())?.width).toBe(300);
      const scroller = recent.getByRole('list');
      const before = await scroller.evaluate((el) => el.scrollLeft);
      await recent.getByRole('button', { name: 'Scroll recent uploads right' }).click();
      await expect.poll(() => scroller.evaluate((el) => el.scrollLeft)).toBe(before + 300);
      await recent.getByRole('button', { name: 'Scroll recent uploads left' }).click();
      await expect.poll(() => scroller.evaluate((el) => el.scrollLeft)).toBe(before);
      await expectNoA11yViolations(page, `/dashboard (${device})`);
      await screenshot(page, `dashboard-recent-uploads-${device}`);
    });
  });
}
