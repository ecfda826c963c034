import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Download, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  DESKTOP,
  PHONE,
  apiCall,
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

// Decision 0004: the top bar's Export downloads the whole account as a zip; Settings' Import (and the
// phone menu's) brings it into another account; the emergency page offers the FHIR summary.

async function downloaded(download: Download): Promise<Buffer> {
  const path = await download.path();
  if (!path) throw new Error('The download has no file');
  return readFile(path);
}

/** An account with a profile, a member, a medication, an appointment and a record file. */
async function fillAccount(page: Page): Promise<void> {
  await apiCall(page, 'PUT', '/api/user/updateProfile', {
    name: 'Morgan Export',
    date_of_birth: '1985-06-07',
    blood_type: 'B+',
    has_allergies: true,
    allergy_details: 'Shellfish',
    medications: [{ medication_name: 'Levothyroxine', dosage: '50 mcg', frequency: 'Daily', is_current: true }],
  });
  await apiCall(page, 'POST', '/api/user/family/add', { name: 'Robin Export', date_of_birth: '2016-02-03', relationship: 'child' });
  await apiCall(page, 'POST', '/api/user/appointments', {
    appointment_date: '2030-05-06',
    start_time: '2030-05-06T09:00',
    end_time: '2030-05-06T09:30',
    provider_name: 'Dr. Portable',
    reason_for_visit: 'Thyroid check',
  });
  await seedRecord(page, {
    fileName: 'thyroid.pdf',
    mimeType: 'application/pdf',
    buffer: tinyPdf('TSH'),
    customName: 'Thyroid panel',
    providerName: 'Lab',
  });
}

describe('export and import', () => {
  test('Export gives a zip of the account; importing it into a second account through Settings shows the same records', async () => {
    const page = await newPage();
    await signUpAndLogIn(page);
    await fillAccount(page);
    await open(page, '/dashboard');

    const exportButton = page.getByRole('banner').getByRole('button', { name: 'Export', exact: true });
    const [download] = await Promise.all([page.waitForEvent('download'), exportButton.click()]);
    expect(download.suggestedFilename()).toMatch(/^kinchart-export-\d{4}-\d{2}-\d{2}\.zip$/);
    const zip = await downloaded(download);
    expect(zip.subarray(0, 2).toString('latin1')).toBe('PK');
    // Entries are stored, so their names and the JSON are readable in the bytes.
    for (const name of ['README.txt', 'kinchart.json', 'fhir/Morgan Export.json', 'fhir/Robin Export.json', 'files/Thyroid panel.pdf']) {
      expect(zip.includes(Buffer.from(name)), name).toBe(true);
    }
    await expectVisible(page.getByText(/^Export complete: kinchart-export-/));

    // A second account, in its own browser context.
    const second = await newPage();
    await signUpAndLogIn(second);
    await open(second, '/settings?tab=account');
    const section = second.getByRole('region', { name: 'Import and Export' });
    await expectVisible(section);
    await section
      .getByLabel('File to import')
      .setInputFiles({ name: download.suggestedFilename(), mimeType: 'application/zip', buffer: zip });
    await expectVisible(section.getByText(/replaces your own profile with the one in the export/));
    await expectNoA11yViolations(second, 'Settings → Import and Export (zip chosen)');
    await section.getByRole('button', { name: 'Import', exact: true }).click();
    await expectVisible(section.getByText('Import complete.'));
    await expectVisible(section.getByText('1 family member'));
    await expectVisible(section.getByText('1 file'));

    // The records are there, in the screens a person uses.
    await open(second, '/dashboard');
    await expectVisible(second.getByRole('button', { name: /Robin Export/ }));
    await expectVisible(second.getByText('Morgan Export'));
    await open(second, '/prescriptions');
    await expectVisible(second.getByText('Levothyroxine'));
    await open(second, '/view-records');
    await expectVisible(second.getByRole('article', { name: 'Thyroid panel', exact: true }));
  });

  for (const [device, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`a user who imports the same export again gets nothing added and is told what was already there (${device})`, async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      await fillAccount(page);
      const exported = await page.request.get('/api/user/export');
      expect(exported.status()).toBe(200);
      const zip = await exported.body();

      await open(page, '/settings?tab=account');
      const section = page.getByRole('region', { name: 'Import and Export' });
      await section.getByLabel('File to import').setInputFiles({ name: 'kinchart-export.zip', mimeType: 'application/zip', buffer: zip });
      await section.getByRole('button', { name: 'Import', exact: true }).click();
      await expectVisible(section.getByText('Import complete.'));
      await expectVisible(section.getByText('Nothing new: everything in the file was already here.'));
      const present = section.getByRole('list', { name: 'Already here, not added again' });
      expect(await present.getByRole('listitem').allTextContents()).toEqual(['1 family member', '1 medication', '1 appointment', '1 file']);
      await expectNoA11yViolations(page, `Settings → Import result, re-import (${device})`);
      await section.scrollIntoViewIfNeeded();
      await screenshot(page, `reimport-result-${device}`);

      // Still one of each, in the screens a person uses.
      await open(page, '/view-records');
      await expect(page.getByRole('article', { name: 'Thyroid panel', exact: true }).count()).resolves.toBe(1);
      await open(page, '/prescriptions');
      await expect(page.getByRole('heading', { name: 'Levothyroxine', exact: true }).count()).resolves.toBe(1);
    });
  }

  // DESIGN §12, decision 0022: a real Synthea patient (apps/server/test/fixtures/fhir/README.md) is
  // read resource by resource, and the result says per resource type what became of it.
  for (const [device, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`a user who imports a real FHIR summary sees, per resource type, what was imported, merged, already here and left out (${device})`, async () => {
      const synthea = await readFile(
        fileURLToPath(new URL('../../apps/server/test/fixtures/fhir/synthea-kermit-trantow.json', import.meta.url)),
      );
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      await open(page, '/settings?tab=account');
      const section = page.getByRole('region', { name: 'Import and Export' });
      await section
        .getByLabel('File to import')
        .setInputFiles({ name: 'kermit-trantow.json', mimeType: 'application/json', buffer: synthea });
      await expectVisible(section.getByLabel('Import into'));
      await section.getByRole('button', { name: 'Import', exact: true }).click();
      await expectVisible(section.getByText('Import complete.'));
      await expectVisible(section.getByText('8 immunizations'));
      // Each kind once, as the rows it became (44 results from 39 observations: blood pressures give two).
      const summary = section.getByText('Import complete.').locator('..').getByRole('listitem');
      const lines = await summary.allTextContents();
      expect(lines).toContain('44 lab results and vital signs');
      expect(new Set(lines).size).toBe(lines.length);
      expect(lines.filter((line) => line.endsWith('immunizations'))).toEqual(['8 immunizations']);

      const table = section.getByRole('table', { name: 'What the file held, by resource type' });
      await expectVisible(table);
      const cells = async (type: string) =>
        table
          .getByRole('row', { name: new RegExp(`^${type} `) })
          .getByRole('cell')
          .allTextContents();
      expect(await cells('MedicationRequest')).toEqual(['6', '0', '0', '0']);
      expect(await cells('Immunization')).toEqual(['8', '0', '0', '0']);
      expect(await cells('Observation')).toEqual(['39', '0', '0', '5']);
      expect(await cells('Claim')).toEqual(['0', '0', '0', '18']);
      const why = section.getByRole('list', { name: 'Left out, and why' });
      await expectVisible(why.getByText('5 left out: in category survey (Kinchart keeps laboratory results and vital signs)'));
      await expectVisible(why.getByText('18 left out: not imported by Kinchart'));
      await expectNoA11yViolations(page, `Settings → FHIR import report (${device})`);
      await table.scrollIntoViewIfNeeded();
      await screenshot(page, `fhir-import-report-${device}`);

      // The records are where a person looks for them.
      await open(page, '/prescriptions');
      await expectVisible(page.getByText('Hydrochlorothiazide 25 MG'));
    });
  }

  test('the phone menu’s Import opens the import dialog for a FHIR Bundle and asks whose it is', async () => {
    const phone = await newPage(PHONE);
    await signUpAndLogIn(phone);
    const bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        {
          fullUrl: 'urn:uuid:1',
          resource: { resourceType: 'Patient', name: [{ given: ['Ngozi'], family: 'Okafor' }], birthDate: '1975-09-30' },
        },
        {
          fullUrl: 'urn:uuid:2',
          resource: {
            resourceType: 'MedicationStatement',
            status: 'active',
            medicationCodeableConcept: { text: 'Metformin 500 mg' },
            subject: { reference: 'urn:uuid:1' },
          },
        },
      ],
    };
    await phone.getByRole('button', { name: 'Menu' }).click();
    const [chooser] = await Promise.all([
      phone.waitForEvent('filechooser'),
      phone.getByRole('button', { name: 'Import', exact: true }).click(),
    ]);
    await chooser.setFiles({ name: 'summary.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(bundle)) });
    const dialog = phone.getByRole('dialog', { name: 'Import' });
    await expectVisible(dialog.getByLabel('Import into'));
    await expectNoA11yViolations(phone, 'Import dialog (FHIR Bundle, phone)');
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await expectVisible(dialog.getByText('Import complete.'));
    await expectVisible(dialog.getByText('1 medication'));
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await open(phone, '/prescriptions');
    await expectVisible(phone.getByText('Metformin 500 mg'));
  });

  test("after the PIN, the emergency page offers 'Download for clinicians (FHIR)'; Settings offers the SMART Health Link", async () => {
    const owner = await newPage();
    await signUpAndLogIn(owner);
    await fillAccount(owner);
    const qr = await apiCall(owner, 'POST', '/api/user/wearable-qr', { pin: '4826' });

    await open(owner, '/settings');
    await owner.getByRole('button', { name: 'Show SMART Health Link' }).click();
    await expectVisible(owner.getByRole('img', { name: /SMART Health Link QR code/ }));
    await expectVisible(owner.getByText(/^shlink:\//));

    const stranger = await newPage(PHONE);
    await open(stranger, new URL(String(qr.qr_data)).pathname);
    await stranger.getByLabel('PIN', { exact: true }).fill('4826');
    await stranger.getByRole('button', { name: 'View Medical Information' }).click();
    const button = stranger.getByRole('button', { name: 'Download for clinicians (FHIR)' });
    await expectVisible(button);
    const [download] = await Promise.all([stranger.waitForEvent('download'), button.click()]);
    expect(download.suggestedFilename()).toBe('emergency-summary.fhir.json');
    const bundle = JSON.parse((await downloaded(download)).toString('utf8')) as { resourceType: string; type: string };
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'document' });
    expect(JSON.stringify(bundle)).toContain('Shellfish');
  });
});
