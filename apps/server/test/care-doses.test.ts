// Issue 32, DESIGN §13: the dose log — GET /api/user/people/{personId}/doses?from&to, PUT and
// DELETE …/doses/{doseId}, POST …/doses (as needed) and GET …/adherence — with the app's clock
// driven by the test: statuses at their boundaries, daylight-saving days in two zones, the quantity
// on hand, the access rules (DESIGN §11) and every validation message.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Dose } from '@kinchart/shared/care';
import type { TestApp } from './helpers';
import { buildTestApp } from './helpers';
import type { CareFamily } from './care-helpers';
import { addMedication, careFamily, dosesPath, putSchedule, schedulePath, setZone } from './care-helpers';
import { AS_NEEDED_PER_DAY, createDoseService } from '../src/features/care/dose.service';
import { createPersonAccess } from '../src/common/person-access';

let t: TestApp;
/** The app's clock: Wednesday 2027-03-10, 07:00 in New York (12:00Z) unless a test moves it. */
const START = new Date('2027-03-10T12:00:00Z');
let now = START;
let f: CareFamily;

beforeAll(async () => {
  t = await buildTestApp({}, { now: () => now });
  f = await careFamily(t);
});
afterAll(async () => {
  await t.close();
});
beforeEach(() => {
  now = START;
});

/** A fresh person (in `zone`) of the family's owner, shared like the child, with one scheduled medication. */
async function scheduled(schedule: Record<string, unknown>, name = 'Inhaler', zone = 'America/New_York', extra = {}) {
  const family = await careFamily(t, zone);
  const med = await addMedication(family.owner, family.child, name, extra);
  await putSchedule(family.owner, family.child, med, { start_date: '2027-03-01', ...schedule });
  return { ...family, med };
}

async function doses(family: CareFamily, from: string, to = from): Promise<Dose[]> {
  const res = await family.viewer.client.get(dosesPath(family.child, `?from=${from}&to=${to}`));
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ doses: Dose[] }>().doses;
}

const quantity = async (family: CareFamily, med: string) =>
  (await family.owner.client.get(schedulePath(family.child, med))).json<{ quantity_on_hand: number | null }>().quantity_on_hand;

describe('the doses of a day', () => {
  it('lists each scheduled time with its instant in the person’s offset, ordered by time then name', async () => {
    const family = await scheduled({ times: ['20:00', '08:00'] }, 'Inhaler');
    const other = await addMedication(family.owner, family.child, 'Blood thinner', { dosage: '5 mg' });
    await putSchedule(family.owner, family.child, other, { times: ['08:00'], start_date: '2027-03-01' });
    const list = await doses(family, '2027-03-10');
    expect(list.map((d) => [d.scheduled_at, d.medication_name, d.status])).toEqual([
      ['2027-03-10T08:00:00-05:00', 'Blood thinner', 'upcoming'],
      ['2027-03-10T08:00:00-05:00', 'Inhaler', 'upcoming'],
      ['2027-03-10T20:00:00-05:00', 'Inhaler', 'upcoming'],
    ]);
    expect(list[0]).toEqual({
      dose_id: `${other}.202703100800`,
      medication_id: other,
      medication_name: 'Blood thinner',
      dosage: '5 mg',
      scheduled_at: '2027-03-10T08:00:00-05:00',
      status: 'upcoming',
      as_needed: false,
      taken_at: null,
      logged_at: null,
      logged_by: null,
    });
  });

  it('a dose is upcoming before its time, due from its time for 60 minutes, then missed', async () => {
    const family = await scheduled({ times: ['08:00'] });
    const statusAt = async (instant: string) => {
      now = new Date(instant);
      return (await doses(family, '2027-03-10'))[0]?.status;
    };
    expect(await statusAt('2027-03-10T12:59:59.999Z')).toBe('upcoming');
    expect(await statusAt('2027-03-10T13:00:00Z')).toBe('due');
    expect(await statusAt('2027-03-10T13:59:59.999Z')).toBe('due');
    expect(await statusAt('2027-03-10T14:00:00Z')).toBe('missed');
  });

  it('days and the start and end of the schedule are respected', async () => {
    // Monday, Wednesday, Friday; from the 8th to the 12th.
    const family = await scheduled({ times: ['09:00'], days: [1, 3, 5], start_date: '2027-03-08', end_date: '2027-03-12' });
    const list = await doses(family, '2027-03-01', '2027-03-20');
    expect(list.map((d) => d.scheduled_at.slice(0, 10))).toEqual(['2027-03-08', '2027-03-10', '2027-03-12']);
  });
});

describe('daylight-saving days (RFC 5545 §3.3.5)', () => {
  it('New York, 14 March 2027: a 02:30 dose in the spring-forward gap happens once, at 03:30 (07:30Z)', async () => {
    const family = await scheduled({ times: ['02:30'] });
    const list = await doses(family, '2027-03-13', '2027-03-15');
    expect(list.map((d) => [d.scheduled_at, new Date(d.scheduled_at).toISOString()])).toEqual([
      ['2027-03-13T02:30:00-05:00', '2027-03-13T07:30:00.000Z'],
      ['2027-03-14T03:30:00-04:00', '2027-03-14T07:30:00.000Z'],
      ['2027-03-15T02:30:00-04:00', '2027-03-15T06:30:00.000Z'],
    ]);
    // Logged, it keeps that instant.
    now = new Date('2027-03-14T08:00:00Z');
    const logged = await family.owner.client.put(dosesPath(family.child, `/${family.med}.202703140230`), { status: 'taken' });
    expect(logged.json()).toMatchObject({ scheduled_at: '2027-03-14T03:30:00-04:00', status: 'taken' });
  });

  it('New York, 7 November 2027: a 01:30 dose on the fall-back day happens once, at the first 01:30 (05:30Z)', async () => {
    const family = await scheduled({ times: ['01:30'] });
    const list = await doses(family, '2027-11-07');
    expect(list).toHaveLength(1);
    expect(list[0]?.scheduled_at).toBe('2027-11-07T01:30:00-04:00');
    expect(new Date(list[0]!.scheduled_at).toISOString()).toBe('2027-11-07T05:30:00.000Z');
  });

  it('Madrid, 28 March 2027: a 02:30 dose happens once, at 03:30 CEST (01:30Z)', async () => {
    const family = await scheduled({ times: ['02:30'] }, 'Inhaler', 'Europe/Madrid');
    const list = await doses(family, '2027-03-28');
    expect(list.map((d) => [d.scheduled_at, new Date(d.scheduled_at).toISOString()])).toEqual([
      ['2027-03-28T03:30:00+02:00', '2027-03-28T01:30:00.000Z'],
    ]);
  });

  it('a person without a zone of their own follows the account’s, and UTC without either', async () => {
    const family = await scheduled({ times: ['08:00'] });
    await setZone(t, family.child, null);
    expect((await doses(family, '2027-03-10'))[0]?.scheduled_at).toBe('2027-03-10T08:00:00+00:00');
    await t.database.db.updateTable('users').set({ time_zone: 'Europe/Madrid' }).where('id', '=', family.owner.id).execute();
    expect((await doses(family, '2027-03-10'))[0]?.scheduled_at).toBe('2027-03-10T08:00:00+01:00');
  });
});

describe('logging a dose', () => {
  it('taken, again (idempotent), changed to skipped (audited), taken again, undone: the quantity follows exactly', async () => {
    const family = await scheduled({ times: ['08:00', '20:00'], quantity_on_hand: 10, dose_units: 2 });
    const dose = `${family.med}.202703100800`;
    const url = dosesPath(family.child, `/${dose}`);
    now = new Date('2027-03-10T13:10:00Z');
    const taken = await family.editor.client.put(url, { status: 'taken' });
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json()).toEqual({
      dose_id: dose,
      medication_id: family.med,
      medication_name: 'Inhaler',
      dosage: '5 ml',
      scheduled_at: '2027-03-10T08:00:00-05:00',
      status: 'taken',
      as_needed: false,
      taken_at: '2027-03-10T08:10:00-05:00',
      logged_at: '2027-03-10T08:10:00-05:00',
      logged_by: 'Eddie Editor',
    });
    expect(await quantity(family, family.med)).toBe(8);

    now = new Date('2027-03-10T13:20:00Z');
    const again = await family.owner.client.put(url, { status: 'taken' });
    expect(again.json()).toEqual(taken.json());
    expect(await quantity(family, family.med)).toBe(8);

    const skipped = await family.editor.client.put(url, { status: 'skipped' });
    expect(skipped.json()).toMatchObject({ status: 'skipped', taken_at: null, logged_at: '2027-03-10T08:20:00-05:00' });
    expect(await quantity(family, family.med)).toBe(10);
    const events = await t.database.db
      .selectFrom('audit_events')
      .select(['actor_id', 'profile_id', 'detail'])
      .where('user_id', '=', family.owner.id)
      .where('action', '=', 'dose_log_change')
      .execute();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actor_id: family.editor.id, profile_id: family.child });
    expect(JSON.parse(events[0]!.detail!)).toMatchObject({ dose, from: 'taken', to: 'skipped' });

    const retaken = await family.owner.client.put(url, { status: 'taken', taken_at: '2027-03-10T13:05:00Z' });
    expect(retaken.json()).toMatchObject({ status: 'taken', taken_at: '2027-03-10T08:05:00-05:00', logged_by: 'Olivia Owner' });
    expect(await quantity(family, family.med)).toBe(8);

    const undone = await family.editor.client.delete(url);
    expect(undone.statusCode).toBe(200);
    expect(undone.json()).toMatchObject({ message: 'Dose log removed' });
    expect(await quantity(family, family.med)).toBe(10);
    expect((await doses(family, '2027-03-10'))[0]).toMatchObject({ dose_id: dose, status: 'due', logged_by: null });
    const twice = await family.editor.client.delete(url);
    expect(twice.statusCode).toBe(404);
    expect(twice.json()).toMatchObject({ message: 'Dose not found' });
  });

  it('the quantity never goes below 0, and undoing gives back only what was there to take', async () => {
    const family = await scheduled({ times: ['08:00'], quantity_on_hand: 0.5, dose_units: 1 });
    const url = dosesPath(family.child, `/${family.med}.202703100800`);
    expect((await family.owner.client.put(url, { status: 'taken' })).statusCode).toBe(200);
    expect(await quantity(family, family.med)).toBe(0);
    expect((await family.owner.client.put(url, { status: 'skipped' })).statusCode).toBe(200);
    expect(await quantity(family, family.med)).toBe(0.5);
  });

  it('without a tracked quantity, taking changes nothing else', async () => {
    const family = await scheduled({ times: ['08:00'] });
    const res = await family.owner.client.put(dosesPath(family.child, `/${family.med}.202703090800`), { status: 'taken' });
    expect(res.json()).toMatchObject({ status: 'taken' });
    expect(await quantity(family, family.med)).toBeNull();
  });

  it('a dose id must name a real occurrence of the current schedule: else 404 "Dose not found"', async () => {
    const family = await scheduled({ times: ['08:00'], days: [1, 2, 3, 4, 5] });
    const other = await careFamily(t);
    const theirs = await addMedication(other.owner, other.child);
    await putSchedule(other.owner, other.child, theirs, { times: ['08:00'], start_date: '2027-03-01' });
    const ids = [
      `${family.med}.202703100900`, // not one of its times
      `${family.med}.202702280800`, // before its start
      `${family.med}.202703130800`, // a Saturday
      `${family.med}.202703100800x`,
      `${family.med}`,
      'nothing-here',
      `${theirs}.202703100800`, // another person's medication
    ];
    for (const id of ids) {
      const res = await family.owner.client.put(dosesPath(family.child, `/${id}`), { status: 'taken' });
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toMatchObject({ message: 'Dose not found' });
    }
    expect(await family.owner.client.get(dosesPath(other.child, '?from=2027-03-10&to=2027-03-10')).then((r) => r.statusCode)).toBe(404);
  });

  it.each([
    [{ status: 'forgotten' }, 'status: must be "taken" or "skipped"'],
    [{}, 'status: must be "taken" or "skipped"'],
    [{ status: 'taken', taken_at: 'yesterday' }, 'taken_at: must be a date and time (ISO 8601)'],
    [{ status: 'taken', by: 'me' }, undefined],
  ])('a body %j is 400', async (body, message) => {
    const family = await scheduled({ times: ['08:00'] });
    const res = await family.owner.client.put(dosesPath(family.child, `/${family.med}.202703100800`), body);
    expect(res.statusCode).toBe(400);
    if (message) expect(res.json().message).toBe(message);
  });

  it('a logged dose keeps its row when the schedule changes later; unlogged old times go', async () => {
    const family = await scheduled({ times: ['08:00', '20:00'] });
    now = new Date('2027-03-11T12:00:00Z');
    await family.owner.client.put(dosesPath(family.child, `/${family.med}.202703100800`), { status: 'taken' });
    await putSchedule(family.owner, family.child, family.med, { times: ['09:00'] });
    const list = await doses(family, '2027-03-10');
    expect(list.map((d) => [d.dose_id, d.status])).toEqual([
      [`${family.med}.202703100800`, 'taken'],
      [`${family.med}.202703100900`, 'missed'],
    ]);
    // The logged dose can still be changed and undone; the old unlogged time cannot be logged any more.
    expect((await family.owner.client.put(dosesPath(family.child, `/${family.med}.202703100800`), { status: 'skipped' })).statusCode).toBe(
      200,
    );
    expect((await family.owner.client.put(dosesPath(family.child, `/${family.med}.202703102000`), { status: 'skipped' })).statusCode).toBe(
      404,
    );
  });

  it('a medication no longer current has no due doses: its unlogged doses do not appear and cannot be logged', async () => {
    const family = await scheduled({ times: ['08:00'] });
    await family.owner.client.put(dosesPath(family.child, `/${family.med}.202703090800`), { status: 'taken' });
    const saved = await family.owner.client.put(`/api/user/family/members/${family.child}/medications/${family.med}`, {
      medication_name: 'Inhaler',
      dosage: '5 ml',
      is_current: false,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const list = await doses(family, '2027-03-09', '2027-03-11');
    expect(list.map((d) => [d.dose_id, d.status])).toEqual([[`${family.med}.202703090800`, 'taken']]);
    const res = await family.owner.client.put(dosesPath(family.child, `/${family.med}.202703100800`), { status: 'taken' });
    expect(res.statusCode).toBe(404);
  });
});

describe('as-needed doses', () => {
  it('POST logs one (201, as_needed), it is listed at its time and lowers the quantity; undoing gives it back', async () => {
    const family = await scheduled({ as_needed: true, quantity_on_hand: 12, dose_units: 2 }, 'Paracetamol');
    const res = await family.editor.client.post(dosesPath(family.child), { medication_id: family.med, taken_at: '2027-03-10T15:45:00Z' });
    expect(res.statusCode, res.body).toBe(201);
    const dose = res.json<Dose>();
    expect(dose).toMatchObject({
      medication_id: family.med,
      medication_name: 'Paracetamol',
      scheduled_at: '2027-03-10T10:45:00-05:00',
      taken_at: '2027-03-10T10:45:00-05:00',
      status: 'taken',
      as_needed: true,
      logged_by: 'Eddie Editor',
    });
    expect(await quantity(family, family.med)).toBe(10);
    expect(await doses(family, '2027-03-10')).toEqual([dose]);
    expect((await family.owner.client.delete(dosesPath(family.child, `/${dose.dose_id}`))).statusCode).toBe(200);
    expect(await quantity(family, family.med)).toBe(12);
    expect(await doses(family, '2027-03-10')).toEqual([]);
  });

  it('any medication of the person may log one, at now when no time is given; another person’s medication is 404', async () => {
    const family = await careFamily(t);
    const med = await addMedication(family.owner, family.child, 'Unscheduled');
    const res = await family.owner.client.post(dosesPath(family.child), { medication_id: med });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ as_needed: true, taken_at: '2027-03-10T07:00:00-05:00' });
    const other = await careFamily(t);
    const theirs = await addMedication(other.owner, other.child);
    const refused = await family.owner.client.post(dosesPath(family.child), { medication_id: theirs });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ message: 'Medication not found' });
    const missing = await family.owner.client.post(dosesPath(family.child), {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('medication_id: is required');
    const empty = await family.owner.client.post(dosesPath(family.child), { medication_id: '' });
    expect(empty.json().message).toBe('medication_id: is required');
  });
});

describe('as-needed doses, bounded', () => {
  it(`at most ${AS_NEEDED_PER_DAY} a day of one medication: the next is 400 and adds nothing; another day is fine`, async () => {
    const family = await careFamily(t);
    const med = await addMedication(family.owner, family.child, 'Spray');
    const rows = Array.from({ length: AS_NEEDED_PER_DAY }, (_, i) => ({
      id: `spray-${i}`,
      user_id: family.owner.id,
      profile_id: family.child,
      medication_id: med,
      scheduled_local: `2027-03-10T${String(Math.floor(i / 4)).padStart(2, '0')}:${String((i % 4) * 15).padStart(2, '0')}`,
      scheduled_at: '2027-03-10T12:00:00.000Z',
      as_needed: 1,
      status: 'taken' as const,
      taken_at: '2027-03-10T12:00:00.000Z',
      logged_at: '2027-03-10T12:00:00.000Z',
      logged_by: family.owner.id,
      units_taken: null,
    }));
    await t.database.db.insertInto('dose_log').values(rows).execute();
    const refused = await family.owner.client.post(dosesPath(family.child), { medication_id: med, taken_at: '2027-03-10T20:00:00Z' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      message: `At most ${AS_NEEDED_PER_DAY} as-needed doses of one medication can be logged a day.`,
    });
    expect(await doses(family, '2027-03-10')).toHaveLength(AS_NEEDED_PER_DAY);
    const tomorrow = await family.owner.client.post(dosesPath(family.child), { medication_id: med, taken_at: '2027-03-11T14:00:00Z' });
    expect(tomorrow.statusCode).toBe(201);
  });
});

describe('the range asked for', () => {
  it.each([
    ['?from=2027-03-10&to=2027-03-09', 'to: must not be before from'],
    ['?from=2027-01-01&to=2027-04-03', 'to: must be at most 92 days after from'],
    ['?from=2027-02-30&to=2027-03-01', 'from: must be a real calendar date (querystring)'],
    ['?from=2027-03-01&to=tomorrow', 'to: must be a date as YYYY-MM-DD (querystring)'],
    ['?from=2027-03-01', 'to: must be a date as YYYY-MM-DD (querystring)'],
    ['?to=2027-03-01', 'from: must be a date as YYYY-MM-DD (querystring)'],
    ['?from=&to=2027-03-01', 'from: must be a date as YYYY-MM-DD (querystring)'],
    ['', 'from: must be a date as YYYY-MM-DD (querystring)'],
  ])('%s is 400 "%s"', async (query, message) => {
    const res = await f.owner.client.get(dosesPath(f.child, query));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });

  it('92 days is allowed', async () => {
    const res = await f.owner.client.get(dosesPath(f.child, '?from=2027-01-01&to=2027-04-02'));
    expect(res.statusCode).toBe(200);
  });
});

describe('who may see and log doses (DESIGN §11)', () => {
  it('a viewer reads but may not log (403); a stranger gets 404 for all of it', async () => {
    const family = await scheduled({ times: ['08:00'] });
    const url = dosesPath(family.child, `/${family.med}.202703100800`);
    expect((await family.viewer.client.get(dosesPath(family.child, '?from=2027-03-10&to=2027-03-10'))).statusCode).toBe(200);
    expect((await family.viewer.client.get(`/api/user/people/${family.child}/adherence`)).statusCode).toBe(200);
    for (const res of [
      await family.viewer.client.put(url, { status: 'taken' }),
      await family.viewer.client.delete(url),
      await family.viewer.client.post(dosesPath(family.child), { medication_id: family.med }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('Your access to this person is view only');
    }
    for (const res of [
      await family.stranger.client.get(dosesPath(family.child, '?from=2027-03-10&to=2027-03-10')),
      await family.stranger.client.put(url, { status: 'taken' }),
      await family.stranger.client.delete(url),
      await family.stranger.client.post(dosesPath(family.child), { medication_id: family.med }),
      await family.stranger.client.get(`/api/user/people/${family.child}/adherence`),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Person not found');
    }
    expect((await doses(family, '2027-03-10'))[0]?.status).toBe('upcoming');
  });
});

describe('adherence', () => {
  it('counts settled doses per scheduled medication over the last days: taken, skipped, missed and the percent', async () => {
    const family = await scheduled({ times: ['08:00', '20:00'], start_date: '2027-03-08' }, 'Inhaler');
    const log = (local: string, status: 'taken' | 'skipped') =>
      family.owner.client.put(dosesPath(family.child, `/${family.med}.${local}`), { status }).then((r) => expect(r.statusCode).toBe(200));
    await log('202703080800', 'taken');
    await log('202703082000', 'skipped');
    await log('202703090800', 'taken');
    // 2027-03-09 20:00 is missed; today's 08:00 is still upcoming at 07:00 and not counted.
    const asNeeded = await addMedication(family.owner, family.child, 'Paracetamol');
    await putSchedule(family.owner, family.child, asNeeded, { as_needed: true });
    await family.owner.client.post(dosesPath(family.child), { medication_id: asNeeded });
    const fresh = await addMedication(family.owner, family.child, 'Antibiotic');
    await putSchedule(family.owner, family.child, fresh, { times: ['21:00'], start_date: '2027-03-10' });

    const res = await family.viewer.client.get(`/api/user/people/${family.child}/adherence?days=3`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      days: 3,
      adherence: [
        { medication_id: fresh, medication_name: 'Antibiotic', scheduled: 0, taken: 0, skipped: 0, missed: 0, percent: null },
        { medication_id: family.med, medication_name: 'Inhaler', scheduled: 4, taken: 2, skipped: 1, missed: 1, percent: 50 },
      ],
    });
    // Taken ahead of time, today's dose counts; a day's window holds only today.
    await log('202703100800', 'taken');
    const today = (await family.owner.client.get(`/api/user/people/${family.child}/adherence?days=1`)).json();
    expect(today.adherence[1]).toMatchObject({ scheduled: 1, taken: 1, percent: 100 });
    const month = (await family.owner.client.get(`/api/user/people/${family.child}/adherence`)).json();
    expect(month.days).toBe(30);
    expect(month.adherence[1]).toMatchObject({ scheduled: 5, taken: 3, skipped: 1, missed: 1, percent: 60 });
  });

  it.each(['0', '93', '1.5', 'many'])('days=%s is 400 naming days', async (days) => {
    const res = await f.owner.client.get(`/api/user/people/${f.child}/adherence?days=${days}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^days/);
  });
});

describe('the dose service others call (reminders)', () => {
  const service = () => createDoseService({ db: t.database.db, access: createPersonAccess(t.database.db), now: () => now });

  it('describe names a scheduled dose’s person, medication, time and status; a logged one as logged; nothing else', async () => {
    const family = await scheduled({ times: ['08:00'] }, 'Blood thinner');
    const dose = `${family.med}.202703100800`;
    expect(await service().describe(dose)).toEqual({
      doseId: dose,
      personId: family.child,
      ownerId: family.owner.id,
      personName: 'Mia Rivera',
      medicationId: family.med,
      medicationName: 'Blood thinner',
      local: '2027-03-10T08:00',
      scheduledAt: new Date('2027-03-10T13:00:00Z'),
      zone: 'America/New_York',
      asNeeded: false,
      status: 'upcoming',
      logged: false,
    });
    now = new Date('2027-03-10T14:00:00Z');
    expect(await service().describe(dose)).toMatchObject({ status: 'missed', logged: false });
    // Logged through the service as the editor (what a push action does), then described as logged.
    const logged = await service().log({ userId: family.editor.id }, family.child, dose, { status: 'taken' }, 'POST /api/push/actions');
    expect(logged).toMatchObject({ status: 'taken', logged_by: 'Eddie Editor' });
    expect(await service().describe(dose)).toMatchObject({ status: 'taken', logged: true });
    for (const id of [`${family.med}.202703100900`, 'nothing', `${family.med}.202702280800`])
      expect(await service().describe(id), id).toBeNull();
  });

  it('log answers 403 for a viewer and 404 for a stranger, like the route', async () => {
    const family = await scheduled({ times: ['08:00'] });
    const dose = `${family.med}.202703100800`;
    await expect(service().log({ userId: family.viewer.id }, family.child, dose, { status: 'taken' })).rejects.toMatchObject({
      statusCode: 403,
    });
    await expect(service().log({ userId: family.stranger.id }, family.child, dose, { status: 'taken' })).rejects.toMatchObject({
      statusCode: 404,
    });
  });

  it('dosesOfPerson lists a person’s doses without an actor', async () => {
    const family = await scheduled({ times: ['08:00', '20:00'] });
    const list = await service().dosesOfPerson(family.child, '2027-03-10', '2027-03-10');
    expect(list.map((d) => d.scheduled_at)).toEqual(['2027-03-10T08:00:00-05:00', '2027-03-10T20:00:00-05:00']);
    expect(await service().dosesOfPerson('no-such-person', '2027-03-10', '2027-03-10')).toEqual([]);
  });
});
