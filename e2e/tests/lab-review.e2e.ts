import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { germanReport, usClinicReport } from '../../apps/server/test/lab-fixtures';
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
  useBrowser,
} from '../lib/browser';

useBrowser();

// Issue 34 ("Done when"): a patient uploads the PDF her German lab emailed and the one her US clinic
// printed (the server tests' generated reports); once their text is read, each record card offers
// "Lab results"; she confirms what was found in each — beside the page it came from, leaving one row
// out — and Health records then draws her ferritin and HbA1c trends across both reports on one axis,
// each value linked back to the page it came from.

async function ownPersonId(page: Page): Promise<string> {
  const res = await page.request.get('/api/user/people');
  const people = (await res.json()) as { id: string; is_self: boolean }[];
  const self = people.find((p) => p.is_self);
  if (!self) throw new Error('No own profile in the people list');
  return self.id;
}

/** From View Records, a record's "Lab results" once its text is read (the list asks again every few seconds). */
async function openLabResults(page: Page, record: string): Promise<void> {
  await open(page, '/view-records');
  const link = page.getByRole('article', { name: record, exact: true }).getByRole('link', { name: 'Lab results' });
  await expectVisible(link, 60_000);
  await link.click();
  await page.waitForURL(/\/view-records\/[^/]+\/lab-results$/);
}

/** Waits until the success toasts are gone, so pictures and axe see the page itself. */
async function toastsGone(page: Page): Promise<void> {
  await page.mouse.move(1, 1);
  await expectHidden(page.getByRole('alert').filter({ hasText: 'results added' }), 15_000);
}

for (const [device, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  describe(`lab results from two reports on a ${device} (${viewport.width}x${viewport.height})`, () => {
    test('each report is reviewed beside its page and added (one row left out); ferritin and HbA1c trends span both, linked back', async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      const personId = await ownPersonId(page);

      await open(page, '/view-records');
      await page.getByRole('main').getByRole('button', { name: 'Upload', exact: true }).click();
      const modal = page.getByRole('dialog', { name: 'Upload Medical Record' });
      await modal.getByLabel('File', { exact: true }).setInputFiles([
        { name: 'befund.pdf', mimeType: 'application/pdf', buffer: await germanReport() },
        { name: 'us-clinic.pdf', mimeType: 'application/pdf', buffer: await usClinicReport() },
      ]);
      await modal.getByRole('button', { name: 'Upload File' }).click();
      await expectHidden(modal, 30_000);

      // The German report: decimal commas, German names, a word flag.
      await openLabResults(page, 'befund');
      await expectVisible(page.getByRole('heading', { name: 'We found 5 results in this report' }), 30_000);
      const rows = page.getByRole('list', { name: 'Results found' });
      const row = (name: string) => rows.getByRole('listitem', { name, exact: true });
      await expectVisible(row('Ferritin').getByText(/^12 [µμ]g\/l$/));
      await expectVisible(row('Ferritin').getByText('Range 13–150'));
      await expectVisible(row('Ferritin').getByText('Low', { exact: true }));
      await expectVisible(row('Kreatinin').getByText('1.12 mg/dl'));
      await expectVisible(row('CRP').getByText('Range < 0.5'));

      // The page beside the rows (under them on a phone), the line of the row in focus highlighted.
      await expectVisible(page.getByRole('heading', { name: 'Page 1 of the report' }));
      await row('Ferritin').getByRole('checkbox', { name: 'Include Ferritin' }).focus();
      await expectVisible(page.locator('mark').getByText(/^Ferritin\s+12\s+[µμ]g\/l\s+13 - 150\s+erniedrigt$/));
      await row('HbA1c').getByRole('button', { name: 'Show on page 1 (HbA1c)' }).click();
      await expectVisible(page.locator('mark').getByText(/^HbA1c\s+5,9\s+%/));

      // The CRP is left out; the creatinine's fields are opened to look at.
      await row('CRP').getByRole('checkbox', { name: 'Include CRP' }).uncheck();
      await expectVisible(row('CRP').getByText('Left out'));
      await expectVisible(page.getByRole('button', { name: 'Add 4 results' }));
      await screenshot(page, `lab-review-${device}`);
      await expectNoA11yViolations(page, `Lab results review (${device})`);
      await row('Kreatinin').getByRole('button', { name: 'Edit Kreatinin' }).click();
      await expectVisible(row('Kreatinin').getByLabel('Value', { exact: true }));
      await expectVisible(row('Kreatinin').getByRole('combobox', { name: 'Change the test' }));
      await screenshot(page, `lab-review-editing-${device}`);
      await expectNoA11yViolations(page, `Lab results review, a row open (${device})`);
      await page.getByRole('button', { name: 'Add 4 results' }).click();
      await expectPath(page, `/health-records/${personId}`, 15_000);
      await expectVisible(page.getByRole('alert').getByText('4 results added'));
      await toastsGone(page);

      // The US clinic's printout: all six added.
      await openLabResults(page, 'us-clinic');
      await expectVisible(page.getByRole('heading', { name: 'We found 6 results in this report' }), 30_000);
      await expectVisible(row('Hemoglobin A1c').getByText('High', { exact: true }));
      await page.getByRole('button', { name: 'Add 6 results' }).click();
      await expectPath(page, `/health-records/${personId}`, 15_000);
      await expectVisible(page.getByRole('alert').getByText('6 results added'));

      // Health records: ferritin in µg/l and in ng/mL on one axis; the CRP left out is not there.
      const panel = page.getByRole('tabpanel').filter({ visible: true });
      const ferritin = panel.getByRole('article', { name: 'Ferritin' });
      await expectVisible(ferritin.getByRole('figure', { name: 'Ferritin over time (ng/mL)' }));
      await expect(ferritin.getByRole('figure').count()).resolves.toBe(1);
      await expectVisible(panel.getByRole('article', { name: 'HbA1c' }).getByRole('figure', { name: 'HbA1c over time (%)' }));
      await expectHidden(panel.getByRole('article', { name: 'CRP' }));

      // Each value links back to its report's page.
      await ferritin.getByText('Show the values as a table').click();
      const table = ferritin.getByRole('table');
      const german = table.getByRole('link', { name: /^From befund, page 1/ });
      const us = table.getByRole('link', { name: /^From us-clinic, page 1/ });
      await expectVisible(german);
      await expectVisible(us);
      expect(await german.getAttribute('href')).toMatch(/^\/api\/user\/files\/[^/]+\/content#page=1$/);
      await expectVisible(table.getByText(/^reported as 12 [µμ]g\/l$/));
      await toastsGone(page);
      await ferritin.scrollIntoViewIfNeeded();
      await screenshot(page, `lab-review-trend-${device}`);
      await expectNoA11yViolations(page, `Health records with both reports' results (${device})`);
    });
  });
}
