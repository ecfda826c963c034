import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  DESKTOP,
  baseUrl,
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

const calendar = (page: Page) => page.locator('.rbc-calendar');
const viewButton = (page: Page, name: string) => calendar(page).getByRole('button', { name, exact: true });

interface NewAppointment {
  date: string;
  start: string;
  end: string;
  provider: string;
  reason?: string;
  location?: string;
}

async function addAppointment(page: Page, a: NewAppointment, { capture }: { capture?: string } = {}) {
  await page.getByRole('button', { name: 'Add New Appointment' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New Appointment' });
  await dialog.getByLabel('Date', { exact: true }).fill(a.date);
  await dialog.getByLabel('Start Time', { exact: true }).fill(a.start);
  await dialog.getByLabel('End Time', { exact: true }).fill(a.end);
  await dialog.getByLabel('Provider Name', { exact: true }).fill(a.provider);
  if (a.reason) await dialog.getByLabel('Reason for Visit', { exact: true }).fill(a.reason);
  if (a.location) await dialog.getByLabel('Location', { exact: true }).fill(a.location);
  if (capture) {
    await screenshot(page, capture);
    await expectNoA11yViolations(page, `${capture} (add modal)`);
  }
  await dialog.getByRole('button', { name: 'Add Appointment' }).click();
  await expectHidden(dialog);
}

describe('appointments', () => {
  test('a patient adds an appointment, finds it in month and agenda views, opens it and deletes it', async () => {
    const page = await newPage();
    await signUpAndLogIn(page);
    await open(page, '/appointments');
    await expectVisible(page.getByRole('heading', { level: 1, name: 'Appointments' }));
    await expectVisible(page.getByText('Manage your healthcare appointments'));
    await expectVisible(calendar(page));

    // The form is refused by the browser while required fields are empty.
    await page.getByRole('button', { name: 'Add New Appointment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Appointment' });
    await dialog.getByRole('button', { name: 'Add Appointment' }).click();
    await expectVisible(dialog);
    expect(await dialog.getByLabel('Date', { exact: true }).evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await expectHidden(dialog);

    const today = await browserToday(page);
    await addAppointment(page, {
      date: today,
      start: '10:00',
      end: '10:30',
      provider: 'Dr. Chen',
      reason: 'Annual check-up',
      location: 'Riverside Clinic',
    });

    // Month view (the default): the event title is provider + reason.
    const title = 'Dr. Chen - Annual check-up';
    const monthEvent = page.locator('.rbc-month-view').getByRole('button', { name: title });
    await expectVisible(monthEvent);

    // Keyboard: the month event is focusable and Enter opens it.
    await monthEvent.focus();
    await page.keyboard.press('Enter');
    const details = page.getByRole('dialog', { name: 'Appointment Details' });
    await expectVisible(details.getByText('10:00 AM'));
    await details.getByRole('button', { name: 'Close', exact: true }).click();
    await expectHidden(details);

    // Agenda view: 12-hour times.
    await viewButton(page, 'Agenda').click();
    const agenda = page.locator('.rbc-agenda-view');
    await expectVisible(agenda.getByRole('button', { name: title }));
    await expectVisible(agenda.getByText('10:00 AM – 10:30 AM'));

    // Details, then Delete: a confirmation first (Cancel keeps it), then the modal closes and
    // the list reloads without it.
    await agenda.getByRole('button', { name: title }).click();
    await expectVisible(details);
    await expectVisible(details.getByText('Dr. Chen', { exact: true }));
    await expectVisible(details.getByText('Annual check-up', { exact: true }));
    await expectVisible(details.getByText('Riverside Clinic', { exact: true }));
    await expectVisible(details.getByText('10:30 AM'));
    await details.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete Appointment' });
    await expectVisible(confirm);
    await confirm.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expectHidden(confirm);
    await expectVisible(details);
    await details.getByRole('button', { name: 'Delete', exact: true }).click();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expectHidden(confirm);
    await expectHidden(details);
    await expectVisible(agenda.getByText('There are no events in this range.'));

    await page.reload({ waitUntil: 'networkidle' });
    await expectVisible(calendar(page));
    await expectHidden(page.getByRole('button', { name: title }));
  });

  test('a patient edits an appointment from its details and the calendar shows the change after a reload', async () => {
    const page = await newPage();
    await signUpAndLogIn(page);
    await open(page, '/appointments');
    const today = await browserToday(page);
    await addAppointment(page, {
      date: today,
      start: '10:00',
      end: '10:30',
      provider: 'Dr. Chen',
      reason: 'Annual check-up',
      location: 'Riverside Clinic',
    });

    await page.locator('.rbc-month-view').getByRole('button', { name: 'Dr. Chen - Annual check-up' }).click();
    await page.getByRole('dialog', { name: 'Appointment Details' }).getByRole('button', { name: 'Edit', exact: true }).click();
    const form = page.getByRole('dialog', { name: 'Edit Appointment' });
    expect(await form.getByLabel('Date', { exact: true }).inputValue()).toBe(today);
    expect(await form.getByLabel('Start Time', { exact: true }).inputValue()).toBe('10:00');
    expect(await form.getByLabel('End Time', { exact: true }).inputValue()).toBe('10:30');
    expect(await form.getByLabel('Provider Name', { exact: true }).inputValue()).toBe('Dr. Chen');
    expect(await form.getByLabel('Location', { exact: true }).inputValue()).toBe('Riverside Clinic');
    await form.getByLabel('Start Time', { exact: true }).fill('11:15');
    await form.getByLabel('End Time', { exact: true }).fill('12:00');
    await form.getByLabel('Reason for Visit', { exact: true }).fill('Blood test');
    await form.getByRole('button', { name: 'Save Changes' }).click();
    await expectHidden(form);

    await page.reload({ waitUntil: 'networkidle' });
    await viewButton(page, 'Agenda').click();
    const agenda = page.locator('.rbc-agenda-view');
    await expectVisible(agenda.getByRole('button', { name: 'Dr. Chen - Blood test' }));
    await expectVisible(agenda.getByText('11:15 AM – 12:00 PM'));
    await expectHidden(page.getByRole('button', { name: 'Dr. Chen - Annual check-up' }));
  });

  test('adding while the server is unreachable says so in the dialog, keeps the form, and a retry adds it', async () => {
    const page = await newPage();
    await signUpAndLogIn(page);
    await open(page, '/appointments');
    const today = await browserToday(page);

    // The connection drops for the add call only.
    const offline = '**/api/user/appointments';
    await page.route(offline, (route) => (route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.fallback()));
    await page.getByRole('button', { name: 'Add New Appointment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Appointment' });
    await dialog.getByLabel('Date', { exact: true }).fill(today);
    await dialog.getByLabel('Start Time', { exact: true }).fill('09:00');
    await dialog.getByLabel('End Time', { exact: true }).fill('09:30');
    await dialog.getByLabel('Provider Name', { exact: true }).fill('Dr. Offline');
    await dialog.getByRole('button', { name: 'Add Appointment' }).click();
    const alert = dialog.getByRole('alert');
    await expectVisible(alert);
    expect(await alert.textContent()).toContain('Could not reach the server');
    expect(await dialog.getByLabel('Provider Name', { exact: true }).inputValue()).toBe('Dr. Offline');
    expect(await dialog.getByLabel('Start Time', { exact: true }).inputValue()).toBe('09:00');
    await screenshot(page, 'appointments-add-offline-desktop');
    await expectNoA11yViolations(page, '/appointments add modal with an error');

    await page.unroute(offline);
    await dialog.getByRole('button', { name: 'Add Appointment' }).click();
    await expectHidden(dialog);
    await expectVisible(page.locator('.rbc-month-view').getByRole('button', { name: 'Dr. Offline' }));
  });

  test('an appointment without a reason shows the provider alone and the .ics download has it', async () => {
    const page = await newPage();
    await signUpAndLogIn(page);
    await open(page, '/appointments');
    const today = await browserToday(page);
    await addAppointment(page, { date: today, start: '14:15', end: '15:00', provider: 'Dr. Okafor', location: 'Main St. Dental' });
    await expectVisible(page.locator('.rbc-month-view').getByRole('button', { name: 'Dr. Okafor' }));

    const link = page.getByRole('link', { name: 'Download calendar (.ics)' });
    const tz = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(await link.getAttribute('href')).toBe(`/api/user/appointments.ics?tz=${encodeURIComponent(tz)}`);

    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/\.ics$/);
    const file = await download.path();
    const text = await readFile(file, 'utf8');
    expect(text.startsWith('BEGIN:VCALENDAR')).toBe(true);
    expect(text).toContain('BEGIN:VEVENT');
    expect(text).toContain('SUMMARY:Dr. Okafor');
    expect(text).toContain('LOCATION:Main St. Dental');
    expect(text.trimEnd().endsWith('END:VCALENDAR')).toBe(true);
  });

  test('week and day views show the appointment on a 12-hour clock', async () => {
    const page = await newPage();
    await signUpAndLogIn(page);
    await open(page, '/appointments');
    await addAppointment(page, { date: await browserToday(page), start: '13:30', end: '14:00', provider: 'Dr. Chen', reason: 'Follow-up' });

    await viewButton(page, 'Week').click();
    await expectVisible(page.locator('.rbc-time-view').getByRole('button', { name: /Dr\. Chen - Follow-up/ }));
    await expectVisible(page.locator('.rbc-time-gutter').getByText('1 PM', { exact: true }));
    await expectVisible(page.locator('.rbc-time-view .rbc-event-label').getByText('1:30 PM – 2:00 PM'));

    await viewButton(page, 'Day').click();
    await page
      .locator('.rbc-time-view')
      .getByRole('button', { name: /Dr\. Chen - Follow-up/ })
      .click();
    await expectVisible(page.getByRole('dialog', { name: 'Appointment Details' }).getByText('1:30 PM'));
  });

  test('a busy day shows a "+N more" link in the month view that opens the day', async () => {
    const page = await newPage();
    await signUpAndLogIn(page);
    const today = await browserToday(page);
    for (let hour = 8; hour < 16; hour += 1) {
      const time = `${String(hour).padStart(2, '0')}:00`;
      const res = await page.request.post('/api/user/appointments', {
        headers: { Origin: baseUrl() },
        data: {
          appointment_date: today,
          start_time: `${today}T${time}`,
          end_time: `${today}T${time.replace(':00', ':30')}`,
          provider_name: `Dr. Hour ${hour}`,
        },
      });
      expect(res.status()).toBe(201);
    }
    await open(page, '/appointments');
    const more = page.locator('.rbc-month-view').getByRole('button', { name: /^\+\d+ more$/ });
    await expectVisible(more);
    await expectNoA11yViolations(page, '/appointments month with +N more');
    await screenshot(page, 'appointments-month-show-more-desktop');
    await more.click();
    await expectVisible(viewButton(page, 'Day').and(page.locator('.rbc-active')));
    await expectVisible(page.locator('.rbc-time-view').getByRole('button', { name: /Dr\. Hour 15/ }));
    await expectNoA11yViolations(page, '/appointments day view');
    await viewButton(page, 'Work Week').click();
    await expectVisible(page.locator('.rbc-time-view'));
    await expectNoA11yViolations(page, '/appointments work week view');
  });

  for (const [device, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`the appointments screens pass axe and are captured on a ${device}`, async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      await open(page, '/appointments');
      await expectVisible(calendar(page));
      await expectNoA11yViolations(page, `/appointments empty month (${device})`);

      const today = await browserToday(page);
      await addAppointment(
        page,
        { date: today, start: '09:00', end: '09:45', provider: 'Dr. Chen', reason: 'Annual check-up', location: 'Riverside Clinic' },
        { capture: `appointments-add-modal-${device}` },
      );
      await addAppointment(page, { date: today, start: '15:30', end: '16:00', provider: 'Dr. Okafor', reason: 'Dental cleaning' });
      await expectVisible(page.locator('.rbc-month-view').getByRole('button', { name: /Dr\. Okafor/ }));
      await screenshot(page, `appointments-month-${device}`);
      await expectNoA11yViolations(page, `/appointments month (${device})`);

      await viewButton(page, 'Week').click();
      await expectVisible(page.locator('.rbc-time-view'));
      await screenshot(page, `appointments-week-${device}`);
      await expectNoA11yViolations(page, `/appointments week (${device})`);

      await viewButton(page, 'Agenda').click();
      await expectVisible(page.locator('.rbc-agenda-view'));
      await screenshot(page, `appointments-agenda-${device}`);
      await expectNoA11yViolations(page, `/appointments agenda (${device})`);

      await page.locator('.rbc-agenda-view').getByRole('button', { name: 'Dr. Chen - Annual check-up' }).click();
      await expectVisible(page.getByRole('dialog', { name: 'Appointment Details' }));
      // Focus starts on Close, never on Delete (issue 30).
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Close');
      await screenshot(page, `appointments-details-modal-${device}`);
      await expectNoA11yViolations(page, `/appointments details modal (${device})`);

      await page.getByRole('dialog', { name: 'Appointment Details' }).getByRole('button', { name: 'Delete', exact: true }).click();
      await expectVisible(page.getByRole('alertdialog', { name: 'Delete Appointment' }));
      await screenshot(page, `appointments-delete-confirm-${device}`);
      await expectNoA11yViolations(page, `/appointments delete confirmation (${device})`);
      await page.getByRole('alertdialog', { name: 'Delete Appointment' }).getByRole('button', { name: 'Cancel', exact: true }).click();

      await page.getByRole('dialog', { name: 'Appointment Details' }).getByRole('button', { name: 'Edit', exact: true }).click();
      await expectVisible(page.getByRole('dialog', { name: 'Edit Appointment' }));
      await screenshot(page, `appointments-edit-modal-${device}`);
      await expectNoA11yViolations(page, `/appointments edit modal (${device})`);
    });
  }
});
