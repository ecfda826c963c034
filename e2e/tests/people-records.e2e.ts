import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  DESKTOP,
  PHONE,
  apiCall,
  browserDay,
  expectHidden,
  expectNoA11yViolations,
  expectVisible,
  newPage,
  open,
  screenshot,
  signUpAndLogIn,
  uniqueUser,
  useBrowser,
  type Viewport,
} from '../lib/browser';
import { seedRecord, tinyPdf } from '../lib/files';

useBrowser();

// DESIGN §11: every record file and appointment belongs to one person. The "For" choice of the
// upload form and the appointment form, the person filters of View Records and Appointments, the
// calendar's colours and names, and the dashboard's blocks that follow the selected person.

/** Adds a family member through the API and answers their id. */
async function addMember(page: Page, name: string, relationship = 'child'): Promise<string> {
  const added = await apiCall(page, 'POST', '/api/user/family/add', { name, date_of_birth: '2016-04-02', relationship });
  return String(added.id);
}

/** The person filter or "For" choice, by its label. */
const personChoice = (scope: Page | ReturnType<Page['getByRole']>, label: 'Person' | 'For') =>
  scope.getByRole('combobox', { name: label, exact: true });

const devices: [string, Viewport][] = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
];

describe('each person’s own chart', () => {
  for (const [device, viewport] of devices) {
    test(`on a ${device}, a parent uploads a file for their child and finds it under the child in View Records`, async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      await addMember(page, 'Mia Rivers');

      await open(page, '/update-records');
      const forChoice = personChoice(page, 'For');
      await expectVisible(forChoice);
      // Nobody chosen on the dashboard: the upload is for yourself until the user says otherwise.
      expect(await forChoice.locator('option:checked').textContent()).toMatch(/\(you\)$|^You$/);
      await forChoice.selectOption({ label: 'Mia Rivers' });
      await page
        .getByLabel('File', { exact: true })
        .setInputFiles({ name: 'vaccination-card.pdf', mimeType: 'application/pdf', buffer: tinyPdf('Vaccines') });
      await page.getByLabel('Healthcare Provider').fill('Dr. Park');
      await screenshot(page, `people-upload-for-${device}`);
      await expectNoA11yViolations(page, `/update-records with For (${device})`);
      await page.getByRole('button', { name: 'Upload File' }).click();
      await expectVisible(page.getByText('Uploaded “vaccination-card” successfully.'));

      // A record of the parent's own, to tell the two apart.
      await seedRecord(page, {
        fileName: 'own-blood-test.pdf',
        mimeType: 'application/pdf',
        buffer: tinyPdf('Own'),
        customName: 'Own blood test',
      });

      await open(page, '/view-records');
      const filter = personChoice(page, 'Person');
      await expectVisible(filter);
      expect(await filter.locator('option:checked').textContent()).toBe('Everyone');
      const list = page.getByRole('list', { name: 'Medical records' });
      await expectVisible(list.getByRole('article', { name: 'vaccination-card', exact: true }));
      await expectVisible(list.getByRole('article', { name: 'Own blood test', exact: true }));
      await expectVisible(list.getByRole('article', { name: 'vaccination-card', exact: true }).getByText('Mia Rivers', { exact: true }));

      await filter.selectOption({ label: 'Mia Rivers' });
      await expectHidden(list.getByRole('article', { name: 'Own blood test', exact: true }));
      const card = list.getByRole('article', { name: 'vaccination-card', exact: true });
      await expectVisible(card);
      await expectVisible(card.getByText('Dr. Park', { exact: true }));
      expect(new URL(page.url()).searchParams.get('person')).toBeTruthy();
      await screenshot(page, `people-view-records-filtered-${device}`);
      await expectNoA11yViolations(page, `/view-records filtered by person (${device})`);

      // The filter holds across a reload.
      await page.reload({ waitUntil: 'networkidle' });
      await expectVisible(list.getByRole('article', { name: 'vaccination-card', exact: true }));
      await expectHidden(list.getByRole('article', { name: 'Own blood test', exact: true }));
    });

    test(`on a ${device}, a parent adds an appointment for their child and sees it on Appointments with the child's name`, async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      await addMember(page, 'Mia Rivers');
      const today = await browserDay(page);
      // One of the parent's own, the same day.
      await apiCall(page, 'POST', '/api/user/appointments', {
        appointment_date: today,
        start_time: `${today}T08:00`,
        end_time: `${today}T08:30`,
        provider_name: 'Dr. Own',
        reason_for_visit: 'Blood test',
      });

      await open(page, '/appointments');
      await page.getByRole('button', { name: 'Add New Appointment' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add New Appointment' });
      await personChoice(dialog, 'For').selectOption({ label: 'Mia Rivers' });
      await dialog.getByLabel('Date', { exact: true }).fill(today);
      await dialog.getByLabel('Start Time', { exact: true }).fill('10:00');
      await dialog.getByLabel('End Time', { exact: true }).fill('10:30');
      await dialog.getByLabel('Provider Name', { exact: true }).fill('Dr. Park');
      await dialog.getByLabel('Reason for Visit', { exact: true }).fill('Vaccines');
      await screenshot(page, `people-appointment-for-${device}`);
      await expectNoA11yViolations(page, `add appointment with For (${device})`);
      await dialog.getByRole('button', { name: 'Add Appointment' }).click();
      await expectHidden(dialog);

      // Everyone: each event names its person; the legend says which colour is whose.
      const calendar = page.locator('.rbc-calendar');
      await expectVisible(calendar.getByRole('button', { name: 'Mia Rivers: Dr. Park - Vaccines' }));
      await expectVisible(calendar.getByRole('button', { name: /: Dr\. Own - Blood test$/ }));
      const legend = page.getByRole('list', { name: 'Calendar colours' });
      await expectVisible(legend.getByText('Mia Rivers', { exact: true }));
      const colours = await Promise.all(
        ['Mia Rivers: Dr. Park - Vaccines', /: Dr\. Own - Blood test$/].map((name) =>
          calendar
            .getByRole('button', { name })
            .first()
            .evaluate((el) => getComputedStyle(el).backgroundColor),
        ),
      );
      expect(colours[0]).not.toBe(colours[1]);
      await screenshot(page, `people-appointments-everyone-${device}`);
      await expectNoA11yViolations(page, `/appointments, everyone (${device})`);

      // The agenda too, and the details say whose appointment it is.
      await calendar.getByRole('button', { name: 'Agenda', exact: true }).click();
      const agenda = page.locator('.rbc-agenda-view');
      await agenda.getByRole('button', { name: 'Mia Rivers: Dr. Park - Vaccines' }).click();
      const details = page.getByRole('dialog', { name: 'Appointment Details' });
      await expectVisible(details.getByText('Mia Rivers', { exact: true }));
      await screenshot(page, `people-appointment-details-${device}`);
      await details.getByRole('button', { name: 'Close', exact: true }).click();
      await expectHidden(details);

      // One person: only theirs.
      await personChoice(page, 'Person').selectOption({ label: 'Mia Rivers' });
      await expectVisible(agenda.getByRole('button', { name: 'Mia Rivers: Dr. Park - Vaccines' }));
      await expectHidden(agenda.getByRole('button', { name: /Dr\. Own/ }));
      await screenshot(page, `people-appointments-filtered-${device}`);
      await expectNoA11yViolations(page, `/appointments filtered by person (${device})`);
    });
  }

  test('the dashboard’s Recent Uploads and Upcoming appointments follow the selected person, and the For choices start on them', async () => {
    for (const [device, viewport] of devices) {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      const mia = await addMember(page, 'Mia Rivers');
      const tomorrow = await browserDay(page, 1);
      await seedRecord(page, { fileName: 'own.pdf', mimeType: 'application/pdf', buffer: tinyPdf('Own'), customName: 'Own blood test' });
      await seedRecord(page, {
        fileName: 'mia.pdf',
        mimeType: 'application/pdf',
        buffer: tinyPdf('Mia'),
        customName: 'Mia vaccination card',
        personId: mia,
      });
      await apiCall(page, 'POST', '/api/user/appointments', {
        appointment_date: tomorrow,
        start_time: `${tomorrow}T09:00`,
        end_time: `${tomorrow}T09:30`,
        provider_name: 'Dr. Own',
      });
      await apiCall(page, 'POST', '/api/user/appointments', {
        appointment_date: tomorrow,
        start_time: `${tomorrow}T11:00`,
        end_time: `${tomorrow}T11:30`,
        provider_name: 'Dr. Park',
        reason_for_visit: 'Vaccines',
        person_id: mia,
      });

      await open(page, '/dashboard');
      const recent = page.getByRole('region', { name: 'Recent Uploads' });
      const upcoming = page.getByRole('region', { name: 'Upcoming appointments' });
      await expectVisible(recent.getByRole('heading', { name: 'Own blood test' }));
      await expectVisible(upcoming.getByText('Dr. Own', { exact: true }));
      await expectHidden(recent.getByRole('heading', { name: 'Mia vaccination card' }));
      await expectHidden(upcoming.getByText('Dr. Park - Vaccines'));

      await page.getByRole('group', { name: 'Whose profile to show' }).getByRole('button', { name: 'Mia Rivers' }).click();
      await expectVisible(recent.getByRole('heading', { name: 'Mia vaccination card' }));
      await expectVisible(upcoming.getByText('Dr. Park - Vaccines', { exact: true }));
      await expectHidden(recent.getByRole('heading', { name: 'Own blood test' }));
      await expectHidden(upcoming.getByText('Dr. Own', { exact: true }));
      await screenshot(page, `people-dashboard-member-${device}`);
      await expectNoA11yViolations(page, `/dashboard with a member selected (${device})`);

      // The choice made on the dashboard is where the "For" choices start.
      await open(page, '/update-records');
      expect(await personChoice(page, 'For').locator('option:checked').textContent()).toBe('Mia Rivers');
      await open(page, '/appointments');
      await page.getByRole('button', { name: 'Add New Appointment' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add New Appointment' });
      expect(await personChoice(dialog, 'For').locator('option:checked').textContent()).toBe('Mia Rivers');
      await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
      // …and Prescriptions shows their medications.
      await open(page, '/prescriptions');
      expect(await personChoice(page, 'Person').locator('option:checked').textContent()).toBe('Mia Rivers');
      await screenshot(page, `people-prescriptions-member-${device}`);
      await expectNoA11yViolations(page, `/prescriptions for a member (${device})`);
    }
  });

  test('a person shared with the user shows in the switcher with "Shared by", and a viewer cannot edit them', async () => {
    const parent = await newPage();
    const owner = await signUpAndLogIn(parent);
    const mia = await addMember(parent, 'Mia Rivers');
    await seedRecord(parent, {
      fileName: 'mia.pdf',
      mimeType: 'application/pdf',
      buffer: tinyPdf('Mia'),
      customName: 'Mia vaccination card',
      personId: mia,
    });
    const share = await apiCall(parent, 'POST', `/api/user/people/${mia}/shares`, { role: 'viewer' });
    const token = new URL(String(share.invite_url)).pathname.split('/').pop() ?? '';

    for (const [device, viewport] of devices) {
      const page = await newPage(viewport);
      const sitter = uniqueUser('sitter');
      await signUpAndLogIn(page, sitter);
      if (device === 'desktop') await apiCall(page, 'POST', `/api/user/invitations/${token}/accept`, {});
      else {
        // The invitation is single use: the phone's account gets one of its own.
        const second = await apiCall(parent, 'POST', `/api/user/people/${mia}/shares`, { role: 'viewer' });
        await apiCall(
          page,
          'POST',
          `/api/user/invitations/${new URL(String(second.invite_url)).pathname.split('/').pop() ?? ''}/accept`,
          {},
        );
      }

      await open(page, '/dashboard');
      const button = page
        .getByRole('group', { name: 'Whose profile to show' })
        .getByRole('button', { name: `Mia Rivers Shared by ${owner.username}`, exact: true });
      await expectVisible(button);
      await button.click();
      const info = page.getByRole('region', { name: 'Profile Information' });
      await expectVisible(info.getByText('Your access: Viewer'));
      await expectHidden(info.getByRole('link', { name: /Edit/ }));
      await expectVisible(page.getByRole('region', { name: 'Recent Uploads' }).getByRole('heading', { name: 'Mia vaccination card' }));
      await screenshot(page, `people-dashboard-shared-${device}`);
      await expectNoA11yViolations(page, `/dashboard with a shared person (${device})`);

      // View Records names them; a viewer opens but does not rename or delete.
      await open(page, '/view-records');
      const card = page.getByRole('article', { name: 'Mia vaccination card', exact: true });
      await expectVisible(card);
      await expectHidden(card.getByRole('button', { name: /Delete/ }));
      expect(await personChoice(page, 'Person').locator('option').allTextContents()).toContain(`Mia Rivers (Shared by ${owner.username})`);
      // Nothing to add for a person the user only views: the For choice leaves them out.
      await open(page, '/update-records');
      await expectHidden(personChoice(page, 'For'));
    }
  });
});
