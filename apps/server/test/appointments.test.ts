import ICAL from 'ical.js';
import nodeIcal from 'node-ical';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { TestClient, buildTestApp, signedInUser } from './helpers';
import { testScheduler } from './reminder-helpers';
import { buildCalendar, escapeText, foldLine } from '../src/features/appointments/ics';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const valid = {
  appointment_date: '2026-12-03',
  start_time: '2026-12-03T09:30',
  end_time: '2026-12-03T10:15',
  provider_name: 'Dr. Chen',
  reason_for_visit: 'Annual check-up',
  location: 'Riverside Clinic',
};

describe('appointments', () => {
  it('a patient can add, list and delete an appointment', async () => {
    const { client } = await signedInUser(t.app);
    const created = await client.post('/api/user/appointments', valid);
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({ ...valid, start_time: '2026-12-03T09:30:00', end_time: '2026-12-03T10:15:00' });
    expect(body.appointment_id).toBe(body.id);

    const list = await client.get('/api/user/appointments');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toHaveLength(1);
    expect(list.json()[0]).toMatchObject({ appointment_id: body.appointment_id, provider_name: 'Dr. Chen' });

    const del = await client.delete(`/api/user/appointments/${body.appointment_id}`);
    expect(del.statusCode).toBe(200);
    expect((await client.get('/api/user/appointments')).json()).toEqual([]);
    expect((await client.delete(`/api/user/appointments/${body.appointment_id}`)).statusCode).toBe(404);
  });

  it('accepts null or empty start and end times, and optional reason and location', async () => {
    const { client } = await signedInUser(t.app);
    const res = await client.post('/api/user/appointments', {
      appointment_date: '2026-12-04',
      start_time: null,
      end_time: '',
      provider_name: 'Dr. Okafor',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ start_time: null, end_time: null, reason_for_visit: null, location: null });
  });

  it('refuses a missing or invalid date, a missing provider, a malformed time and an end before the start', async () => {
    const { client } = await signedInUser(t.app);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...valid, appointment_date: '' }, /Appointment date is required/],
      [{ ...valid, appointment_date: '2026-02-30' }, /appointment_date/],
      [{ ...valid, provider_name: '  ' }, /Provider name is required/],
      [{ ...valid, start_time: '2026-12-03T25:00' }, /start_time/],
      [{ ...valid, start_time: 'tomorrow' }, /start_time/],
      [{ ...valid, end_time: '2026-12-03T08:00' }, /End time cannot be before the start time/],
      [{ ...valid, location: 'x'.repeat(501) }, /Location must be at most 500/],
    ];
    for (const [payload, message] of cases) {
      const res = await client.post('/api/user/appointments', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect((await client.get('/api/user/appointments')).json()).toEqual([]);
  });

  it('a patient can edit an appointment: every field is replaced, times are normalised as on add', async () => {
    const { client } = await signedInUser(t.app);
    const { appointment_id: id } = (await client.post('/api/user/appointments', valid)).json();
    const icsEvents = async () =>
      new ICAL.Component(ICAL.parse((await client.get('/api/user/appointments.ics?tz=UTC')).body))
        .getAllSubcomponents('vevent')
        .map((v) => new ICAL.Event(v));
    const [before] = await icsEvents();
    const edited = {
      appointment_date: '2026-12-10',
      start_time: '2026-12-10T14:00',
      end_time: null,
      provider_name: '  Dr. Okafor ',
      reason_for_visit: '',
      location: 'Hillside Surgery',
    };
    const res = await client.put(`/api/user/appointments/${id}`, edited);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      appointment_id: id,
      id,
      appointment_date: '2026-12-10',
      start_time: '2026-12-10T14:00:00',
      end_time: null,
      provider_name: 'Dr. Okafor',
      reason_for_visit: null,
      location: 'Hillside Surgery',
      message: 'Appointment updated successfully!',
    });
    const list = (await client.get('/api/user/appointments')).json();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      appointment_id: id,
      appointment_date: '2026-12-10',
      provider_name: 'Dr. Okafor',
      reason_for_visit: null,
    });
    // The calendar export keeps the same UID, so a calendar that imported it updates the event.
    const after = await icsEvents();
    expect(after.map((e) => e.summary)).toEqual(['Dr. Okafor']);
    expect(after[0]?.uid).toBe(before?.uid);
  });

  it('an edit is validated like an add and changes nothing when refused', async () => {
    const { client } = await signedInUser(t.app);
    const { appointment_id: id } = (await client.post('/api/user/appointments', valid)).json();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...valid, appointment_date: '' }, /Appointment date is required/],
      [{ ...valid, appointment_date: '2026-02-30' }, /appointment_date/],
      [{ ...valid, provider_name: '  ' }, /Provider name is required/],
      [{ ...valid, start_time: 'tomorrow' }, /start_time/],
      [{ ...valid, end_time: '2026-12-03T08:00' }, /End time cannot be before the start time/],
      [{ ...valid, location: 'x'.repeat(501) }, /Location must be at most 500/],
    ];
    for (const [payload, message] of cases) {
      const res = await client.put(`/api/user/appointments/${id}`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect((await client.get('/api/user/appointments')).json()[0]).toMatchObject({
      provider_name: 'Dr. Chen',
      appointment_date: '2026-12-03',
    });
  });

  it('editing a missing appointment or someone else’s answers 404 and changes nothing', async () => {
    const owner = await signedInUser(t.app);
    const intruder = await signedInUser(t.app);
    const { appointment_id: id } = (await owner.client.post('/api/user/appointments', valid)).json();
    const attempt = await intruder.client.put(`/api/user/appointments/${id}`, { ...valid, provider_name: 'Mallory' });
    expect(attempt.statusCode).toBe(404);
    expect(attempt.json()).toMatchObject({ message: 'Appointment not found' });
    expect((await owner.client.put('/api/user/appointments/no-such-id', valid)).statusCode).toBe(404);
    expect((await owner.client.get('/api/user/appointments')).json()[0]).toMatchObject({ provider_name: 'Dr. Chen' });
    expect((await new TestClient(t.app).put(`/api/user/appointments/${id}`, valid)).statusCode).toBe(401);
  });

  it('another user cannot see or delete someone else’s appointment', async () => {
    const owner = await signedInUser(t.app);
    const intruder = await signedInUser(t.app);
    const { appointment_id: id } = (await owner.client.post('/api/user/appointments', valid)).json();
    expect((await intruder.client.get('/api/user/appointments')).json()).toEqual([]);
    expect((await intruder.client.delete(`/api/user/appointments/${id}`)).statusCode).toBe(404);
    expect((await owner.client.get('/api/user/appointments')).json()).toHaveLength(1);
    const anonymous = new TestClient(t.app);
    expect((await anonymous.get('/api/user/appointments')).statusCode).toBe(401);
    expect((await anonymous.get('/api/user/appointments.ics')).statusCode).toBe(401);
    expect((await anonymous.post('/api/user/appointments', valid)).statusCode).toBe(401);
  });
});

describe('calendar export', () => {
  it('downloads an RFC 5545 calendar that a real parser reads, with every appointment in UTC', async () => {
    const { client } = await signedInUser(t.app);
    await client.post('/api/user/appointments', valid);
    await client.post('/api/user/appointments', {
      appointment_date: '2026-12-05',
      start_time: null,
      end_time: null,
      provider_name: 'Dr. Ünal; Cardiology, Ward 3',
      reason_for_visit: `Follow-up\nBring results ${'and more detail '.repeat(10)}`,
      location: null,
    });
    const res = await client.get('/api/user/appointments.ics?tz=Europe/Berlin');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/calendar/);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="kinchart-appointments.ics"/);
    const text = res.body;
    expect(text.split('\r\n').every((line) => Buffer.byteLength(line, 'utf8') <= 75)).toBe(true);

    const calendar = new ICAL.Component(ICAL.parse(text));
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(String(calendar.getFirstPropertyValue('prodid'))).toContain('Kinchart');
    const events = calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    expect(events).toHaveLength(2);
    const [first, second] = events;
    expect(first?.summary).toBe('Dr. Chen - Annual check-up');
    expect(first?.location).toBe('Riverside Clinic');
    // 09:30 in Berlin in December is 08:30 UTC.
    expect(first?.startDate.toJSDate().toISOString()).toBe('2026-12-03T08:30:00.000Z');
    expect(first?.endDate.toJSDate().toISOString()).toBe('2026-12-03T09:15:00.000Z');
    expect(second?.summary).toContain('Dr. Ünal; Cardiology, Ward 3');
    expect(second?.description).toContain('Follow-up\nBring results');
    // No start or end time: all day on its own date (RFC 5545 §3.6.1), not shifted by the time zone.
    expect(second?.startDate.isDate).toBe(true);
    expect(second?.startDate.toString()).toBe('2026-12-05');
    expect(second?.endDate.toString()).toBe('2026-12-06');
    expect(new Set(events.map((e) => e.uid)).size).toBe(2);

    // UIDs are stable across downloads.
    const again = new ICAL.Component(ICAL.parse((await client.get('/api/user/appointments.ics?tz=Europe/Berlin')).body));
    expect(again.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v).uid)).toEqual(events.map((e) => e.uid));
  });

  it('escapes CRLF, LF and a bare CR in text as \\n (RFC 5545 §3.3.11), so no raw line break reaches the file', async () => {
    expect(escapeText('a\r\nb\nc\rd')).toBe('a\\nb\\nc\\nd');
    expect(escapeText('back\\slash; semi, comma')).toBe('back\\\\slash\\; semi\\, comma');

    const { client } = await signedInUser(t.app);
    const reason = `Line one\rLine two\r\nLine three\nLine four ${'é'.repeat(40)}\r`;
    const created = await client.post('/api/user/appointments', { ...valid, reason_for_visit: reason, location: 'Ward 3\rBed 12' });
    expect(created.statusCode).toBe(201);
    const text = (await client.get('/api/user/appointments.ics?tz=UTC')).body;
    // Every line ends in CRLF; no CR or LF stands alone anywhere, and folded lines stay within 75 octets.
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(text.split('\r\n').every((line) => Buffer.byteLength(line, 'utf8') <= 75)).toBe(true);
    const event = new ICAL.Event(new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent('vevent') ?? undefined);
    const stored = (await client.get('/api/user/appointments')).json()[0];
    expect(event.description).toBe(stored.reason_for_visit.replace(/\r\n|\r/g, '\n'));
    expect(event.description).toContain('Line one\nLine two\nLine three\nLine four');
    expect(event.location).toBe('Ward 3\nBed 12');
  });

  it('folds an escaped value within 75 octets a line, and a parser unfolds it back to the value', () => {
    // A long run of escapes: folding happens after escaping, and unfolding gives back the value.
    const description = `${'a,'.repeat(30)}\r${'ü;'.repeat(30)}`;
    const ics = buildCalendar([
      {
        uid: 'u1',
        start: new Date('2026-12-03T08:00:00Z'),
        end: new Date('2026-12-03T09:00:00Z'),
        summary: 'S',
        location: null,
        description,
      },
    ]);
    for (const line of ics.split('\r\n')) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    const event = new ICAL.Event(new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vevent') ?? undefined);
    expect(event.description).toBe(description.replace('\r', '\n'));
  });

  it('places a time that a spring-forward day skips one gap later (02:30 → 03:30, RFC 5545 §3.3.5), and a fall-back time at its first occurrence, as ical.js and node-ical read it', async () => {
    const { client } = await signedInUser(t.app);
    const at = (date: string, start: string, end: string) =>
      client.post('/api/user/appointments', {
        ...valid,
        appointment_date: date,
        start_time: `${date}T${start}`,
        end_time: `${date}T${end}`,
        reason_for_visit: `${date} ${start}`,
      });
    // Spring forward: 02:00–03:00 does not exist, so 02:30 is 03:30 of the new offset.
    expect((await at('2027-03-14', '02:30', '04:00')).statusCode).toBe(201);
    // Fall back: 01:00–02:00 happens twice, and the first (still daylight time) is meant.
    expect((await at('2027-11-07', '01:30', '03:00')).statusCode).toBe(201);
    const expected: Record<string, [string, string]> = {
      'America/New_York': ['2027-03-14T07:30:00.000Z', '2027-11-07T05:30:00.000Z'],
      // Europe's changes are at 02:00 and 03:00 local on other days; the same appointments as a check of the rule's other side.
      'Europe/Berlin': ['2027-03-14T01:30:00.000Z', '2027-11-07T00:30:00.000Z'],
    };
    for (const [zone, [spring, fall]] of Object.entries(expected)) {
      const text = (await client.get(`/api/user/appointments.ics?tz=${zone}`)).body;
      const starts = new Map(
        new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent').map((v) => {
          const event = new ICAL.Event(v);
          return [event.description, event.startDate.toJSDate().toISOString()] as const;
        }),
      );
      const nodeStarts = new Map(
        Object.values(nodeIcal.sync.parseICS(text))
          .filter((c) => c?.type === 'VEVENT')
          .map((c) => {
            const event = c as { description?: unknown; start: Date };
            return [String(event.description), event.start.toISOString()] as const;
          }),
      );
      for (const found of [starts, nodeStarts]) {
        expect(found.get('2027-11-07 01:30'), zone).toBe(fall);
        expect(found.get('2027-03-14 02:30'), zone).toBe(spring);
      }
    }
    // Berlin's own spring-forward and fall-back mornings.
    expect((await at('2027-03-28', '02:30', '04:00')).statusCode).toBe(201);
    expect((await at('2027-10-31', '02:30', '03:30')).statusCode).toBe(201);
    const berlin = Object.values(nodeIcal.sync.parseICS((await client.get('/api/user/appointments.ics?tz=Europe/Berlin')).body))
      .filter((c) => c?.type === 'VEVENT')
      .map((c) => c as { description?: unknown; start: Date; end: Date });
    const byReason = (reason: string) => berlin.find((e) => String(e.description) === reason);
    expect(byReason('2027-03-28 02:30')?.start.toISOString()).toBe('2027-03-28T01:30:00.000Z'); // 03:30 CEST
    expect(byReason('2027-10-31 02:30')?.start.toISOString()).toBe('2027-10-31T00:30:00.000Z'); // 02:30 CEST, the first
    expect(byReason('2027-10-31 02:30')?.end.toISOString()).toBe('2027-10-31T02:30:00.000Z'); // 03:30 CET
  });

  it('writes no control character raw in a text value: newlines are escaped and other controls dropped (RFC 5545 §3.3.11), tabs kept', async () => {
    expect(escapeText('bell\u0007 esc\u001b del\u007f vt\u000b ff\u000c tab\tend')).toBe('bell esc del vt ff tab\tend');
    const { client } = await signedInUser(t.app);
    const reason = 'Bring\u0007 the\u001b[31m letter\u007f; and\u000bthe\u000c scan\u0008\nthen\tsign';
    const created = await client.post('/api/user/appointments', {
      ...valid,
      reason_for_visit: reason,
      provider_name: 'Dr.\u0001 Chen\u001f',
      location: 'Ward\u007f 3',
    });
    expect(created.statusCode).toBe(201);
    const text = (await client.get('/api/user/appointments.ics?tz=UTC')).body;
    // eslint-disable-next-line no-control-regex
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\u0000-\u0008\u000a-\u001f\u007f]/);
    const event = new ICAL.Event(new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent('vevent') ?? undefined);
    expect(event.description).toBe('Bring the[31m letter; andthe scan\nthen\tsign');
    expect(event.summary).toBe('Dr. Chen - Bring the[31m letter; andthe scan\nthen\tsign');
    expect(event.location).toBe('Ward 3');
    const parsed = Object.values(nodeIcal.sync.parseICS(text)).find((c) => c?.type === 'VEVENT') as {
      description?: unknown;
      location?: unknown;
      summary?: unknown;
    };
    expect(String(parsed.description)).toBe('Bring the[31m letter; andthe scan\nthen\tsign');
    expect(String(parsed.summary)).toBe('Dr. Chen - Bring the[31m letter; andthe scan\nthen\tsign');
    expect(String(parsed.location)).toBe('Ward 3');
  });

  it('writes an appointment with no start or end time as an all-day event on its own date (RFC 5545 §3.6.1), as ical.js and node-ical read it in any time zone', async () => {
    const { client } = await signedInUser(t.app);
    const created = await client.post('/api/user/appointments', {
      ...valid,
      appointment_date: '2026-12-31',
      start_time: null,
      end_time: null,
      reason_for_visit: 'All day',
    });
    expect(created.statusCode).toBe(201);
    expect((await client.post('/api/user/appointments', { ...valid, reason_for_visit: 'Timed' })).statusCode).toBe(201);
    for (const zone of ['UTC', 'Pacific/Kiritimati', 'America/Los_Angeles']) {
      const text = (await client.get(`/api/user/appointments.ics?tz=${zone}`)).body;
      expect(text, zone).toContain('DTSTART;VALUE=DATE:20261231\r\nDTEND;VALUE=DATE:20270101\r\n');
      const events = new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
      const allDay = events.find((e) => e.description === 'All day');
      expect(allDay?.startDate.isDate, zone).toBe(true);
      expect(allDay?.startDate.toString(), zone).toBe('2026-12-31');
      expect(allDay?.endDate.toString(), zone).toBe('2027-01-01');
      // A timed appointment stays timed.
      expect(events.find((e) => e.description === 'Timed')?.startDate.isDate, zone).toBe(false);
      const parsed = Object.values(nodeIcal.sync.parseICS(text))
        .filter((c) => c?.type === 'VEVENT')
        .map((c) => c as { description?: unknown; start: Date & { dateOnly?: boolean }; datetype?: string });
      const nodeAllDay = parsed.find((e) => String(e.description) === 'All day');
      expect(nodeAllDay?.datetype, zone).toBe('date');
      expect(nodeAllDay?.start.dateOnly, zone).toBe(true);
      const start = nodeAllDay!.start;
      expect([start.getFullYear(), start.getMonth() + 1, start.getDate()], zone).toEqual([2026, 12, 31]);
      expect(parsed.find((e) => String(e.description) === 'Timed')?.datetype, zone).toBe('date-time');
    }
  });

  it('reads each appointment in its person’s zone (issue 32), the browser’s `tz` only for a person without one', async () => {
    const { client } = await signedInUser(t.app);
    expect((await client.put('/api/user/preferences', { time_zone: 'America/New_York' })).statusCode).toBe(200);
    const child = await client.post('/api/user/family/add', {
      name: 'Leo',
      date_of_birth: '2016-02-03',
      relationship: 'child',
      time_zone: 'Europe/Madrid',
    });
    const grandma = await client.post('/api/user/family/add', { name: 'Ana', date_of_birth: '1950-02-03', relationship: 'parent' });
    await client.post('/api/user/appointments', { ...valid, reason_for_visit: 'own' });
    await client.post('/api/user/appointments', { ...valid, reason_for_visit: 'child', person_id: child.json().id });
    await client.post('/api/user/appointments', { ...valid, reason_for_visit: 'grandma', person_id: grandma.json().id });
    const starts = (text: string) =>
      new Map(
        new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent').map((v) => {
          const event = new ICAL.Event(v);
          return [event.description, event.startDate.toJSDate().toISOString()] as const;
        }),
      );
    const tokyo = starts((await client.get('/api/user/appointments.ics?tz=Asia/Tokyo')).body);
    // 09:30 on 3 December: in New York (the account's, the own profile's and Ana's), in Madrid (Leo's own).
    expect(tokyo.get('own')).toBe('2026-12-03T14:30:00.000Z');
    expect(tokyo.get('grandma')).toBe('2026-12-03T14:30:00.000Z');
    expect(tokyo.get('child')).toBe('2026-12-03T08:30:00.000Z');

    // An account with no zone of its own (made through the API): its people without one follow `tz`.
    const other = await signedInUser(t.app);
    const kid = await other.client.post('/api/user/family/add', {
      name: 'Mo',
      date_of_birth: '2016-02-03',
      relationship: 'child',
      time_zone: 'Europe/Madrid',
    });
    await other.client.post('/api/user/appointments', { ...valid, reason_for_visit: 'own' });
    await other.client.post('/api/user/appointments', { ...valid, reason_for_visit: 'kid', person_id: kid.json().id });
    const read = starts((await other.client.get('/api/user/appointments.ics?tz=Asia/Tokyo')).body);
    expect(read.get('own')).toBe('2026-12-03T00:30:00.000Z');
    expect(read.get('kid')).toBe('2026-12-03T08:30:00.000Z');
  });

  it('refuses an unknown time zone', async () => {
    const { client } = await signedInUser(t.app);
    const res = await client.get('/api/user/appointments.ics?tz=Mars/Olympus');
    expect(res.statusCode).toBe(400);
    // A bare offset, which Intl would take, is no IANA zone either.
    expect((await client.get('/api/user/appointments.ics?tz=%2B05%3A00')).statusCode).toBe(400);
  });

  it('folds long lines without splitting a multi-byte character', () => {
    const folded = foldLine(`SUMMARY:${'é'.repeat(60)}`);
    const parts = folded.split('\r\n');
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) expect(Buffer.byteLength(p, 'utf8')).toBeLessThanOrEqual(75);
    expect(parts.map((p, i) => (i === 0 ? p : p.slice(1))).join('')).toBe(`SUMMARY:${'é'.repeat(60)}`);
  });
});

describe('appointment reminders', () => {
  it('reminds once a day before, in the words of the zone, however many instances tick', async () => {
    const { client } = await signedInUser(t.app);
    await client.post('/api/user/appointments', { ...valid, start_time: '2026-12-03T09:30', end_time: null });
    await client.post('/api/user/appointments', {
      ...valid,
      appointment_date: '2026-12-20',
      start_time: '2026-12-20T09:30',
      end_time: null,
    });
    // The account has no zone of its own: UTC. A day before 09:30, two instances tick the same minute.
    const now = new Date('2026-12-02T09:30:00Z');
    const [a, b] = await Promise.all([testScheduler(t).tick(now), testScheduler(t).tick(now)]);
    // (Other tests' appointments on that day are reminded too: each exactly once, by one of the two.)
    expect(a.sent + b.sent).toBeGreaterThanOrEqual(1);
    expect((await testScheduler(t).tick(now)).sent).toBe(0);
    const notes = (await client.get('/api/user/notifications')).json();
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ type: 'info', level: 'info', title: 'Appointment tomorrow' });
    expect(notes[0].data.message).toBe('Reminder: your appointment with Dr. Chen is tomorrow at 9:30.');
  });
});
