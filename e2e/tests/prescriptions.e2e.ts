import type { Page } from 'playwright-core';
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

useBrowser();

/** Today on the browser's calendar, as a date input holds it. */
async function browserToday(page: Page): Promise<string> {
  return page.evaluate(() => {
    const now = new Date();
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  });
}

const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true });
const panel = (page: Page) => page.getByRole('tabpanel').filter({ visible: true });
const card = (page: Page, name: string) => panel(page).getByRole('article', { name, exact: true });

async function fillMedication(page: Page, values: { name: string; dosage: string; frequency: string; purpose: string; start: string }) {
  const dialog = page.getByRole('dialog', { name: 'Add Medication' });
  await dialog.getByLabel('Medication Name', { exact: true }).fill(values.name);
  await dialog.getByLabel('Dosage', { exact: true }).fill(values.dosage);
  await dialog.getByLabel('Frequency', { exact: true }).fill(values.frequency);
  await dialog.getByLabel('Purpose', { exact: true }).fill(values.purpose);
  await dialog.getByLabel('Start Date', { exact: true }).fill(values.start);
}

describe('prescriptions', () => {
  test('a patient adds, edits, ends and deletes a prescription, and it moves from Current to History', async () => {
    const page = await newPage();
    await signUpAndLogIn(page);
    await open(page, '/prescriptions');
    await expectVisible(page.getByRole('heading', { level: 1, name: 'Prescriptions' }));
    await expectVisible(page.getByText('No current medications.'));

    // Add: the required fields are checked before anything is sent.
    await page.getByRole('button', { name: 'Add Medication' }).click();
    const addDialog = page.getByRole('dialog', { name: 'Add Medication' });
    await addDialog.getByRole('button', { name: 'Add Medication' }).click();
    await expectVisible(addDialog.getByText('Medication name is required'));
    await expectVisible(addDialog.getByText('Start date is required'));
    await fillMedication(page, {
      name: 'Lisinopril',
      dosage: '10 mg',
      frequency: 'Once daily',
      purpose: 'Blood pressure',
      start: '2025-01-10',
    });
    await expectHidden(addDialog.getByText('Medication name is required'));
    await addDialog.getByRole('button', { name: 'Add Medication' }).click();
    await expectVisible(page.getByText('Medication added successfully!'));
    await expectHidden(addDialog);
    await expectVisible(card(page, 'Lisinopril').getByText('Active', { exact: true }));
    await expectVisible(card(page, 'Lisinopril').getByText('Jan 10, 2025'));

    // Edit.
    await card(page, 'Lisinopril').getByRole('button', { name: 'Edit Lisinopril' }).click();
    const editDialog = page.getByRole('dialog', { name: 'Edit Medication' });
    expect(await editDialog.getByLabel('Dosage', { exact: true }).inputValue()).toBe('10 mg');
    await editDialog.getByLabel('Dosage', { exact: true }).fill('20 mg');
    await editDialog.getByRole('button', { name: 'Save Changes' }).click();
    await expectVisible(page.getByText('Medication updated successfully!'));
    await expectVisible(card(page, 'Lisinopril').getByText('20 mg', { exact: true }));

    // End: today by default, here a chosen date; it leaves the current list for the history.
    await card(page, 'Lisinopril').getByRole('button', { name: 'End medication Lisinopril' }).click();
    const endDialog = page.getByRole('dialog', { name: 'End medication' });
    expect(await endDialog.getByLabel('End Date', { exact: true }).inputValue()).toBe(await browserToday(page));
    await endDialog.getByLabel('End Date', { exact: true }).fill('2025-06-30');
    await endDialog.getByRole('button', { name: 'End medication' }).click();
    await expectHidden(endDialog);
    await expectVisible(page.getByText('No current medications.'));

    await tab(page, 'Medication History').click();
    const ended = card(page, 'Lisinopril');
    await expectVisible(ended.getByText('Ended', { exact: true }));
    await expectVisible(ended.getByText('Jun 30, 2025'));
    expect(await ended.getByRole('button').allTextContents()).toEqual(['Delete Lisinopril']);

    // Delete, after confirming.
    await ended.getByRole('button', { name: 'Delete Lisinopril' }).click();
    const confirm = page.getByRole('alertdialog');
    await expectVisible(confirm.getByText('Are you sure you want to delete this medication? This action cannot be undone.'));
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expectVisible(page.getByText('Medication removed successfully!'));
    await expectVisible(page.getByText('No past medications.'));

    // Nothing was only local: a reload shows the same empty lists.
    await page.reload({ waitUntil: 'networkidle' });
    await expectVisible(page.getByText('No current medications.'));
  });

  test('a medication added as no longer taken goes straight to the history with its end date', async () => {
    const page = await newPage();
    await signUpAndLogIn(page);
    await open(page, '/prescriptions');

    await page.getByRole('button', { name: 'Add Medication' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Medication' });
    await fillMedication(page, {
      name: 'Amoxicillin',
      dosage: '500 mg',
      frequency: 'Three times daily',
      purpose: 'Infection',
      start: '2025-03-01',
    });
    await dialog.getByLabel('Currently Taking', { exact: true }).uncheck();
    await dialog.getByLabel('End Date', { exact: true }).fill('2025-02-01');
    await dialog.getByRole('button', { name: 'Add Medication' }).click();
    await expectVisible(dialog.getByText('End date cannot be before the start date'));
    await dialog.getByLabel('End Date', { exact: true }).fill('2025-03-10');
    await dialog.getByRole('button', { name: 'Add Medication' }).click();
    await expectVisible(page.getByText('Medication added successfully!'));

    await expectVisible(page.getByText('No current medications.'));
    await tab(page, 'Medication History').click();
    await expectVisible(card(page, 'Amoxicillin').getByText('Mar 10, 2025'));
  });

  for (const [device, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`the prescriptions screens pass axe and are captured on a ${device}`, async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      await open(page, '/prescriptions');
      await expectVisible(page.getByText('No current medications.'));
      await expectNoA11yViolations(page, `/prescriptions empty (${device})`);

      for (const [name, dosage, start] of [
        ['Lisinopril', '10 mg', '2025-01-10'],
        ['Metformin', '500 mg', '2024-11-02'],
        ['Atorvastatin', '20 mg', '2023-06-15'],
      ] as const) {
        await page.getByRole('button', { name: 'Add Medication' }).click();
        await fillMedication(page, { name, dosage, frequency: 'Once daily', purpose: 'Long-term treatment', start });
        if (name === 'Lisinopril') {
          await screenshot(page, `prescriptions-add-modal-${device}`);
          await expectNoA11yViolations(page, `/prescriptions add modal (${device})`);
        }
        await page.getByRole('dialog', { name: 'Add Medication' }).getByRole('button', { name: 'Add Medication' }).click();
        await expectVisible(card(page, name));
      }
      // A toast pauses while the pointer rests on it: move it away, as a person would.
      await page.mouse.move(1, 1);
      await expectHidden(page.getByRole('alert').filter({ hasText: 'successfully' }), 15_000);
      await screenshot(page, `prescriptions-current-${device}`);
      await expectNoA11yViolations(page, `/prescriptions current (${device})`);

      await card(page, 'Atorvastatin').getByRole('button', { name: 'End medication Atorvastatin' }).click();
      await screenshot(page, `prescriptions-end-dialog-${device}`);
      await expectNoA11yViolations(page, `/prescriptions end dialog (${device})`);
      await page.getByRole('dialog', { name: 'End medication' }).getByRole('button', { name: 'End medication' }).click();
      await expectHidden(card(page, 'Atorvastatin'));

      await tab(page, 'Medication History').click();
      await expectVisible(card(page, 'Atorvastatin'));
      await screenshot(page, `prescriptions-history-${device}`);
      await expectNoA11yViolations(page, `/prescriptions history (${device})`);

      await card(page, 'Atorvastatin').getByRole('button', { name: 'Delete Atorvastatin' }).click();
      await screenshot(page, `prescriptions-delete-confirm-${device}`);
      await expectNoA11yViolations(page, `/prescriptions delete confirmation (${device})`);
    });
  }
});
