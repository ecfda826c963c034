import type { Page } from 'playwright-core';
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
import { US_LAB_REPORT, labReportPdf } from '../lib/lab-report';

useBrowser();

// Issue 34: a patient uploads the lab report her clinic printed; once its text is read, the record
// card offers "Lab results"; she reviews what was found beside the page it came from, leaves one
// row out and adds the rest; Health records then draws her HbA1c trend across an earlier value and
// the report's, each of the report's values linked back to its page.

async function ownPersonId(page: Page): Promise<string> {
  const res = await page.request.get('/api/user/people');
  const people = (await res.json()) as { id: string; is_self: boolean }[];
  const self = people.find((p) => p.is_self);
  if (!self) throw new Error('No own profile in the people list');
  return self.id;
}

for (const [device, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  describe(`lab results from a report on a ${device} (${viewport.width}x${viewport.height})`, () => {
    test('the report is read, reviewed beside its page, one row left out, the rest added and charted with a link back', async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      const personId = await ownPersonId(page);
      // An earlier HbA1c, typed by hand: with the report's value it makes a trend.
      await apiCall(page, 'POST', `/api/user/people/${personId}/lab-results`, {
        name: 'HbA1c',
        loinc_code: '4548-4',
        value: 5.7,
        unit: '%',
        reference_low: 4,
        reference_high: 5.6,
        date: '2025-09-01',
      });

      await open(page, '/view-records');
      await page.getByRole('main').getByRole('button', { name: 'Upload', exact: true }).click();
      const modal = page.getByRole('dialog', { name: 'Upload Medical Record' });
      await modal
        .getByLabel('File', { exact: true })
        .setInputFiles({ name: 'lab-report.pdf', mimeType: 'application/pdf', buffer: await labReportPdf(US_LAB_REPORT) });
      await modal.getByRole('button', { name: 'Upload File' }).click();
      await expectHidden(modal, 30_000);

      // Once the text is read (the list asks again every few seconds), the card offers the review.
      const card = page.getByRole('article', { name: 'lab-report', exact: true });
      const labLink = card.getByRole('link', { name: 'Lab results' });
      await expectVisible(labLink, 60_000);
      await labLink.click();
      await expectVisible(page.getByRole('heading', { name: 'We found 5 results in this report' }), 30_000);
      expect(new URL(page.url()).pathname).toMatch(/^\/view-records\/[^/]+\/lab-results$/);
      const rows = page.getByRole('list', { name: 'Results found' });
      const row = (name: string) => rows.getByRole('listitem', { name, exact: true });
      await expectVisible(row('Ferritin').getByText('12 ng/mL'));
      await expectVisible(row('Ferritin').getByText('Range 30–400'));
      await expectVisible(row('Ferritin').getByText('Low', { exact: true }));
      await expectVisible(row('TSH').getByText('LOINC 3016-3', { exact: false }));

      // The page beside the rows, the line of the row in focus highlighted.
      await expectVisible(page.getByRole('heading', { name: 'Page 1 of the report' }));
      await row('Ferritin').getByRole('checkbox', { name: 'Include Ferritin' }).focus();
      // The PDF's text layer keeps the words of a line, not the widths of its gaps.
      await expectVisible(page.locator('mark').getByText(/^Ferritin\s+12\s+ng\/mL\s+30-400\s+L$/));
      await row('TSH').getByRole('button', { name: 'Show on page 2 (TSH)' }).click();
      await expectVisible(page.getByRole('heading', { name: 'Page 2 of the report' }));
      await expectVisible(page.locator('mark').getByText(/^TSH\s+2\.1/));
      await screenshot(page, `lab-review-${device}`);
      await expectNoA11yViolations(page, `Lab results review (${device})`);

      // Leave the glucose out; correct nothing else; look at one row's fields.
      await row('Glucose').getByRole('checkbox', { name: 'Include Glucose' }).uncheck();
      await expectVisible(row('Glucose').getByText('Left out'));
      await row('Hemoglobin').getByRole('button', { name: 'Edit Hemoglobin' }).click();
      await expectVisible(row('Hemoglobin').getByLabel('Value', { exact: true }));
      await expectVisible(row('Hemoglobin').getByRole('combobox', { name: 'Change the test' }));
      await screenshot(page, `lab-review-editing-${device}`);
      await expectNoA11yViolations(page, `Lab results review, a row open (${device})`);
      await page.getByRole('button', { name: 'Add 4 results' }).click();

      // Health records, lab results tab: the report's values, the glucose not among them.
      await expectPath(page, `/health-records/${personId}`, 15_000);
      await expectVisible(page.getByRole('alert').getByText('4 results added'));
      const panel = page.getByRole('tabpanel').filter({ visible: true });
      const hba1c = panel.getByRole('article', { name: 'Hemoglobin A1c' });
      await expectVisible(hba1c);
      await expectVisible(hba1c.getByRole('figure', { name: /Hemoglobin A1c over time/ }));
      await expectHidden(panel.getByRole('article', { name: 'Glucose' }));
      await expectVisible(panel.getByRole('article', { name: 'Ferritin' }));

      // Each of the report's values links back to its page of the file.
      const back = hba1c.getByRole('link', { name: /^From lab-report, page 1/ }).first();
      await expectVisible(back);
      expect(await back.getAttribute('href')).toMatch(/^\/api\/user\/files\/[^/]+\/content#page=1$/);
      await hba1c.getByText('Show the values as a table').click();
      await expectVisible(hba1c.getByRole('table').getByRole('link', { name: /^From lab-report, page 1/ }));
      await page.mouse.move(1, 1);
      await expectHidden(page.getByRole('alert').filter({ hasText: 'results added' }), 15_000);
      await hba1c.scrollIntoViewIfNeeded();
      await screenshot(page, `lab-review-trend-${device}`);
      await expectNoA11yViolations(page, `Health records with the report's results (${device})`);
    });
  });
}
