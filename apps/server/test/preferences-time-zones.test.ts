import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { GOOD_PASSWORD, TestClient, buildTestApp, signedInUser, uniqueEmail } from './helpers';
import { exportZip, importFile, readZip } from './export-helpers';

// Issue 32: the account's zone and reminder channels, a person's own zone, and an appointment's
// reminder lead times — through the API, on SQLite and PostgreSQL.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const DEFAULTS = {
  time_zone: 'UTC',
  time_zone_set: false,
  reminder_email: true,
  reminder_push: true,
  reminder_minimal: false,
  // Issue 33: scans are read in English until the account chooses.
  document_languages: ['en'],
  document_languages_set: false,
  // Issue 35: a client without Accept-Language gets English (not chosen: the web app sets the
  // browser's) and the SPEC's imperial units.
  language: 'en',
  language_set: false,
  units: 'imperial',
};

describe('GET/PUT /api/user/preferences', () => {
  it('an account made without a zone reads as UTC, not set, with email and push on', async () => {
    const { client } = await signedInUser(t.app);
    const res = await client.get('/api/user/preferences');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(DEFAULTS);
  });

  it('sign-up keeps the browser’s zone, and leaves out one the server does not know', async () => {
    const madrid = new TestClient(t.app);
    const email = uniqueEmail('tz');
    expect(
      (await madrid.post('/api/auth/signup', { email, password: GOOD_PASSWORD, username: 'Ana', time_zone: 'Europe/Madrid' })).statusCode,
    ).toBe(201);
    expect((await madrid.post('/api/auth/login', { email, password: GOOD_PASSWORD })).statusCode).toBe(200);
    expect((await madrid.get('/api/user/preferences')).json()).toMatchObject({ time_zone: 'Europe/Madrid', time_zone_set: true });

    const odd = new TestClient(t.app);
    const other = uniqueEmail('tz');
    expect(
      (await odd.post('/api/auth/signup', { email: other, password: GOOD_PASSWORD, username: 'Bo', time_zone: 'Mars/Olympus' })).statusCode,
    ).toBe(201);
    await odd.post('/api/auth/login', { email: other, password: GOOD_PASSWORD });
    expect((await odd.get('/api/user/preferences')).json()).toEqual(DEFAULTS);

    const offset = new TestClient(t.app);
    const third = uniqueEmail('tz');
    await offset.post('/api/auth/signup', { email: third, password: GOOD_PASSWORD, username: 'Cal', time_zone: '+05:30' });
    await offset.post('/api/auth/login', { email: third, password: GOOD_PASSWORD });
    expect((await offset.get('/api/user/preferences')).json()).toEqual(DEFAULTS);
  });

  it('PUT changes the fields given and keeps the others', async () => {
    const { client } = await signedInUser(t.app);
    const zone = await client.put('/api/user/preferences', { time_zone: 'America/Montreal' });
    expect(zone.statusCode).toBe(200);
    expect(zone.json()).toEqual({ ...DEFAULTS, time_zone: 'America/Montreal', time_zone_set: true });
    const channels = await client.put('/api/user/preferences', { reminder_email: false, reminder_minimal: true });
    expect(channels.json()).toEqual({
      time_zone: 'America/Montreal',
      time_zone_set: true,
      reminder_email: false,
      reminder_push: true,
      reminder_minimal: true,
      document_languages: ['en'],
      document_languages_set: false,
      language: 'en',
      language_set: false,
      units: 'imperial',
    });
    expect((await client.get('/api/user/preferences')).json()).toEqual(channels.json());
  });

  it('stores a zone typed in another case in the zone database’s spelling, and keeps a link as chosen', async () => {
    const { client } = await signedInUser(t.app);
    expect((await client.put('/api/user/preferences', { time_zone: 'europe/madrid' })).json().time_zone).toBe('Europe/Madrid');
    expect((await client.get('/api/user/preferences')).json().time_zone).toBe('Europe/Madrid');
    expect((await client.put('/api/user/preferences', { time_zone: ' AMERICA/NEW_YORK ' })).json().time_zone).toBe('America/New_York');
    expect((await client.put('/api/user/preferences', { time_zone: 'US/Eastern' })).json().time_zone).toBe('US/Eastern');
    // A person's zone too, and the browser's at sign-up.
    expect((await client.put('/api/user/updateProfile', { name: 'Pat', time_zone: 'asia/tokyo' })).statusCode).toBe(200);
    expect((await client.get('/api/user/getPatientProfile')).json().time_zone).toBe('Asia/Tokyo');
    const member = await client.post('/api/user/family/add', {
      name: 'Mia',
      date_of_birth: '2016-02-03',
      relationship: 'child',
      time_zone: 'europe/lisbon',
    });
    expect(member.json().time_zone).toBe('Europe/Lisbon');
    const browser = new TestClient(t.app);
    const email = uniqueEmail('tz');
    await browser.post('/api/auth/signup', { email, password: GOOD_PASSWORD, username: 'Cy', time_zone: 'europe/paris' });
    await browser.post('/api/auth/login', { email, password: GOOD_PASSWORD });
    expect((await browser.get('/api/user/preferences')).json().time_zone).toBe('Europe/Paris');
  });

  it('preferences read, changed and sent back whole are taken: the answer’s own flags are ignored', async () => {
    const { client } = await signedInUser(t.app);
    const read = (await client.get('/api/user/preferences')).json<Record<string, unknown>>();
    const back = await client.put('/api/user/preferences', { ...read, time_zone: 'Asia/Tokyo', reminder_push: false });
    expect(back.statusCode, back.body).toBe(200);
    // time_zone_set follows the zone now set, not the false sent back; the languages were set by this PUT too.
    expect(back.json()).toEqual({
      ...DEFAULTS,
      time_zone: 'Asia/Tokyo',
      time_zone_set: true,
      reminder_push: false,
      document_languages_set: true,
      language_set: true,
    });
  });

  it('refuses an unknown zone, a non-boolean channel and an unknown field with 400 naming the field', async () => {
    const { client } = await signedInUser(t.app);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ time_zone: 'Europe/Atlantis' }, /time_zone.*must be an IANA time zone such as Europe\/Madrid/],
      // Intl takes a bare offset as a zone; it is no IANA zone (no daylight saving).
      [{ time_zone: '+05:00' }, /time_zone.*must be an IANA time zone/],
      [{ time_zone: '-0500' }, /time_zone.*must be an IANA time zone/],
      [{ time_zone: 42 }, /time_zone/],
      [{ time_zone: '' }, /time_zone/],
      [{ reminder_email: 'yes' }, /reminder_email.*must be true or false/],
      [{ reminder_push: 1 }, /reminder_push/],
      [{ colour: 'blue' }, /colour/],
    ];
    for (const [body, message] of cases) {
      const res = await client.put('/api/user/preferences', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message, JSON.stringify(body)).toMatch(message);
    }
    expect((await client.get('/api/user/preferences')).json()).toEqual(DEFAULTS);
  });

  it('PUT sets the language and the units; GET reads them back (issue 35)', async () => {
    const { client } = await signedInUser(t.app);
    const polish = await client.put('/api/user/preferences', { language: 'pl' });
    expect(polish.statusCode, polish.body).toBe(200);
    expect(polish.json()).toEqual({ ...DEFAULTS, language: 'pl', language_set: true });
    const metric = await client.put('/api/user/preferences', { units: 'metric' });
    expect(metric.json()).toEqual({ ...DEFAULTS, language: 'pl', language_set: true, units: 'metric' });
    const both = await client.put('/api/user/preferences', { language: 'zh-Hans', units: 'imperial' });
    expect(both.json()).toMatchObject({ language: 'zh-Hans', language_set: true, units: 'imperial' });
    expect((await client.get('/api/user/preferences')).json()).toEqual(both.json());
  });

  it('refuses an unknown language or units with 400 naming the field, and keeps the stored ones', async () => {
    const { client } = await signedInUser(t.app);
    await client.put('/api/user/preferences', { language: 'ar', units: 'metric' });
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ language: 'klingon' }, /language.*must be one of en, es/],
      [{ language: 'pt' }, /language/],
      [{ language: 'EN' }, /language/],
      [{ language: null }, /language/],
      [{ units: 'furlongs' }, /units.*must be imperial or metric/],
      [{ units: 1 }, /units/],
    ];
    for (const [body, message] of cases) {
      const res = await client.put('/api/user/preferences', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message, JSON.stringify(body)).toMatch(message);
    }
    expect((await client.get('/api/user/preferences')).json()).toMatchObject({ language: 'ar', language_set: true, units: 'metric' });
  });

  it('sign-up keeps the browser’s language (Accept-Language) and units; one Kinchart does not speak is left unset', async () => {
    const cases: [string, Record<string, unknown>][] = [
      ['pl-PL,pl;q=0.9,en-US;q=0.8,en;q=0.7', { language: 'pl', language_set: true, units: 'metric' }],
      ['en-US,en;q=0.9', { language: 'en', language_set: true, units: 'imperial' }],
      ['en-GB', { language: 'en', language_set: true, units: 'metric' }],
      ['sv-SE,sv;q=0.9,ar;q=0.5', { language: 'ar', language_set: true, units: 'metric' }],
      ['sv-SE,sv;q=0.9', { language: 'en', language_set: false, units: 'metric' }],
      ['zh-TW', { language: 'en', language_set: false, units: 'metric' }],
    ];
    for (const [header, expected] of cases) {
      const browser = new TestClient(t.app);
      const email = uniqueEmail('lang');
      const signup = await browser.post(
        '/api/auth/signup',
        { email, password: GOOD_PASSWORD, username: 'Ola' },
        { headers: { 'accept-language': header } },
      );
      expect(signup.statusCode, header).toBe(201);
      await browser.post('/api/auth/login', { email, password: GOOD_PASSWORD });
      expect((await browser.get('/api/user/preferences')).json(), header).toMatchObject(expected);
    }
  });

  it('answers 401 without a session', async () => {
    const anon = new TestClient(t.app);
    expect((await anon.get('/api/user/preferences')).statusCode).toBe(401);
    expect((await anon.put('/api/user/preferences', { time_zone: 'UTC' })).statusCode).toBe(401);
  });
});

describe('a person’s time zone', () => {
  it('the own profile carries time_zone (null: the account’s), set and cleared by updateProfile', async () => {
    const { client } = await signedInUser(t.app);
    expect((await client.get('/api/user/getPatientProfile')).json().time_zone).toBeNull();
    const set = await client.put('/api/user/updateProfile', { name: 'Pat', time_zone: 'Asia/Tokyo' });
    expect(set.statusCode, set.body).toBe(200);
    // Read twice: the second answer comes from the profile cache, which the change moved on from.
    expect((await client.get('/api/user/getPatientProfile')).json().time_zone).toBe('Asia/Tokyo');
    expect((await client.get('/api/user/getPatientProfile')).json().time_zone).toBe('Asia/Tokyo');
    // A client that does not know the field (one written before issue 32) does not clear it.
    const older = await client.put('/api/user/updateProfile', { name: 'Pat', phone_number: '555-0100' });
    expect(older.statusCode, older.body).toBe(200);
    expect((await client.get('/api/user/getPatientProfile')).json()).toMatchObject({ time_zone: 'Asia/Tokyo', phone_number: '555-0100' });
    await client.put('/api/user/updateProfile', { name: 'Pat', time_zone: null });
    expect((await client.get('/api/user/getPatientProfile')).json().time_zone).toBeNull();

    const bad = await client.put('/api/user/updateProfile', { name: 'Pat', time_zone: 'Nowhere/Special' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/time_zone.*IANA time zone/);
    const offset = await client.put('/api/user/updateProfile', { name: 'Pat', time_zone: '+02:00' });
    expect(offset.statusCode).toBe(400);
    expect(offset.json().message).toMatch(/time_zone.*IANA time zone/);
  });

  it('a family member is added, read and edited with time_zone', async () => {
    const { client } = await signedInUser(t.app);
    const added = await client.post('/api/user/family/add', {
      name: 'Mia',
      date_of_birth: '2016-02-03',
      relationship: 'child',
      time_zone: 'America/New_York',
    });
    expect(added.statusCode, added.body).toBe(201);
    const id = added.json().id as string;
    expect(added.json().time_zone).toBe('America/New_York');
    expect((await client.get(`/api/user/family/members/${id}`)).json().time_zone).toBe('America/New_York');
    const listed = (await client.get('/api/user/getPatientProfile')).json().family_members as { id: string; time_zone: string | null }[];
    expect(listed.find((m) => m.id === id)?.time_zone).toBe('America/New_York');

    const body = { name: 'Mia', date_of_birth: '2016-02-03', relationship: 'child' };
    const moved = await client.put(`/api/user/family/members/${id}`, { ...body, time_zone: 'Europe/Lisbon' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().time_zone).toBe('Europe/Lisbon');
    // Left out, the zone stays.
    expect((await client.put(`/api/user/family/members/${id}`, body)).json().time_zone).toBe('Europe/Lisbon');
    const same = await client.put(`/api/user/family/members/${id}`, { ...body, time_zone: null });
    expect(same.json().time_zone).toBeNull();

    const bad = await client.put(`/api/user/family/members/${id}`, { ...body, time_zone: 'Europe/Nowhere' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/time_zone/);
    const badAdd = await client.post('/api/user/family/add', { ...body, time_zone: 7 });
    expect(badAdd.statusCode).toBe(400);
    expect(badAdd.json().message).toMatch(/time_zone/);
  });
});

describe('appointment reminder lead times', () => {
  const valid = { appointment_date: '2026-12-03', start_time: '2026-12-03T09:30', provider_name: 'Dr. Chen' };

  it('default to a day and two hours before; are kept when an edit leaves them out; are replaced when given', async () => {
    const { client } = await signedInUser(t.app);
    const created = await client.post('/api/user/appointments', valid);
    expect(created.statusCode).toBe(201);
    expect(created.json().reminder_minutes).toEqual([1440, 120]);
    const id = created.json().id as string;

    const chosen = await client.put(`/api/user/appointments/${id}`, { ...valid, reminder_minutes: [0, 60, 60, 2880] });
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json().reminder_minutes).toEqual([2880, 60, 0]);
    const kept = await client.put(`/api/user/appointments/${id}`, { ...valid, provider_name: 'Dr. Lee' });
    expect(kept.json().reminder_minutes).toEqual([2880, 60, 0]);
    const none = await client.put(`/api/user/appointments/${id}`, { ...valid, reminder_minutes: [] });
    expect(none.json().reminder_minutes).toEqual([]);
    expect((await client.get('/api/user/appointments')).json()[0].reminder_minutes).toEqual([]);

    const own = await client.post('/api/user/appointments', { ...valid, reminder_minutes: [15] });
    expect(own.json().reminder_minutes).toEqual([15]);
  });

  it('refuses lead times that are not a short list of whole minutes, naming the field', async () => {
    const { client } = await signedInUser(t.app);
    for (const reminder_minutes of [[-1], [1.5], ['60'], 60, [40_321], [1, 2, 3, 4, 5, 6]]) {
      const res = await client.post('/api/user/appointments', { ...valid, reminder_minutes });
      expect(res.statusCode, JSON.stringify(reminder_minutes)).toBe(400);
      expect(res.json().message).toMatch(/reminder_minutes/);
    }
    expect((await client.get('/api/user/appointments')).json()).toEqual([]);
  });
});

describe('export and import', () => {
  it('carry the preferences, the zones, the lead times and the feeds’ settings (never their secret)', async () => {
    const source = await signedInUser(t.app);
    await source.client.put('/api/user/preferences', { time_zone: 'Europe/Madrid', reminder_push: false, language: 'de', units: 'metric' });
    await source.client.put('/api/user/updateProfile', { name: 'Ana', time_zone: 'Atlantic/Canary' });
    await source.client.post('/api/user/appointments', {
      appointment_date: '2026-12-03',
      provider_name: 'Dr. Chen',
      reminder_minutes: [30],
    });
    await source.client.post('/api/user/appointments', { appointment_date: '2026-12-04', provider_name: 'Dr. Lee' });
    // The account's reminder choices for its own people (issue 32, "Data you own").
    const mia = (
      await source.client.post('/api/user/family/add', { name: 'Mia', date_of_birth: '2016-02-03', relationship: 'child' })
    ).json<{ id: string }>().id;
    const chosen = await source.client.put(`/api/user/people/${mia}/reminder-settings`, {
      missed_dose_alerts: true,
      appointment_reminders: false,
    });
    expect(chosen.statusCode, chosen.body).toBe(200);
    const self = (await source.client.get('/api/user/getPatientProfile')).json<{ id: string }>().id;
    const own = await source.client.put(`/api/user/people/${self}/reminder-settings`, { dose_reminders: false });
    expect(own.statusCode, own.body).toBe(200);
    const feed = (await source.client.post('/api/user/calendar-feeds', { include_medications: true })).json<{ url: string }>();
    const token = feed.url.split('/').pop()!.replace('.ics', '');

    const zip = await exportZip(source.client);
    const entries = await readZip(zip);
    const text = entries.get('kinchart.json')!.toString('utf8');
    expect(text).not.toContain(token);
    // The README says what of this the export holds, and that a feed's address is not in it.
    const readme = entries
      .get('README.txt')!
      .toString('utf8')
      .replace(/\r\n\s*/g, ' ');
    expect(readme).toContain('your settings (time zone, reminder channels, language and units)');
    expect(readme).toContain("your reminder choices for each of your people and your calendar feeds' settings");
    expect(readme).toContain(
      'the private addresses of your calendar feeds: an import restores each feed without its address, so give each imported feed a new address in Settings > Calendar ("New address")',
    );
    for (const [name, bytes] of entries) expect(bytes.toString('latin1'), name).not.toContain(token);
    const doc = JSON.parse(text) as Record<string, unknown> & {
      appointments: { provider_name: string; reminder_minutes: number[] | null }[];
      profiles: { is_self: boolean; time_zone: string | null }[];
    };
    expect(doc.preferences).toEqual({
      time_zone: 'Europe/Madrid',
      reminder_email: true,
      reminder_push: false,
      reminder_minimal: false,
      language: 'de',
      units: 'metric',
    });
    expect(doc.calendar_feeds).toEqual([
      expect.objectContaining({ person_id: null, include_medications: true, minimal: false, last_read_at: null }),
    ]);
    expect(Object.keys((doc.calendar_feeds as object[])[0]!).sort()).toEqual(
      ['created_at', 'id', 'include_medications', 'last_read_at', 'minimal', 'person_id'].sort(),
    );
    expect(doc.appointments.map((a) => [a.provider_name, a.reminder_minutes])).toEqual([
      ['Dr. Chen', [30]],
      // Left out when made: null, the default.
      ['Dr. Lee', null],
    ]);
    expect(doc.profiles.find((p) => p.is_self)?.time_zone).toBe('Atlantic/Canary');
    expect(doc.reminder_settings).toEqual(
      expect.arrayContaining([
        { person_id: mia, dose_reminders: true, missed_dose_alerts: true, appointment_reminders: false },
        { person_id: self, dose_reminders: false, missed_dose_alerts: false, appointment_reminders: true },
      ]),
    );
    expect(doc.reminder_settings).toHaveLength(2);

    const target = await signedInUser(t.app);
    const imported = await importFile(target.client, zip, 'kinchart-export.zip');
    expect(imported.statusCode, imported.body).toBe(200);
    expect((await target.client.get('/api/user/preferences')).json()).toMatchObject({
      time_zone: 'Europe/Madrid',
      reminder_push: false,
      language: 'de',
      language_set: true,
      units: 'metric',
    });
    expect((await target.client.get('/api/user/getPatientProfile')).json().time_zone).toBe('Atlantic/Canary');
    const appointments = (await target.client.get('/api/user/appointments')).json<{ reminder_minutes: number[] }[]>();
    expect(appointments.map((a) => a.reminder_minutes)).toEqual([[30], [1440, 120]]);
    const newMia = (await target.client.get('/api/user/people'))
      .json<{ id: string; name: string | null }[]>()
      .find((p) => p.name === 'Mia');
    expect(newMia).toBeDefined();
    expect((await target.client.get(`/api/user/people/${newMia!.id}/reminder-settings`)).json()).toEqual({
      dose_reminders: true,
      missed_dose_alerts: true,
      appointment_reminders: false,
    });
    // The own profile's choices are the importing account's own profile's.
    const newSelf = (await target.client.get('/api/user/getPatientProfile')).json<{ id: string }>().id;
    expect((await target.client.get(`/api/user/people/${newSelf}/reminder-settings`)).json()).toEqual({
      dose_reminders: false,
      missed_dose_alerts: false,
      appointment_reminders: true,
    });
    // A feed's address cannot come back: its settings do, with a new token nobody knows (care-export.test.ts).
    expect((await target.client.get('/api/user/calendar-feeds')).json()).toEqual({
      feeds: [expect.objectContaining({ person_id: null, include_medications: true, minimal: false, restored: true, last_read_at: null })],
    });
  });
});
