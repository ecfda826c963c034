import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  DESKTOP,
  PHONE,
  apiCall,
  expectHidden,
  expectNoA11yViolations,
  expectVisible,
  newPage,
  open,
  screenshot,
  signUpAndLogIn,
  uniqueUser,
  useBrowser,
} from '../lib/browser';
import { fillOwnProfile, JORDAN } from '../lib/people';
import { addChild, createInvitation, openFamilySettings, openShareDialog, peopleOf, signUpAndAccept } from '../lib/sharing';

useBrowser();

// Issue 32: a medication gets a schedule; its doses appear in the dashboard's Today in the person's
// zone (an account without one: UTC), where they are logged Taken or Skipped, undone, or taken all
// at once; the medication shows the last 30 days and the adherence. A viewer sees but cannot change.
//
// The times are 00:00 and 23:59 of the person's today, so the doses are there whatever the hour of
// the run: 00:00 is past (due or missed), 23:59 still to come — both can be logged.

/** Adds a current medication to the signed-in user's own profile; answers its id. */
async function addOwnMedication(page: Page, name: string, dosage: string): Promise<string> {
  const answer = await apiCall(page, 'POST', '/api/user/medications', {
    medication_name: name,
    dosage,
    frequency: 'Daily',
    purpose: 'Care',
    start_date: '2025-01-10',
    is_current: true,
  });
  return String(answer.id);
}

async function schedule(page: Page, personId: string, medicationId: string, times: string[]): Promise<void> {
  await apiCall(page, 'PUT', `/api/user/people/${personId}/medications/${medicationId}/schedule`, { times });
}

const today = (page: Page) => page.getByRole('region', { name: 'Today', exact: true });
const slot = (page: Page, name: string) => today(page).getByRole('group', { name, exact: true });
const card = (page: Page, name: string) => page.getByRole('tabpanel').filter({ visible: true }).getByRole('article', { name, exact: true });

/** The dose row of `medication` inside a time slot. */
const row = (group: Locator, medication: string) => group.getByRole('listitem').filter({ hasText: medication });

describe('medication schedules, Today and the 30-day strip', () => {
  for (const [device, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`a parent schedules a medication, logs Taken and Skip, undoes, takes all and sees the strip (${device})`, async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      await fillOwnProfile(page);
      const me = (await peopleOf(page)).find((p) => p.name === JORDAN.name);
      if (!me) throw new Error('The own profile is not among the people');
      await addOwnMedication(page, 'Albuterol', '2 puffs');
      const vitaminD = await addOwnMedication(page, 'Vitamin D', '1000 IU');
      const iron = await addOwnMedication(page, 'Iron', '65 mg');
      await schedule(page, me.id, vitaminD, ['23:59']);
      await schedule(page, me.id, iron, ['00:00']);

      // Prescriptions: Albuterol gets its schedule in the editor.
      await open(page, '/prescriptions');
      const albuterol = card(page, 'Albuterol');
      await expectVisible(albuterol.getByText('Not scheduled'));
      await expectVisible(card(page, 'Iron').getByText('00:00 · every day'));
      await albuterol.getByRole('button', { name: 'Add schedule of Albuterol' }).click();
      const editor = page.getByRole('dialog', { name: 'Schedule for Albuterol' });
      await editor.getByLabel('Time 1', { exact: true }).fill('00:00');
      await editor.getByRole('button', { name: 'Add a time' }).click();
      // Checked before anything is sent: the new time is empty.
      await editor.getByRole('button', { name: 'Save schedule' }).click();
      await expectVisible(editor.getByText('must be times as HH:MM (00:00 to 23:59)'));
      await editor.getByLabel('Time 2', { exact: true }).fill('23:59');
      await editor.getByLabel('Quantity on hand (optional)').fill('30');
      await expectNoA11yViolations(page, `schedule editor (${device})`);
      await screenshot(page, `medication-schedule-editor-${device}`);
      await editor.getByRole('button', { name: 'Save schedule' }).click();
      await expectHidden(editor);
      await expectVisible(albuterol.getByText('00:00, 23:59 · every day'));
      await expectVisible(albuterol.getByText(/^30 on hand · runs out around [A-Z][a-z]{2} \d{1,2}, \d{4}$/));

      // Today on the dashboard: the person, then the times.
      await open(page, '/dashboard');
      const morning = slot(page, `${JORDAN.name} at 00:00`);
      const night = slot(page, `${JORDAN.name} at 23:59`);
      await expectVisible(morning.getByText('Albuterol'));
      await expectVisible(morning.getByText('Iron'));
      await expectVisible(night.getByText('Vitamin D'));
      // The own profile's Warfarin has no schedule: it is not in Today.
      expect(await today(page).getByText('Warfarin').count()).toBe(0);

      await night.getByRole('button', { name: 'Taken: Albuterol at 23:59' }).click();
      await expectVisible(row(night, 'Albuterol').getByText('Taken', { exact: true }));
      await expectVisible(night.getByRole('button', { name: 'Undo: Albuterol at 23:59' }));
      await night.getByRole('button', { name: 'Skip: Vitamin D at 23:59' }).click();
      await expectVisible(row(night, 'Vitamin D').getByText('Skipped', { exact: true }));
      await night.getByRole('button', { name: 'Undo: Vitamin D at 23:59' }).click();
      await expectVisible(night.getByRole('button', { name: 'Taken: Vitamin D at 23:59' }));
      await expectVisible(row(night, 'Vitamin D').getByText('Upcoming', { exact: true }));

      await morning.getByRole('button', { name: `Take all: ${JORDAN.name} at 00:00` }).click();
      await expectVisible(morning.getByRole('button', { name: 'Undo: Albuterol at 00:00' }));
      await expectVisible(morning.getByRole('button', { name: 'Undo: Iron at 00:00' }));
      await expectHidden(morning.getByRole('button', { name: /^Take all/ }));
      // It was the server's doing, not only the screen's: a reload shows the same.
      await page.reload({ waitUntil: 'networkidle' });
      await expectVisible(slot(page, `${JORDAN.name} at 00:00`).getByRole('button', { name: 'Undo: Iron at 00:00' }));
      await expectVisible(slot(page, `${JORDAN.name} at 23:59`).getByRole('button', { name: 'Undo: Albuterol at 23:59' }));
      await expectNoA11yViolations(page, `/dashboard with Today (${device})`);
      await screenshot(page, `medication-today-${device}`);

      // The medication view: two doses taken, the strip's today is "all taken", and the percent.
      await open(page, '/prescriptions');
      const taken = card(page, 'Albuterol');
      await expectVisible(taken.getByText(/^28 on hand/));
      const strip = taken.getByRole('list', { name: 'Each of the last 30 days of Albuterol' });
      await expectVisible(strip);
      expect(await strip.getByRole('listitem').count()).toBe(30);
      expect(await strip.getByRole('listitem').last().textContent()).toMatch(/: all taken$/);
      await expectVisible(taken.getByText(/^\d{1,3}% taken \(\d+ of \d+ doses?\)$/));
      await expectNoA11yViolations(page, `/prescriptions with schedules (${device})`);
      await screenshot(page, `medication-strip-${device}`);

      // The profile editor's medication items show the same schedule, with its editor.
      await open(page, '/profile');
      await page.getByRole('tab', { name: 'Medications' }).click();
      const items = page.getByRole('tabpanel').filter({ visible: true });
      await expectVisible(items.getByText('00:00, 23:59 · every day'));
      await expectVisible(items.getByRole('button', { name: 'Edit schedule of Albuterol' }));
      await expectVisible(items.getByRole('button', { name: 'Add schedule of Warfarin' }));
      await expectNoA11yViolations(page, `/profile Medications with schedules (${device})`);
      await screenshot(page, `medication-profile-editor-${device}`);

      // Reminders for your own profile: the owner's defaults.
      await openFamilySettings(page);
      await page.getByRole('button', { name: 'Reminders for your profile' }).click();
      const reminders = page.getByRole('dialog', { name: 'Reminders for your profile' });
      const switches = reminders.getByRole('switch');
      await expectVisible(switches.first());
      expect(await Promise.all((await switches.all()).map((s) => s.isChecked()))).toEqual([true, false, true]);
      await expectVisible(reminders.getByText('Remind me about my doses'));
      await expectNoA11yViolations(page, `reminder settings of your profile (${device})`);
    });
  }

  test('a viewer sees the schedule and the doses but cannot change them, and chooses their own reminders', async () => {
    const parentPage = await newPage(DESKTOP);
    await signUpAndLogIn(parentPage);
    await openFamilySettings(parentPage);
    const miaId = await addChild(parentPage, 'Mia');
    const medication = await apiCall(parentPage, 'POST', `/api/user/family/members/${miaId}/medications`, {
      medication_name: 'Amoxicillin',
      dosage: '250 mg',
      is_current: true,
    });
    await schedule(parentPage, miaId, String(medication.id), ['23:59']);
    const invite = await createInvitation(await openShareDialog(parentPage, 'Mia'), 'Viewer');

    const viewerPage = await newPage(PHONE);
    await open(viewerPage, new URL(invite).pathname);
    await signUpAndAccept(viewerPage, invite, uniqueUser('viewer'));

    await open(viewerPage, '/dashboard');
    const mia = slot(viewerPage, 'Mia at 23:59');
    await expectVisible(mia.getByText('Amoxicillin'));
    await expectVisible(today(viewerPage).getByText("View only: you can see Mia's doses but not log them."));
    expect(await mia.getByRole('button').count()).toBe(0);
    await expectNoA11yViolations(viewerPage, '/dashboard Today as a viewer');
    await screenshot(viewerPage, 'medication-today-viewer-phone');

    await open(viewerPage, `/prescriptions?person=${miaId}`);
    const item = card(viewerPage, 'Amoxicillin');
    await expectVisible(item.getByText('23:59 · every day'));
    expect(await item.getByRole('button').count()).toBe(0);
    // The server says the same: a viewer's log is refused.
    const day = new Date().toISOString().slice(0, 10);
    const listed = await viewerPage.request.get(`/api/user/people/${miaId}/doses?from=${day}&to=${day}`);
    const [dose] = ((await listed.json()) as { doses: { dose_id: string }[] }).doses;
    if (!dose) throw new Error("Mia's dose is not listed for the viewer");
    const refused = await viewerPage.request.put(`/api/user/people/${miaId}/doses/${encodeURIComponent(dose.dose_id)}`, {
      data: { status: 'taken' },
      headers: { Origin: new URL(viewerPage.url()).origin },
    });
    expect(refused.status()).toBe(403);

    // Reminders are the viewer's own choice: off until they turn them on.
    await openFamilySettings(viewerPage);
    await viewerPage.getByRole('button', { name: 'Reminders for Mia' }).click();
    const dialog = viewerPage.getByRole('dialog', { name: 'Reminders for Mia' });
    const doses = dialog.getByRole('switch', { name: "Remind me about Mia's doses" });
    await expectVisible(doses);
    expect(await doses.isChecked()).toBe(false);
    await doses.check();
    await expectVisible(dialog.getByText('Saved.'));
    await expectNoA11yViolations(viewerPage, 'reminder settings as a viewer');
    await screenshot(viewerPage, 'reminder-settings-phone');
    const stored = await viewerPage.request.get(`/api/user/people/${miaId}/reminder-settings`);
    expect(await stored.json()).toEqual({ dose_reminders: true, missed_dose_alerts: false, appointment_reminders: false });
  });
});
