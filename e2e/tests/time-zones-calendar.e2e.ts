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

useBrowser();

// Issue 32: the account's time zone (the browser's, taken once after sign-in) and reminder
// channels in Settings, private calendar feeds (docs/decisions/0045), a person's own time zone in
// both editors, and the appointment form's reminders.

const DEVICES = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const;

async function getJson<T>(page: Page, route: string): Promise<T> {
  const res = await page.request.get(route);
  expect(res.ok(), `GET ${route}`).toBe(true);
  return (await res.json()) as T;
}

describe('time zones, reminders and calendar feeds', () => {
  for (const [device, viewport] of DEVICES) {
    test(`Settings: the browser's zone is taken once, then changed with the channels; a calendar feed is made, copied and revoked (${device})`, async () => {
      const page = await newPage(viewport, { timezoneId: 'Europe/Madrid' });
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await signUpAndLogIn(page);
      // The account was made without a zone (through the API): the app sets the browser's once.
      await expect
        .poll(async () => (await getJson<{ time_zone: string }>(page, '/api/user/preferences')).time_zone, { timeout: 10_000 })
        .toBe('Europe/Madrid');

      await open(page, '/settings?tab=account');
      const prefs = page.getByRole('region', { name: 'Time zone and reminders' });
      const zone = prefs.getByLabel('Time zone', { exact: true });
      await expect.poll(() => zone.inputValue(), { timeout: 10_000 }).toBe('Europe/Madrid');
      await prefs.getByLabel('Search time zones').fill('tokyo');
      await expectVisible(prefs.getByText('1 zone matches'));
      await zone.selectOption('Asia/Tokyo');
      await prefs.getByLabel('Email', { exact: true }).uncheck();
      await prefs.getByLabel(/^Minimal email and push/).check();
      await prefs.getByRole('button', { name: 'Save preferences' }).click();
      await expectVisible(prefs.getByText('Preferences saved successfully.'));
      expect(await getJson(page, '/api/user/preferences')).toEqual({
        time_zone: 'Asia/Tokyo',
        time_zone_set: true,
        reminder_email: false,
        reminder_push: true,
        reminder_minimal: true,
        // Issue 33: the browser's languages (en-US) were taken once too, in the same request as its zone.
        document_languages: ['en'],
        document_languages_set: true,
        // Issue 35: the account speaks the browser's language (en-US), in feet and pounds.
        language: 'en',
        language_set: true,
        units: 'imperial',
      });
      await expectNoA11yViolations(page, `Settings → Time zone and reminders (${device})`);
      await prefs.scrollIntoViewIfNeeded();
      await screenshot(page, `settings-time-zone-${device}`);

      const calendar = page.getByRole('region', { name: 'Calendar', exact: true });
      await expectVisible(calendar.getByText('You have no calendar feeds.'));
      await expect.poll(() => calendar.getByLabel('Calendar of').inputValue(), { timeout: 10_000 }).toBe('');
      await calendar.getByLabel('Include medication times').check();
      await calendar.getByRole('button', { name: 'Create calendar feed' }).click();
      const address = calendar.getByLabel('Calendar feed address');
      await expectVisible(address);
      const url = await address.inputValue();
      expect(url).toMatch(/\/api\/calendar\/[\w-]{43}\.ics$/);
      await calendar.getByRole('button', { name: 'Copy', exact: true }).click();
      await expectVisible(calendar.getByText('Address copied successfully.'));
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
      expect(await calendar.getByRole('link', { name: 'Open in calendar app' }).getAttribute('href')).toBe(
        url.replace(/^https?:\/\//, 'webcal://'),
      );
      const feedItem = calendar.getByRole('listitem').filter({ hasText: 'Everyone' });
      await expectVisible(feedItem.getByText('Appointments and medication times'));
      await expectVisible(feedItem.getByText('Never'));

      // What a calendar app fetches (without a session: apps/server/test/calendar-feeds.test.ts).
      const read = await page.request.get(url);
      expect(read.status()).toBe(200);
      expect(read.headers()['content-type']).toBe('text/calendar; charset=utf-8');
      expect(await read.text()).toContain('BEGIN:VCALENDAR');
      await expectNoA11yViolations(page, `Settings → Calendar with a new feed (${device})`);
      await calendar.scrollIntoViewIfNeeded();
      await screenshot(page, `settings-calendar-new-feed-${device}`);

      await calendar.getByRole('button', { name: 'Done' }).click();
      await expectHidden(address);
      await calendar.getByRole('button', { name: 'Revoke the calendar feed of Everyone' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Revoke this calendar feed?' });
      await expectVisible(confirm);
      await expectNoA11yViolations(page, `Revoke calendar feed dialog (${device})`);
      await confirm.getByRole('button', { name: 'Revoke', exact: true }).click();
      await expectHidden(confirm);
      await expectVisible(calendar.getByText('Calendar feed of Everyone revoked successfully.'));
      await expectVisible(calendar.getByText('You have no calendar feeds.'));
      expect((await page.context().request.get(url)).status()).toBe(404);
    });

    test(`a calendar feed restored from an export says it needs a new address, gets one, and a new one again after asking (${device})`, async () => {
      // The export's account: a minimal feed of Mia (decision 0045: the zip holds its settings, never its address).
      const source = await newPage(viewport);
      await signUpAndLogIn(source);
      const mia = await apiCall(source, 'POST', '/api/user/family/add', {
        name: 'Mia',
        date_of_birth: '2016-02-03',
        relationship: 'child',
      });
      const old = await apiCall(source, 'POST', '/api/user/calendar-feeds', { person_id: mia.id, minimal: true });
      const exported = await source.request.get('/api/user/export');
      expect(exported.status()).toBe(200);
      const zip = await exported.body();

      const page = await newPage(viewport);
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await signUpAndLogIn(page);
      await open(page, '/settings?tab=account');
      const importing = page.getByRole('region', { name: 'Import and Export' });
      await importing.getByLabel('File to import').setInputFiles({ name: 'kinchart-export.zip', mimeType: 'application/zip', buffer: zip });
      await importing.getByRole('button', { name: 'Import', exact: true }).click();
      await expectVisible(importing.getByText('Import complete.'));

      const calendar = page.getByRole('region', { name: 'Calendar', exact: true });
      const feedItem = calendar.getByRole('listitem').filter({ hasText: 'Mia' });
      const note = feedItem.getByText('Restored from an export — get a new address to subscribe.');
      await expectVisible(note);
      await expectVisible(feedItem.getByText('Appointments, minimal titles'));
      await expectNoA11yViolations(page, `Settings → Calendar with a restored feed (${device})`);
      await feedItem.scrollIntoViewIfNeeded();
      await screenshot(page, `settings-calendar-restored-feed-${device}`);

      // A restored feed has no address anyone knows: one click gives it one, shown once.
      await feedItem.getByRole('button', { name: 'Get a new address for the calendar feed of Mia' }).click();
      const panel = calendar.getByRole('region', { name: 'New address of the calendar feed of Mia' });
      const address = panel.getByLabel('Calendar feed address');
      await expectVisible(address);
      const url = await address.inputValue();
      expect(url).toMatch(/\/api\/calendar\/[\w-]{43}\.ics$/);
      expect(url).not.toBe(old.url);
      await panel.getByRole('button', { name: 'Copy', exact: true }).click();
      await expectVisible(panel.getByText('Address copied successfully.'));
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
      expect(await panel.getByRole('link', { name: 'Open in calendar app' }).getAttribute('href')).toBe(
        url.replace(/^https?:\/\//, 'webcal://'),
      );
      await expectHidden(note);
      const read = await page.request.get(url);
      expect(read.status()).toBe(200);
      expect(await read.text()).toContain('BEGIN:VCALENDAR');
      await expectNoA11yViolations(page, `Settings → Calendar, a restored feed's new address (${device})`);
      await panel.scrollIntoViewIfNeeded();
      await screenshot(page, `settings-calendar-renewed-feed-${device}`);

      // A feed in use: asked first, since the address in use stops working.
      await panel.getByRole('button', { name: 'Done' }).click();
      await expectHidden(panel);
      await feedItem.getByRole('button', { name: 'Get a new address for the calendar feed of Mia' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Get a new address for this calendar feed?' });
      await expectVisible(confirm);
      await expectNoA11yViolations(page, `New calendar feed address dialog (${device})`);
      await confirm.getByRole('button', { name: 'New address', exact: true }).click();
      await expectHidden(confirm);
      await expectVisible(address);
      const next = await address.inputValue();
      expect(next).not.toBe(url);
      expect((await page.context().request.get(url)).status()).toBe(404);
      expect((await page.context().request.get(next)).status()).toBe(200);
    });

    test(`a person's time zone is chosen in the profile editor and the member editor (${device})`, async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      await apiCall(page, 'PUT', '/api/user/updateProfile', { name: 'Alice Example', date_of_birth: '1980-03-04' });
      // The full profile editor.
      await open(page, '/profile');
      const zone = page.getByLabel('Time zone', { exact: true });
      await expect.poll(() => zone.inputValue(), { timeout: 10_000 }).toBe('');
      expect(await zone.locator('option:checked').textContent()).toBe('Same as my account');
      await page.getByLabel('Search time zones').fill('new york');
      await expectVisible(page.getByText('1 zone matches'));
      await zone.selectOption('America/New_York');
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await expectVisible(page.getByText('Profile updated successfully!'));
      expect((await getJson<{ time_zone: string | null }>(page, '/api/user/getPatientProfile')).time_zone).toBe('America/New_York');

      const member = await apiCall(page, 'POST', '/api/user/family/add', {
        name: 'Carol',
        date_of_birth: '2012-09-15',
        relationship: 'child',
        time_zone: 'Europe/Lisbon',
      });
      const editor = `/edit-family-member/${String(member.id)}`;
      await open(page, editor);
      const memberZone = page.getByLabel('Time zone', { exact: true });
      await expect.poll(() => memberZone.inputValue(), { timeout: 10_000 }).toBe('Europe/Lisbon');
      await memberZone.selectOption('');
      await page.getByRole('button', { name: 'Update Family Member' }).click();
      await expectPath(page, '/dashboard');
      expect((await getJson<{ time_zone: string | null }>(page, `/api/user/family/members/${String(member.id)}`)).time_zone).toBeNull();

      // Looked at last: a full-page screenshot resizes the page, and a save right after one was
      // seen not to go out on desktop (noted for the lead; the profile editor, not this field).
      await open(page, editor);
      await expect.poll(() => memberZone.inputValue(), { timeout: 10_000 }).toBe('');
      await page.getByLabel('Search time zones').fill('lisbon');
      await memberZone.scrollIntoViewIfNeeded();
      await expectNoA11yViolations(page, `member editor time zone (${device})`);
      await screenshot(page, `member-time-zone-${device}`);
    });

    test(`the appointment form chooses its reminders (${device})`, async () => {
      const page = await newPage(viewport);
      await signUpAndLogIn(page);
      await open(page, '/appointments');
      await page.getByRole('button', { name: 'Add New Appointment' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add New Appointment' });
      await dialog.getByLabel('Date', { exact: true }).fill('2030-05-02');
      await dialog.getByLabel('Start Time', { exact: true }).fill('09:30');
      await dialog.getByLabel('End Time', { exact: true }).fill('10:00');
      await dialog.getByLabel('Provider Name', { exact: true }).fill('Dr. Chen');
      const reminders = dialog.getByRole('group', { name: 'Reminders' });
      // A day and two hours before, unless changed.
      expect(await reminders.getByLabel('1 day before').isChecked()).toBe(true);
      expect(await reminders.getByLabel('2 hours before').isChecked()).toBe(true);
      await reminders.getByLabel('1 day before').uncheck();
      await reminders.getByLabel('15 minutes before').check();
      await reminders.getByLabel('At the time of the appointment').check();
      await reminders.scrollIntoViewIfNeeded();
      await expectNoA11yViolations(page, `appointment form reminders (${device})`);
      await screenshot(page, `appointment-reminders-${device}`);
      await dialog.getByRole('button', { name: 'Add Appointment' }).click();
      await expectHidden(dialog);
      const [saved] = await getJson<{ reminder_minutes: number[] }[]>(page, '/api/user/appointments');
      expect(saved?.reminder_minutes).toEqual([120, 15, 0]);
    });
  }
});
