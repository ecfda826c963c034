import ICAL from 'ical.js';
import nodeIcal from 'node-ical';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { ORIGIN, TestClient, appWithCapturedLog, buildTestApp, signedInUser } from './helpers';
import { insertMember, selfProfileId } from './factories';
import { insertShare } from './share-factories';
import { createPersonAccess } from '../src/common/person-access';
import { createAppointmentService } from '../src/features/appointments/appointment.service';
import { createCalendarService } from '../src/features/calendar/calendar.service';
import { newId, nowIso } from '../src/lib/ids';
import { loggerOptions } from '../src/plugins/logging';

// Issue 32, docs/decisions/0045: private calendar feeds — made, listed and revoked by their
// account; read without a session by the secret address, through the account's current access.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1, -'.ics'.length);
const feedPath = (url: string) => new URL(url).pathname;

async function newFeed(client: TestClient, body: Record<string, unknown> = {}) {
  const res = await client.post('/api/user/calendar-feeds', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string; url: string; webcal_url: string }>();
}

function events(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return {
    calendar,
    events: calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v)),
  };
}

/** node-ical's reading of the same text: each event's summary and start instant. */
function nodeStarts(text: string): Map<string, string> {
  return new Map(
    Object.values(nodeIcal.sync.parseICS(text))
      .filter((c) => c?.type === 'VEVENT')
      .map((c) => {
        const e = c as { summary?: unknown; start: Date };
        return [String(e.summary), e.start.toISOString()] as const;
      }),
  );
}

async function insertScheduledMedication(userId: string, profileId: string, values: { name: string; times: string[]; start: string }) {
  const id = newId();
  const now = nowIso();
  await t.database.db
    .insertInto('medications')
    .values({
      id,
      user_id: userId,
      profile_id: profileId,
      medication_name: values.name,
      dosage: '5 mg',
      frequency: null,
      purpose: null,
      start_date: null,
      end_date: null,
      is_current: 1,
      position: 0,
      created_at: now,
      updated_at: now,
      codings: null,
    })
    .execute();
  await t.database.db
    .insertInto('medication_schedules')
    .values({
      medication_id: id,
      user_id: userId,
      profile_id: profileId,
      times: JSON.stringify(values.times),
      days: JSON.stringify([1, 2, 3, 4, 5, 6, 7]),
      start_date: values.start,
      end_date: null,
      as_needed: 0,
      dose_units: 1,
      quantity_on_hand: null,
      refill_remind_days: null,
      reminders: 1,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

describe('making, listing and revoking feeds', () => {
  it('a feed is made with a secret address shown once, listed without it, and revoked at once', async () => {
    const { client } = await signedInUser(t.app);
    const feed = await newFeed(client, {});
    expect(feed.url).toMatch(new RegExp(`^${ORIGIN}/api/calendar/[\\w-]{43}\\.ics$`));
    expect(feed.webcal_url).toBe(feed.url.replace('http://', 'webcal://'));

    const listed = await client.get('/api/user/calendar-feeds');
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual({
      feeds: [
        {
          id: feed.id,
          person_id: null,
          person_name: null,
          include_medications: false,
          minimal: false,
          created_at: expect.any(String),
          last_read_at: null,
          restored: false,
        },
      ],
    });
    expect(listed.body).not.toContain(tokenOf(feed.url));
    // Only the token's hash is stored.
    const stored = await t.database.db.selectFrom('calendar_feeds').selectAll().where('id', '=', feed.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(tokenOf(feed.url));

    const anon = new TestClient(t.app);
    const read = await anon.get(feedPath(feed.url));
    expect(read.statusCode).toBe(200);
    expect(read.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(read.headers['cache-control']).toBe('private, no-store');
    expect((await client.get('/api/user/calendar-feeds')).json().feeds[0].last_read_at).toEqual(expect.any(String));

    expect((await client.delete(`/api/user/calendar-feeds/${feed.id}`)).statusCode).toBe(200);
    const gone = await anon.get(feedPath(feed.url));
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ message: 'Calendar feed not found' });
    expect(gone.headers['cache-control']).toBe('private, no-store');
    expect((await client.get('/api/user/calendar-feeds')).json()).toEqual({ feeds: [] });
    expect((await client.delete(`/api/user/calendar-feeds/${feed.id}`)).statusCode).toBe(404);
  });

  it('another user’s feed is 404 to delete, and a person the user cannot see is 404 to make one of', async () => {
    const owner = await signedInUser(t.app);
    const other = await signedInUser(t.app);
    const feed = await newFeed(owner.client);
    expect((await other.client.delete(`/api/user/calendar-feeds/${feed.id}`)).statusCode).toBe(404);
    expect((await new TestClient(t.app).get(feedPath(feed.url))).statusCode).toBe(200);
    expect((await other.client.get('/api/user/calendar-feeds')).json()).toEqual({ feeds: [] });

    const member = await insertMember(t.database.db, owner.id, { name: 'Mia' });
    const refused = await other.client.post('/api/user/calendar-feeds', { person_id: member });
    expect(refused.statusCode).toBe(404);
    const mine = await newFeed(owner.client, { person_id: member, include_medications: true, minimal: true });
    const listed = (await owner.client.get('/api/user/calendar-feeds')).json().feeds as { id: string }[];
    expect(listed.find((f) => f.id === mine.id)).toMatchObject({
      person_id: member,
      person_name: 'Mia',
      include_medications: true,
      minimal: true,
    });
  });

  it('refuses bodies that do not fit, naming the field; unknown or malformed addresses are 404', async () => {
    const { client } = await signedInUser(t.app);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ include_medications: 'yes' }, /include_medications/],
      [{ minimal: 1 }, /minimal/],
      [{ person_id: 5 }, /person_id/],
      [{ token: 'mine' }, /token/],
    ];
    for (const [body, message] of cases) {
      const res = await client.post('/api/user/calendar-feeds', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect((await client.get('/api/user/calendar-feeds')).json()).toEqual({ feeds: [] });
    // An id no feed can have is refused naming the field, like every other path id.
    const long = await client.delete(`/api/user/calendar-feeds/${'a'.repeat(65)}`);
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toMatch(/^id: must be at most 64 characters/);
    const anon = new TestClient(t.app);
    for (const path of ['/api/calendar/nothing.ics', `/api/calendar/${'a'.repeat(43)}.ics`, `/api/calendar/${'a'.repeat(43)}`]) {
      expect((await anon.get(path)).statusCode, path).toBe(404);
    }
  });

  it('holds at most 20 feeds an account; revoking one makes room', async () => {
    const { client } = await signedInUser(t.app);
    const made = [];
    for (let i = 0; i < 20; i += 1) made.push(await newFeed(client));
    const refused = await client.post('/api/user/calendar-feeds', {});
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ message: 'You can have at most 20 calendar feeds' });
    expect((await client.get('/api/user/calendar-feeds')).json().feeds).toHaveLength(20);
    expect((await client.delete(`/api/user/calendar-feeds/${made[0]!.id}`)).statusCode).toBe(200);
    await newFeed(client);
  });

  it('holds the cap when creates arrive together: counted and written under the account lock', async () => {
    const { client } = await signedInUser(t.app);
    for (let i = 0; i < 18; i += 1) await newFeed(client);
    const answers = await Promise.all(Array.from({ length: 6 }, () => client.post('/api/user/calendar-feeds', {})));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 201, 400, 400, 400, 400]);
    expect((await client.get('/api/user/calendar-feeds')).json().feeds).toHaveLength(20);
  });

  it('needs a session to make, list, renew or revoke a feed', async () => {
    const anon = new TestClient(t.app);
    expect((await anon.post('/api/user/calendar-feeds', {})).statusCode).toBe(401);
    expect((await anon.get('/api/user/calendar-feeds')).statusCode).toBe(401);
    expect((await anon.post('/api/user/calendar-feeds/x/renew')).statusCode).toBe(401);
    expect((await anon.delete('/api/user/calendar-feeds/x')).statusCode).toBe(401);
  });
});

describe('renewing a feed’s address', () => {
  it('gives the feed a new secret address, shown once like a new feed’s; the old address answers 404 at once', async () => {
    const { client } = await signedInUser(t.app);
    await client.put('/api/user/updateProfile', { name: 'Pat' });
    await client.post('/api/user/appointments', {
      appointment_date: '2030-05-04',
      start_time: '2030-05-04T10:00',
      provider_name: 'Dr. Vale',
    });
    const feed = await newFeed(client, { include_medications: true, minimal: false });
    const anon = new TestClient(t.app);
    expect((await anon.get(feedPath(feed.url))).statusCode).toBe(200);
    expect((await client.get('/api/user/calendar-feeds')).json().feeds[0].last_read_at).toEqual(expect.any(String));

    const renewed = await client.post(`/api/user/calendar-feeds/${feed.id}/renew`);
    expect(renewed.statusCode, renewed.body).toBe(200);
    const fresh = renewed.json<{ id: string; url: string; webcal_url: string }>();
    expect(Object.keys(fresh).sort()).toEqual(['id', 'url', 'webcal_url']);
    expect(fresh.id).toBe(feed.id);
    expect(fresh.url).toMatch(new RegExp(`^${ORIGIN}/api/calendar/[\\w-]{43}\\.ics$`));
    expect(fresh.url).not.toBe(feed.url);
    expect(fresh.webcal_url).toBe(fresh.url.replace('http://', 'webcal://'));

    const old = await anon.get(feedPath(feed.url));
    expect(old.statusCode).toBe(404);
    expect(old.json()).toMatchObject({ message: 'Calendar feed not found' });
    const read = await anon.get(feedPath(fresh.url));
    expect(read.statusCode).toBe(200);
    expect(events(read.body).events.map((e) => e.summary)).toEqual(['Dr. Vale']);

    // The same feed, its settings kept; the new address is never listed, and it has been read once now.
    const listed = await client.get('/api/user/calendar-feeds');
    expect(listed.json().feeds).toEqual([
      expect.objectContaining({ id: feed.id, person_id: null, include_medications: true, minimal: false, restored: false }),
    ]);
    expect(listed.body).not.toContain(tokenOf(fresh.url));
    const stored = await t.database.db.selectFrom('calendar_feeds').selectAll().where('id', '=', feed.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(tokenOf(fresh.url));
  });

  it('a renewed address starts unread: its last read time is the new address’s', async () => {
    const { client } = await signedInUser(t.app);
    const feed = await newFeed(client);
    await new TestClient(t.app).get(feedPath(feed.url));
    expect((await client.post(`/api/user/calendar-feeds/${feed.id}/renew`)).statusCode).toBe(200);
    expect((await client.get('/api/user/calendar-feeds')).json().feeds[0].last_read_at).toBeNull();
  });

  it('another user’s feed and an unknown feed are 404; an id no feed can have is 400 naming the field', async () => {
    const owner = await signedInUser(t.app);
    const other = await signedInUser(t.app);
    const feed = await newFeed(owner.client);
    const refused = await other.client.post(`/api/user/calendar-feeds/${feed.id}/renew`);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ message: 'Calendar feed not found', code: 'calendar_feed_not_found' });
    // The owner's address still answers: nothing changed.
    expect((await new TestClient(t.app).get(feedPath(feed.url))).statusCode).toBe(200);
    expect((await owner.client.post('/api/user/calendar-feeds/no-such-feed/renew')).statusCode).toBe(404);
    const long = await owner.client.post(`/api/user/calendar-feeds/${'a'.repeat(65)}/renew`);
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toMatch(/^id: must be at most 64 characters/);
    expect((await new TestClient(t.app).get(feedPath(feed.url))).statusCode).toBe(200);
  });
});

describe('the calendar a feed answers', () => {
  it('holds the person’s appointments at the right instants across a DST change in their zone, with an alarm per lead time', async () => {
    const { client } = await signedInUser(t.app);
    const mia = (
      await client.post('/api/user/family/add', {
        name: 'Mia',
        date_of_birth: '2016-02-03',
        relationship: 'child',
        time_zone: 'America/New_York',
      })
    ).json().id as string;
    const add = (date: string, provider: string, extra: Record<string, unknown> = {}) =>
      client.post('/api/user/appointments', {
        person_id: mia,
        appointment_date: date,
        start_time: `${date}T09:30`,
        end_time: `${date}T10:00`,
        provider_name: provider,
        reason_for_visit: 'Check-up',
        location: 'Riverside Clinic',
        ...extra,
      });
    expect((await add('2027-03-13', 'Dr. Before')).statusCode).toBe(201); // EST, UTC−5
    expect((await add('2027-03-15', 'Dr. After', { reminder_minutes: [0, 2880] })).statusCode).toBe(201); // EDT, UTC−4
    // Someone else's person stays out of a feed of Mia.
    await client.post('/api/user/appointments', { appointment_date: '2027-03-14', provider_name: 'Dr. Self' });

    const feed = await newFeed(client, { person_id: mia });
    const text = (await new TestClient(t.app).get(feedPath(feed.url))).body;
    const { calendar, events: parsed } = events(text);
    expect(calendar.getFirstPropertyValue('name')).toBe('Kinchart: Mia');
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Kinchart: Mia');
    expect(text).toContain('REFRESH-INTERVAL;VALUE=DURATION:PT1H');
    expect(String(calendar.getFirstPropertyValue('refresh-interval'))).toBe('PT1H');
    expect(text).toContain('X-PUBLISHED-TTL:PT1H');

    const byTitle = new Map(parsed.map((e) => [e.summary, e]));
    expect([...byTitle.keys()].sort()).toEqual(['Mia: Dr. After - Check-up', 'Mia: Dr. Before - Check-up']);
    expect(byTitle.get('Mia: Dr. Before - Check-up')!.startDate.toJSDate().toISOString()).toBe('2027-03-13T14:30:00.000Z');
    expect(byTitle.get('Mia: Dr. After - Check-up')!.startDate.toJSDate().toISOString()).toBe('2027-03-15T13:30:00.000Z');
    expect(byTitle.get('Mia: Dr. After - Check-up')!.location).toBe('Riverside Clinic');
    const node = nodeStarts(text);
    expect(node.get('Mia: Dr. Before - Check-up')).toBe('2027-03-13T14:30:00.000Z');
    expect(node.get('Mia: Dr. After - Check-up')).toBe('2027-03-15T13:30:00.000Z');

    const triggers = (title: string) =>
      byTitle
        .get(title)!
        .component.getAllSubcomponents('valarm')
        .map((a) => {
          expect(a.getFirstPropertyValue('action')).toBe('DISPLAY');
          return (a.getFirstPropertyValue('trigger') as ICAL.Duration).toSeconds();
        });
    expect(triggers('Mia: Dr. Before - Check-up')).toEqual([-1440 * 60, -120 * 60]);
    expect(triggers('Mia: Dr. After - Check-up')).toEqual([-2880 * 60, 0]);
  });

  it('reads alike in ical.js and node-ical: all-day events with alarms, and text with commas, semicolons, line breaks and long non-Latin runs', async () => {
    const { client, id } = await signedInUser(t.app);
    await client.put('/api/user/preferences', { time_zone: 'Asia/Tokyo' });
    const reason = `Blood test; fasting, no water\nBring the 处方 — ${'検査結果を確認します。'.repeat(12)}`;
    expect(
      (
        await client.post('/api/user/appointments', {
          appointment_date: '2030-07-01',
          start_time: '2030-07-01T08:15',
          provider_name: 'Dr. Ōta, Naika',
          reason_for_visit: reason,
          location: 'Clinic\\Wing B; floor 3',
          reminder_minutes: [10080, 60],
        })
      ).statusCode,
    ).toBe(201);
    // Neither time: the whole day, still with its alarms.
    expect(
      (await client.post('/api/user/appointments', { appointment_date: '2030-07-02', provider_name: 'Vaccination day' })).statusCode,
    ).toBe(201);
    await insertScheduledMedication(id, await selfProfileId(t.database.db, id), {
      name: 'Levothyroxine',
      times: ['06:30'],
      start: '2020-01-01',
    });
    const feed = await newFeed(client, { include_medications: true });
    const text = (await new TestClient(t.app).get(feedPath(feed.url))).body;
    expect(text.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);

    const parsed = events(text).events;
    const node = Object.values(nodeIcal.sync.parseICS(text)).filter((c) => c?.type === 'VEVENT') as unknown as {
      summary: string;
      description?: string;
      location?: string;
      start: Date & { dateOnly?: boolean };
      datetype?: string;
      alarms?: unknown[];
    }[];
    expect(node).toHaveLength(parsed.length);
    expect(parsed.length).toBeGreaterThan(60);
    const timed = parsed.find((e) => e.summary.startsWith('Dr. Ōta'))!;
    expect(timed.summary).toBe(`Dr. Ōta, Naika - ${reason}`);
    expect(timed.description).toBe(reason);
    expect(timed.location).toBe('Clinic\\Wing B; floor 3');
    expect(timed.startDate.toJSDate().toISOString()).toBe('2030-06-30T23:15:00.000Z');
    const nodeTimed = node.find((e) => e.summary.startsWith('Dr. Ōta'))!;
    expect([nodeTimed.summary, nodeTimed.description, nodeTimed.location, nodeTimed.start.toISOString()]).toEqual([
      timed.summary,
      reason,
      'Clinic\\Wing B; floor 3',
      '2030-06-30T23:15:00.000Z',
    ]);
    expect(
      timed.component.getAllSubcomponents('valarm').map((a) => (a.getFirstPropertyValue('trigger') as ICAL.Duration).toSeconds()),
    ).toEqual([-10080 * 60, -60 * 60]);

    const allDay = parsed.find((e) => e.summary === 'Vaccination day')!;
    expect(allDay.startDate.isDate).toBe(true);
    expect(allDay.startDate.toString()).toBe('2030-07-02');
    expect(allDay.component.getAllSubcomponents('valarm')).toHaveLength(2);
    const nodeAllDay = node.find((e) => e.summary === 'Vaccination day')!;
    expect(nodeAllDay.datetype).toBe('date');
    expect(parsed.filter((e) => e.summary === 'Levothyroxine').length).toBe(node.filter((e) => e.summary === 'Levothyroxine').length);
  });

  it('a minimal feed says only "Appointment" and "Medication": no names, places or reasons', async () => {
    const { client, id } = await signedInUser(t.app);
    await client.put('/api/user/updateProfile', { name: 'Pat', time_zone: 'Europe/Madrid' });
    await client.post('/api/user/appointments', {
      appointment_date: '2030-06-01',
      start_time: '2030-06-01T09:00',
      provider_name: 'Dr. Oncology',
      reason_for_visit: 'Chemotherapy',
      location: 'Cancer Centre',
    });
    await insertScheduledMedication(id, await selfProfileId(t.database.db, id), {
      name: 'Methotrexate',
      times: ['08:00'],
      start: '2020-01-01',
    });
    const feed = await newFeed(client, { include_medications: true, minimal: true });
    const text = (await new TestClient(t.app).get(feedPath(feed.url))).body;
    for (const secret of ['Oncology', 'Chemotherapy', 'Cancer', 'Methotrexate', '5 mg', 'Pat']) expect(text).not.toContain(secret);
    const { calendar, events: parsed } = events(text);
    expect(calendar.getFirstPropertyValue('name')).toBe('Kinchart');
    const titles = new Set(parsed.map((e) => e.summary));
    expect(titles).toEqual(new Set(['Appointment', 'Medication']));
    expect(parsed.every((e) => !e.location && !e.description)).toBe(true);
  });

  it('holds the medication times of 7 days back to 60 ahead, in the person’s zone, across a DST change', async () => {
    const { client, id } = await signedInUser(t.app);
    await client.put('/api/user/preferences', { time_zone: 'Europe/Madrid' });
    const self = await selfProfileId(t.database.db, id);
    const med = await insertScheduledMedication(id, self, { name: 'Warfarin', times: ['02:30', '08:00'], start: '2027-03-01' });
    // Not current: none of its times.
    const stopped = await insertScheduledMedication(id, self, { name: 'Stopped', times: ['12:00'], start: '2027-03-01' });
    await t.database.db.updateTable('medications').set({ is_current: 0 }).where('id', '=', stopped).execute();
    const feed = await newFeed(client, { include_medications: true });

    // The service with a clock: 20 March 2027, a week before Madrid moves its clocks forward.
    const db = t.database.db;
    const access = createPersonAccess(db);
    const service = createCalendarService({ db, access, appointments: createAppointmentService({ db, access }), publicUrl: ORIGIN });
    const text = await service.read(tokenOf(feed.url), { ip: null, what: 'GET /api/calendar/:file' }, new Date('2027-03-20T12:00:00Z'));
    expect(text).not.toBeNull();
    const parsed = events(text!).events;
    // 13 March to 19 May: 68 days, two times a day.
    expect(parsed).toHaveLength(136);
    expect(new Set(parsed.map((e) => e.uid)).size).toBe(136);
    expect(parsed.every((e) => e.summary === 'Warfarin' && e.description === '5 mg')).toBe(true);
    const starts = parsed.map((e) => e.startDate.toJSDate().toISOString());
    expect(starts[0]).toBe('2027-03-13T01:30:00.000Z'); // 02:30 CET
    expect(starts.at(-1)).toBe('2027-05-19T06:00:00.000Z'); // 08:00 CEST
    expect(starts).toContain('2027-03-27T07:00:00.000Z'); // 08:00 CET
    expect(starts).toContain('2027-03-28T01:30:00.000Z'); // 02:30 does not exist: 03:30 CEST, once
    expect(starts).toContain('2027-03-29T06:00:00.000Z'); // 08:00 CEST
    expect(parsed.find((e) => e.startDate.toJSDate().toISOString() === '2027-03-28T01:30:00.000Z')?.uid).toBe(
      `${med}.202703280230@kinchart`,
    );
    const node = Object.values(nodeIcal.sync.parseICS(text!)).filter((c) => c?.type === 'VEVENT') as unknown as { start: Date }[];
    expect(node.map((e) => e.start.toISOString())).toEqual(starts);

    // Without include_medications there are none.
    const plain = await newFeed(client, {});
    expect(events((await new TestClient(t.app).get(feedPath(plain.url))).body).events).toEqual([]);
  });

  it('reads through the account’s current access: a shared person’s reads are audited for the owner, and a revoked share empties it', async () => {
    const owner = await signedInUser(t.app);
    const sister = await signedInUser(t.app, { username: 'Sister Example' });
    const mother = await insertMember(t.database.db, owner.id, { name: 'Grandma', relationship: 'parent' });
    const share = await insertShare(t.database.db, { profileId: mother, ownerId: owner.id, holderId: sister.id, role: 'editor' });
    await owner.client.post('/api/user/appointments', {
      person_id: mother,
      appointment_date: '2030-01-10',
      start_time: '2030-01-10T11:00',
      provider_name: 'Dr. Heart',
    });
    const onePerson = await newFeed(sister.client, { person_id: mother });
    const everyone = await newFeed(sister.client, {});
    const anon = new TestClient(t.app);
    for (const feed of [onePerson, everyone]) {
      expect(events((await anon.get(feedPath(feed.url))).body).events.map((e) => e.summary)).toEqual(['Grandma: Dr. Heart']);
    }
    const audits = await t.database.db
      .selectFrom('audit_events')
      .select(['action', 'actor_id', 'detail'])
      .where('user_id', '=', owner.id)
      .where('profile_id', '=', mother)
      .where('action', '=', 'shared_read')
      .execute();
    expect(audits).toHaveLength(2);
    expect(audits.every((a) => a.actor_id === sister.id && a.detail?.includes('GET /api/calendar/:file'))).toBe(true);
    // The owner sees them in the person's access history, as the sister's reads of the feed.
    const history = await owner.client.get(`/api/user/people/${mother}/access-history`);
    expect(history.statusCode).toBe(200);
    expect(history.json()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ actor: sister.username, action: 'shared_read', what: 'GET /api/calendar/:file', count: 2 }),
      ]),
    );

    expect((await sister.client.get('/api/user/calendar-feeds')).json().feeds).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: onePerson.id, person_id: mother, person_name: 'Grandma' })]),
    );

    await t.database.db.updateTable('person_shares').set({ revoked_at: nowIso() }).where('id', '=', share).execute();
    for (const feed of [onePerson, everyone]) {
      const res = await anon.get(feedPath(feed.url));
      expect(res.statusCode).toBe(200);
      expect(events(res.body).events).toEqual([]);
    }
    // Her list of feeds no longer reads the person either: a name the owner gives them later stays the owner's.
    await t.database.db.updateTable('profiles').set({ name: 'Grandma Rose' }).where('id', '=', mother).execute();
    const listed = (await sister.client.get('/api/user/calendar-feeds')).json<{ feeds: { id: string; person_name: string | null }[] }>();
    expect(listed.feeds.find((f) => f.id === onePerson.id)).toMatchObject({ person_id: mother, person_name: null });
    expect(JSON.stringify(listed)).not.toContain('Grandma');
  });

  it('keeps the token out of the log', async () => {
    const { client } = await signedInUser(t.app);
    const feed = await newFeed(client);
    const token = tokenOf(feed.url);
    const { app, log } = await appWithCapturedLog(t, loggerOptions('info') as object);
    try {
      expect((await app.inject({ method: 'GET', url: feedPath(feed.url) })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: `/api/calendar/${token.slice(0, 42)}x.ics` })).statusCode).toBe(404);
      // Addresses mangled on the way (a doubled slash, a stray segment) answer 404 and log no token either.
      for (const url of [`/api/calendar//${token}.ics`, `/api//calendar/${token}.ics`, `/api/calendar/x/${token}.ics`]) {
        expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
      }
      expect(log()).toContain('/api/calendar/[redacted]');
      expect(log()).not.toContain(token);
      expect(log()).not.toContain(token.slice(0, 42));
    } finally {
      await app.close();
    }
  });
});
