import fs from 'node:fs/promises';
import type { Download, Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  DESKTOP,
  PHONE,
  apiCall,
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
import type { Viewport } from '../lib/browser';

useBrowser();

// DESIGN §12: a person's immunizations, lab results and vital signs, conditions and procedures —
// entered by hand, the vaccination record printed, lab values charted with the out-of-range ones
// marked — on a desktop and on a phone.

async function downloaded(download: Download): Promise<Buffer> {
  const file = await download.path();
  if (!file) throw new Error('The download has no file');
  return fs.readFile(file);
}

const panel = (page: Page) => page.getByRole('tabpanel').filter({ visible: true });
const dialog = (page: Page, name: string) => page.getByRole('dialog', { name });

/** Fills a dialog's fields by their labels, then submits it with its main button and waits for the server's message. */
async function addThrough(page: Page, add: string, fields: Record<string, string>, saved: string): Promise<void> {
  await panel(page).getByRole('button', { name: add, exact: true }).click();
  const form = dialog(page, add);
  await expectVisible(form);
  for (const [label, value] of Object.entries(fields)) {
    const control = form.getByLabel(label, { exact: true });
    if ((await control.evaluate((el) => el.tagName)) === 'SELECT') await control.selectOption({ label: value });
    else await control.fill(value);
  }
  await form.getByRole('button', { name: add, exact: true }).click();
  await expectVisible(page.getByText(saved).first());
  await expectHidden(form);
}

/** Waits until the success toasts are gone, so pictures and axe see the page itself. */
async function toastsGone(page: Page): Promise<void> {
  // A toast pauses while the pointer rests on it (at the bottom, where the dialog's button was):
  // move it away, as a person would.
  await page.mouse.move(1, 1);
  await expectHidden(page.getByRole('alert').filter({ hasText: 'successfully' }), 15_000);
}

async function openFromNavigation(page: Page, viewport: Viewport): Promise<void> {
  if (viewport === PHONE) {
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Health Records' }).click();
  } else {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Health Records' }).click();
  }
}

async function ownPersonId(page: Page): Promise<string> {
  const res = await page.request.get('/api/user/people');
  const people = (await res.json()) as { id: string; is_self: boolean }[];
  const self = people.find((p) => p.is_self);
  if (!self) throw new Error('No own profile in the people list');
  return self.id;
}

describe('health records', () => {
  for (const [device, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as [string, Viewport][]) {
    test(`on a ${device}, a patient records immunizations, lab results, a condition and a procedure, prints the vaccination record and sees the trend`, async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      await apiCall(page, 'PUT', '/api/user/updateProfile', { name: 'Jordan Rivers', date_of_birth: '1980-03-04' });
      await apiCall(page, 'POST', '/api/user/family/add', { name: 'Mia Rivers', date_of_birth: '2015-04-02', relationship: 'child' });
      const selfId = await ownPersonId(page);
      // One item as an import brings it, with its coding (the screen has no coding input).
      await apiCall(page, 'POST', `/api/user/people/${selfId}/conditions`, {
        name: 'Hay fever',
        status: 'active',
        onset_date: '2021-04',
        codings: [{ system: 'http://snomed.info/sct', code: '21719001', display: 'Allergic rhinitis caused by pollen' }],
      });
      await page.reload({ waitUntil: 'networkidle' });
      await expectVisible(page.getByRole('main').getByRole('link', { name: 'Health records', exact: true }));
      await screenshot(page, `health-records-dashboard-${device}`);

      await openFromNavigation(page, viewport);
      await expectPath(page, `/health-records/${selfId}`);
      await expectVisible(page.getByRole('heading', { level: 1, name: 'Health records' }));
      await expectVisible(panel(page).getByText('No immunizations recorded yet.'));
      expect(await page.getByLabel('Person', { exact: true }).inputValue()).toBe(selfId);

      // Immunizations: the shared schema's messages before anything is sent, then the server's.
      await panel(page).getByRole('button', { name: 'Add immunization', exact: true }).click();
      const addImmunization = dialog(page, 'Add immunization');
      await addImmunization.getByLabel('Date', { exact: true }).fill('2019-13');
      await addImmunization.getByRole('button', { name: 'Add immunization' }).click();
      await expectVisible(addImmunization.getByText('Vaccine is required'));
      await expectVisible(addImmunization.getByText('Date must be a date as YYYY, YYYY-MM or YYYY-MM-DD'));
      await addImmunization.getByLabel('Vaccine', { exact: true }).fill('MMR');
      await addImmunization.getByLabel('Date', { exact: true }).fill('2019-05');
      await addImmunization.getByLabel('Dose number', { exact: true }).fill('1');
      await addImmunization.getByLabel('Lot number', { exact: true }).fill('AB123');
      await addImmunization.getByLabel('Site', { exact: true }).fill('Left arm');
      await addImmunization.getByLabel('Performer', { exact: true }).fill('Dr Lee, City Clinic');
      await screenshot(page, `health-records-add-immunization-${device}`);
      await expectNoA11yViolations(page, `/health-records add immunization (${device})`);
      await addImmunization.getByRole('button', { name: 'Add immunization' }).click();
      await expectVisible(page.getByText('Immunization added successfully!'));
      const mmr = panel(page).getByRole('article', { name: 'MMR' });
      for (const text of ['2019-05', 'AB123', 'Left arm', 'Dr Lee, City Clinic']) await expectVisible(mmr.getByText(text, { exact: true }));

      // The vaccination record, as a PDF download.
      const [pdf] = await Promise.all([
        page.waitForEvent('download'),
        panel(page).getByRole('button', { name: 'Print vaccination record' }).click(),
      ]);
      expect(pdf.suggestedFilename()).toBe('vaccination-record-jordan-rivers.pdf');
      expect((await downloaded(pdf)).subarray(0, 5).toString()).toBe('%PDF-');
      await toastsGone(page);
      await screenshot(page, `health-records-immunizations-${device}`);
      await expectNoA11yViolations(page, `/health-records immunizations (${device})`);

      // Lab results: three HbA1c values, the newest above its range.
      await page.getByRole('tab', { name: 'Lab results & vitals' }).click();
      await expectVisible(panel(page).getByText('No lab results or vital signs recorded yet.'));
      for (const [value, date] of [
        ['5.2', '2023-01-20'],
        ['5.5', '2023-07-15'],
        ['6.4', '2024-02-10'],
      ] as const) {
        await addThrough(
          page,
          'Add lab result',
          { 'Test name': 'HbA1c', Value: value, Unit: '%', 'Reference range': '4.0-5.6', Date: date, 'LOINC code': '4548-4' },
          'Lab result added successfully!',
        );
      }
      const group = panel(page).getByRole('article', { name: 'HbA1c' });
      await expectVisible(group.getByText('LOINC 4548-4 · 3 results'));
      // In the list: words beside the icon, only on the out-of-range value.
      const results = group.getByRole('list', { name: 'HbA1c results, newest first' }).getByRole('listitem');
      expect(await results.count()).toBe(3);
      await expectVisible(results.first().getByText('Out of range (High)'));
      expect(await results.getByText('Out of range (High)').count()).toBe(1);
      // The chart: a canvas under an image role with a name, and its values as a table.
      const chart = group.getByRole('img', {
        name: 'Trend of HbA1c: 3 values from Jan 20, 2023 to Feb 10, 2024, latest 6.4 %, 1 out of range.',
      });
      await expectVisible(chart.locator('canvas').first());
      expect(
        await chart
          .locator('canvas')
          .first()
          .evaluate((c) => (c as HTMLCanvasElement).width),
      ).toBeGreaterThan(150);
      await group.getByText('Show the values as a table').click();
      const table = group.getByRole('table', { name: 'HbA1c values, oldest first' });
      await expectVisible(table);
      const rowText = async (row: Locator) => (await row.getByRole('cell').allTextContents()).map((t) => t.trim());
      const rows = table.getByRole('row');
      // Dates as people read them (issue 30).
      expect(await rowText(rows.nth(1))).toEqual(['Jan 20, 2023', '5.2', '%', '4–5.6', 'Within range']);
      expect(await rowText(rows.nth(3))).toEqual(['Feb 10, 2024', '6.4', '%', '4–5.6', 'Out of range (High)']);
      await toastsGone(page);
      await screenshot(page, `health-records-lab-results-${device}`);
      await expectNoA11yViolations(page, `/health-records lab results (${device})`);

      // A condition and a procedure.
      await page.getByRole('tab', { name: 'Conditions' }).click();
      await addThrough(
        page,
        'Add condition',
        { Condition: 'Asthma', Status: 'Active', 'Onset date': '2015' },
        'Condition added successfully!',
      );
      const asthma = panel(page).getByRole('article', { name: 'Asthma' });
      await expectVisible(asthma.getByText('Active', { exact: true }));
      await expectVisible(asthma.getByText('2015', { exact: true }));
      // A condition in remission is not over: it says so, never "Resolved" (issue 30).
      await addThrough(
        page,
        'Add condition',
        { Condition: 'Leukemia', Status: 'In remission', 'Onset date': '2019', 'Resolved date': '2022-05' },
        'Condition added successfully!',
      );
      const leukemia = panel(page).getByRole('article', { name: 'Leukemia' });
      await expectVisible(leukemia.getByText('In remission', { exact: true }));
      await expectVisible(leukemia.getByText('In remission since', { exact: true }));
      expect(await leukemia.getByText(/resolved/i).count()).toBe(0);
      // Codings shown discreetly, as system and code.
      await expectVisible(panel(page).getByRole('article', { name: 'Hay fever' }).getByText('SNOMED 21719001'));
      await toastsGone(page);
      await screenshot(page, `health-records-conditions-${device}`);
      await expectNoA11yViolations(page, `/health-records conditions (${device})`);

      await page.getByRole('tab', { name: 'Procedures' }).click();
      await addThrough(
        page,
        'Add procedure',
        { Procedure: 'Appendectomy', 'Performed date': '2010-07-03', Performer: 'City Hospital' },
        'Procedure added successfully!',
      );
      const appendectomy = panel(page).getByRole('article', { name: 'Appendectomy' });
      await expectVisible(appendectomy.getByText('Completed', { exact: true }));
      await expectVisible(appendectomy.getByText('2010-07-03', { exact: true }));
      await toastsGone(page);
      await screenshot(page, `health-records-procedures-${device}`);
      await expectNoA11yViolations(page, `/health-records procedures (${device})`);

      // Deleting asks first.
      await appendectomy.getByRole('button', { name: 'Delete Appendectomy' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Delete procedure' });
      await expectVisible(confirm.getByText('Are you sure you want to delete Appendectomy (2010-07-03)? This action cannot be undone.'));
      await expectNoA11yViolations(page, `/health-records delete confirmation (${device})`);
      await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
      await expectVisible(page.getByText('Procedure deleted successfully'));
      await expectVisible(panel(page).getByText('No procedures recorded yet.'));

      // Nothing was only local: a reload on the address keeps the tab and the items.
      await page.reload({ waitUntil: 'networkidle' });
      await expectVisible(panel(page).getByText('No procedures recorded yet.'));
      await page.getByRole('tab', { name: 'Lab results & vitals' }).click();
      await expectVisible(panel(page).getByRole('article', { name: 'HbA1c' }));
    });
  }

  test("each person's page leads to their health records: the dashboard, your profile and a family member's page", async () => {
    const page = await newPage();
    await signUpAndLogIn(page);
    const member = await apiCall(page, 'POST', '/api/user/family/add', {
      name: 'Mia Rivers',
      date_of_birth: '2015-04-02',
      relationship: 'child',
    });
    const memberId = String(member.id);
    const selfId = await ownPersonId(page);
    await apiCall(page, 'POST', `/api/user/people/${memberId}/conditions`, { name: 'Hay fever', onset_date: '2021-04' });

    await open(page, '/dashboard');
    await page.getByRole('main').getByRole('link', { name: 'Health records', exact: true }).click();
    await expectPath(page, `/health-records/${selfId}`);

    await open(page, '/profile');
    await page.getByRole('main').getByRole('link', { name: 'Health records', exact: true }).click();
    await expectPath(page, `/health-records/${selfId}`);

    await open(page, `/edit-family-member/${memberId}`);
    await page.getByRole('main').getByRole('link', { name: 'Health records', exact: true }).click();
    await expectPath(page, `/health-records/${memberId}`);
    await page.getByRole('tab', { name: 'Conditions' }).click();
    await expectVisible(panel(page).getByRole('article', { name: 'Hay fever' }));
    // The person choice moves between the people, keeping the section.
    await page.getByLabel('Person', { exact: true }).selectOption({ value: selfId });
    await expectPath(page, `/health-records/${selfId}`);
    await expectVisible(panel(page).getByText('No conditions recorded yet.'));
  });
});
