import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  DESKTOP,
  PHONE,
  apiCall,
  browserDay,
  expectHidden,
  expectNoA11yViolations,
  expectPath,
  expectVisible,
  logInViaApi,
  newPage,
  open,
  screenshot,
  signUpAndLogIn,
  signUpViaApi,
  uniqueUser,
  useBrowser,
  type Viewport,
} from '../lib/browser';
import { scannedPdf } from '../lib/scans';

useBrowser();

// Issue 33: one search over everything a reader may see — the bar's search box (`/` focuses it),
// the results grouped by person and kind with the matches marked, each opening its row; the
// languages documents are read in (Settings → Documents).

const devices: [string, Viewport][] = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
];

interface Chart {
  childId: string;
  medicationId: string;
  conditionId: string;
}

/** An account holder (Jordan) with an iron medication and a child (Mia) with a condition, both mentioning ferritin. */
async function seedChart(page: Page): Promise<Chart> {
  await apiCall(page, 'PUT', '/api/user/updateProfile', { name: 'Jordan Rivers' });
  const medication = await apiCall(page, 'POST', '/api/user/medications', {
    medication_name: 'Ferrous sulfate',
    dosage: '325 mg',
    purpose: 'Low ferritin after the March blood test',
  });
  const child = await apiCall(page, 'POST', '/api/user/family/add', {
    name: 'Mia Rivers',
    date_of_birth: '2016-04-02',
    relationship: 'child',
  });
  const childId = String(child.id);
  const condition = await apiCall(page, 'POST', `/api/user/people/${childId}/conditions`, {
    name: 'Iron deficiency anaemia',
    notes: 'Ferritin 9 ng/mL; recheck in three months',
  });
  return { childId, medicationId: String(medication.id), conditionId: String(condition.id) };
}

/** Types a query into the bar's search box the way the device does it, and submits it. */
async function searchFromBar(page: Page, query: string, device: string): Promise<void> {
  const field = page.getByRole('searchbox', { name: 'Search your records' });
  if (device === 'phone') {
    // On a phone the field waits behind the bar's Search button.
    await expectHidden(field);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
  } else {
    // `/` focuses it from anywhere but a text field.
    await page.locator('body').click({ position: { x: 5, y: 400 } });
    await page.keyboard.press('/');
  }
  await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Search your records');
  await page.keyboard.type(query);
  await page.keyboard.press('Enter');
  await expectPath(page, '/search');
}

/** The id of the focused element, once something with an id has focus. */
const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

describe('one search over everything', () => {
  for (const [device, viewport] of devices) {
    test(`on a ${device}, a parent searches from the bar, sees results by person and kind with the matches marked, and opens them`, async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      const chart = await seedChart(page);
      await open(page, '/dashboard');

      await searchFromBar(page, 'ferritin', device);
      expect(new URL(page.url()).searchParams.get('q')).toBe('ferritin');
      const mia = page.getByRole('region', { name: 'Mia Rivers', exact: true });
      const jordan = page.getByRole('region', { name: 'Jordan Rivers (you)', exact: true });
      await expectVisible(mia);
      await expectVisible(jordan);
      await expectVisible(mia.getByRole('heading', { level: 3, name: 'Conditions' }));
      await expectVisible(jordan.getByRole('heading', { level: 3, name: 'Medications' }));
      const marks = await page.locator('main mark').allTextContents();
      expect(marks.length).toBeGreaterThanOrEqual(2);
      for (const mark of marks) expect(mark.toLowerCase()).toContain('ferrit');
      expect(await page.title()).toBe('Search: ferritin · Kinchart');
      await screenshot(page, `search-results-${device}`);
      await expectNoA11yViolations(page, `/search (${device})`);

      // A medication opens Prescriptions at its row, for its person (the user's own).
      await jordan.getByRole('link', { name: 'Ferrous sulfate' }).click();
      await expectPath(page, '/prescriptions');
      expect(new URL(page.url()).hash).toBe(`#medication-${chart.medicationId}`);
      await expect.poll(() => focusedId(page)).toBe(`medication-${chart.medicationId}`);
      await expectVisible(page.locator(`#medication-${chart.medicationId}`).getByText('Ferrous sulfate'));
      await screenshot(page, `search-opened-medication-${device}`);

      // A child's condition opens their health records on the Conditions tab, at the row.
      await page.goBack();
      await expectPath(page, '/search');
      await mia.getByRole('link', { name: 'Iron deficiency anaemia' }).click();
      await expectPath(page, `/health-records/${chart.childId}`);
      await expect.poll(() => focusedId(page)).toBe(`condition-${chart.conditionId}`);
      await expectVisible(page.getByRole('tab', { name: 'Conditions', selected: true }));
      await expect.poll(() => page.getByRole('combobox', { name: 'Person' }).inputValue()).toBe(chart.childId);
    });
  }

  test('an allergy opens the profile editor at it, an appointment its details, a family member’s contact their editor at it', async () => {
    const page = await newPage(DESKTOP);
    await signUpAndLogIn(page);
    const chart = await seedChart(page);
    await apiCall(page, 'PUT', '/api/user/updateProfile', {
      name: 'Jordan Rivers',
      has_allergies: true,
      allergy_details: 'Penicillin: hives',
    });
    const day = await browserDay(page, 40);
    await apiCall(page, 'POST', '/api/user/appointments', {
      appointment_date: day,
      start_time: `${day}T09:00`,
      end_time: `${day}T09:30`,
      provider_name: 'Dr. Penelope Ferris',
      reason_for_visit: 'Penicillin allergy review',
    });
    await apiCall(page, 'POST', `/api/user/family/members/${chart.childId}/emergency-contacts`, {
      name: 'Grandma Rosalind',
      relationship: 'Grandmother',
      phone_number: '555-0100',
    });

    await open(page, '/search?q=penicillin');
    const jordan = page.getByRole('region', { name: 'Jordan Rivers (you)', exact: true });
    await expectVisible(jordan.getByRole('heading', { level: 3, name: 'Allergies' }));
    await expectVisible(jordan.getByRole('heading', { level: 3, name: 'Appointments' }));
    await jordan.getByRole('region', { name: 'Allergies' }).getByRole('link').first().click();
    // The account's own person is edited on /profile (/edit-profile is SPEC's Complete Profile form).
    await expectPath(page, '/profile');
    expect(new URL(page.url()).hash).toBe('#allergies');
    await expect.poll(() => focusedId(page)).toBe('allergies');
    await expectVisible(page.getByRole('tab', { name: 'Medical Conditions', selected: true }));

    await page.goBack();
    await expectPath(page, '/search');
    await jordan.getByRole('region', { name: 'Appointments' }).getByRole('link').first().click();
    await expectPath(page, '/appointments');
    const details = page.getByRole('dialog');
    await expectVisible(details);
    await expectVisible(details.getByText('Dr. Penelope Ferris'));

    await open(page, '/search?q=rosalind');
    const contact = page
      .getByRole('region', { name: 'Mia Rivers', exact: true })
      .getByRole('region', { name: 'Emergency contacts' })
      .getByRole('link');
    await expectVisible(contact);
    await contact.first().click();
    await expectPath(page, `/edit-family-member/${chart.childId}`);
    const hash = new URL(page.url()).hash;
    expect(hash).toMatch(/^#contact-/);
    await expect.poll(() => focusedId(page)).toBe(hash.slice(1));
    await expectVisible(page.getByRole('tab', { name: 'Emergency Contacts', selected: true }));
    await expectVisible(page.locator(hash).getByText('Grandma Rosalind'));
    await screenshot(page, 'search-opened-contact-desktop');
  });

  test('a search that finds nothing says so, and the person filter narrows to one person', async () => {
    const page = await newPage(DESKTOP);
    await signUpAndLogIn(page);
    const chart = await seedChart(page);
    await open(page, '/search?q=zzzzqx');
    await expectVisible(page.getByText('No results for “zzzzqx”.'));
    await expectNoA11yViolations(page, '/search with no results');

    await open(page, '/search?q=ferritin');
    await expectVisible(page.getByRole('region', { name: 'Jordan Rivers (you)', exact: true }));
    await page.getByRole('combobox', { name: 'Person' }).selectOption({ label: 'Mia Rivers' });
    await expect.poll(() => new URL(page.url()).searchParams.get('person')).toBe(chart.childId);
    await expectVisible(page.getByRole('region', { name: 'Mia Rivers', exact: true }));
    await expectHidden(page.getByRole('region', { name: 'Jordan Rivers (you)', exact: true }));
  });

  test('a carer shared only the child finds only the child’s records', async () => {
    const owner = await newPage(DESKTOP);
    const ownerUser = await signUpAndLogIn(owner);
    const chart = await seedChart(owner);
    const share = await apiCall(owner, 'POST', `/api/user/people/${chart.childId}/shares`, { role: 'viewer' });
    const token = new URL(String(share.invite_url)).pathname.split('/').pop() ?? '';

    const carer = await newPage(PHONE);
    const carerUser = await signUpViaApi(carer, uniqueUser('carer'));
    await logInViaApi(carer, carerUser);
    await apiCall(carer, 'POST', `/api/user/invitations/${token}/accept`, {});
    await open(carer, '/dashboard');

    await searchFromBar(carer, 'ferritin', 'phone');
    const mia = carer.getByRole('region', { name: `Mia Rivers (Shared by ${ownerUser.username})`, exact: true });
    await expectVisible(mia);
    await expectVisible(mia.getByRole('link', { name: 'Iron deficiency anaemia' }));
    // The owner's own medication is nowhere: not as a result, not as a group.
    await expectHidden(carer.getByText('Ferrous sulfate'));
    await expectHidden(carer.getByRole('region', { name: /Jordan/ }));
    await screenshot(carer, 'search-results-shared-viewer-phone');
    await expectNoA11yViolations(carer, '/search as a viewer');
  });
});

describe('a scan becomes searchable', () => {
  for (const [device, viewport] of devices) {
    test(`on a ${device}, a parent uploads a scanned report, finds a word read from its second page, and opens it at that page`, async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      const scan = await scannedPdf([
        'Riverside Clinic Laboratory\nPatient: Mia Rivers\nReport date: 04/03/2026',
        'Haematology\nHaemoglobin 11.2 g/dL\nFerritin 9 ng/mL (low)',
      ]);

      await open(page, '/update-records');
      await page
        .getByLabel('File', { exact: true })
        .setInputFiles({ name: 'blood-panel-scan.pdf', mimeType: 'application/pdf', buffer: scan });
      await page.getByRole('button', { name: 'Upload File' }).click();
      await expectVisible(page.getByText('Uploaded “blood-panel-scan” successfully.'));

      // The text is read in the background (OCR: the pages are pictures); wait until it has been.
      await expect
        .poll(
          async () => {
            const files = (await (await page.request.get('/api/user/files')).json()) as { display_name: string; text_status: string }[];
            return files.find((f) => f.display_name === 'blood-panel-scan')?.text_status;
          },
          { timeout: 60_000, interval: 500 },
        )
        .toBe('done');

      await open(page, '/dashboard');
      await searchFromBar(page, 'haemoglobin ferrit', device);
      const files = page.getByRole('region', { name: 'Files', exact: true });
      await expectVisible(files);
      const link = files.getByRole('link', { name: 'blood-panel-scan (opens in a new tab)' });
      await expectVisible(link);
      await expectVisible(files.getByText('Page 2', { exact: true }));
      const marks = (await files.locator('mark').allTextContents()).map((m) => m.toLowerCase());
      expect(marks).toContain('haemoglobin');
      expect(marks.some((m) => m.startsWith('ferrit'))).toBe(true);
      await screenshot(page, `search-scan-result-${device}`);
      await expectNoA11yViolations(page, `/search with a scan (${device})`);

      // The result opens the document itself, at the page that matched.
      const href = (await link.getAttribute('href')) ?? '';
      expect(href).toMatch(/^\/api\/user\/files\/[^/]+\/content#page=2$/);
      const [opened] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
      await expect.poll(() => opened.url()).toMatch(/\/content#page=2$/);
      const answer = await page.request.get(href.split('#')[0] ?? href);
      expect(answer.status()).toBe(200);
      expect(answer.headers()['content-type']).toContain('application/pdf');
    });
  }
});

describe('Settings → Documents', () => {
  for (const [device, viewport] of devices) {
    test(`on a ${device}, a new account reads documents in its browser’s languages and changes them in Settings`, async () => {
      // A German browser whose owner reads Kinchart in English (issue 35: the app would otherwise
      // speak German; the documents' languages still come from the browser's).
      const page = await newPage(viewport, { locale: 'de-DE' });
      await page.context().addInitScript(() => localStorage.setItem('kinchart.language', 'en'));
      const user = await signUpViaApi(page, uniqueUser());
      await logInViaApi(page, user);
      await apiCall(page, 'PUT', '/api/user/preferences', { language: 'en' });
      await open(page, '/dashboard');
      // The browser's languages are taken once after sign-in (English kept).
      await expect
        .poll(
          async () =>
            ((await (await page.request.get('/api/user/preferences')).json()) as { document_languages: string[] }).document_languages,
        )
        .toEqual(['de', 'en']);

      await open(page, '/settings?tab=account');
      const group = page.getByRole('group', { name: 'Languages your documents are written in' });
      await expectVisible(group);
      await expect.poll(() => group.getByRole('checkbox', { name: 'Deutsch (German)' }).isChecked()).toBe(true);
      await group.getByRole('checkbox', { name: 'Español (Spanish)' }).check();
      await page.getByRole('button', { name: 'Save document languages' }).click();
      await expectVisible(page.getByText('Document languages saved successfully.'));
      await group.scrollIntoViewIfNeeded();
      await screenshot(page, `settings-documents-${device}`);
      await expectNoA11yViolations(page, `/settings Documents (${device})`);
      const saved = (await (await page.request.get('/api/user/preferences')).json()) as { document_languages: string[] };
      expect(saved.document_languages).toEqual(['de', 'en', 'es']);
    });
  }
});
