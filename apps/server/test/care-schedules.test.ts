// Issue 32, DESIGN §13: a medication's schedule — PUT/GET/DELETE
// /api/user/people/{personId}/medications/{medicationId}/schedule — its validation, the people
// access rules (DESIGN §11), the date its quantity runs out, and what happens when the medication
// goes or its list is saved again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { buildTestApp } from './helpers';
import type { CareFamily } from './care-helpers';
import { addMedication, careFamily, dosesPath, putSchedule, schedulePath } from './care-helpers';

let t: TestApp;
/** The app's clock: Wednesday 2027-03-10, 07:00 in New York (12:00Z). */
let now = new Date('2027-03-10T12:00:00Z');
let f: CareFamily;

beforeAll(async () => {
  t = await buildTestApp({}, { now: () => now });
  f = await careFamily(t);
});
afterAll(async () => {
  await t.close();
});

describe('setting, reading and removing a schedule', () => {
  it('an owner schedules a medication: defaults filled in, start today in the person’s zone, read back the same', async () => {
    now = new Date('2027-03-10T03:00:00Z'); // 22:00 on 9 March in New York: "today" is the 9th there
    const med = await addMedication(f.owner, f.child, 'Inhaler');
    const stored = await putSchedule(f.owner, f.child, med, { times: ['20:00', '08:00', '08:00'] });
    expect(stored).toMatchObject({
      medication_id: med,
      person_id: f.child,
      times: ['08:00', '20:00'],
      days: [1, 2, 3, 4, 5, 6, 7],
      start_date: '2027-03-09',
      end_date: null,
      as_needed: false,
      dose_units: 1,
      quantity_on_hand: null,
      refill_remind_days: null,
      reminders: true,
      runs_out_on: null,
    });
    const read = await f.viewer.client.get(schedulePath(f.child, med));
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(stored);
    now = new Date('2027-03-10T12:00:00Z');
  });

  it('a schedule set again replaces the old one; a start left out keeps the stored start', async () => {
    const med = await addMedication(f.owner, f.child, 'Vitamin D');
    await putSchedule(f.owner, f.child, med, { times: ['09:00'], start_date: '2027-01-01', days: [1, 3, 5] });
    const again = await putSchedule(f.owner, f.child, med, { times: ['10:30'], days: [7, 6, 6] });
    expect(again).toMatchObject({ times: ['10:30'], days: [6, 7], start_date: '2027-01-01' });
    // The end may not come before the stored start either.
    const early = await f.owner.client.put(schedulePath(f.child, med), { times: ['10:30'], end_date: '2026-12-31' });
    expect(early.statusCode).toBe(400);
    expect(early.json().message).toBe('end_date: must not be before start_date');
  });

  it('an as-needed schedule needs no times and has no run-out date', async () => {
    const med = await addMedication(f.owner, f.child, 'Paracetamol');
    const stored = await putSchedule(f.owner, f.child, med, { as_needed: true, quantity_on_hand: 20, dose_units: 2 });
    expect(stored).toMatchObject({ as_needed: true, times: [], quantity_on_hand: 20, runs_out_on: null });
  });

  it('GET …/schedules lists every schedule of the person in the list’s order, to a viewer too; a stranger gets 404', async () => {
    const g = await careFamily(t);
    const first = await addMedication(g.owner, g.child, 'Morning pill');
    await addMedication(g.owner, g.child, 'Unscheduled');
    const second = await addMedication(g.owner, g.child, 'Evening pill');
    await putSchedule(g.owner, g.child, second, { times: ['20:00'] });
    await putSchedule(g.owner, g.child, first, { times: ['08:00'], quantity_on_hand: 10 });
    const listed = await g.viewer.client.get(`/api/user/people/${g.child}/schedules`);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().schedules.map((s: { medication_id: string }) => s.medication_id)).toEqual([first, second]);
    expect(listed.json().schedules[0]).toMatchObject({ times: ['08:00'], quantity_on_hand: 10 });
    expect((await g.stranger.client.get(`/api/user/people/${g.child}/schedules`)).statusCode).toBe(404);
    expect((await f.viewer.client.get(`/api/user/people/${g.child}/schedules`)).statusCode).toBe(404);
  });

  it('DELETE removes the schedule; then GET and DELETE answer 404 "Schedule not found"', async () => {
    const med = await addMedication(f.owner, f.child, 'Short course');
    await putSchedule(f.owner, f.child, med, { times: ['08:00'] });
    const removed = await f.editor.client.delete(schedulePath(f.child, med));
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ message: 'Schedule removed' });
    for (const res of [await f.owner.client.get(schedulePath(f.child, med)), await f.owner.client.delete(schedulePath(f.child, med))]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ message: 'Schedule not found' });
    }
  });

  it('a medication never scheduled answers 404 "Schedule not found"', async () => {
    const med = await addMedication(f.owner, f.child, 'Unscheduled');
    const res = await f.owner.client.get(schedulePath(f.child, med));
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Schedule not found');
  });
});

describe('validation: 400 with a message naming the field', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['a time not as HH:MM', { times: ['8:00'] }, 'times.0: must be times as HH:MM (00:00 to 23:59)'],
    ['a time past 23:59', { times: ['24:00'] }, 'times.0: must be times as HH:MM (00:00 to 23:59)'],
    ['no times (and not as needed)', { times: [] }, 'times: must list 1 to 12 times a day (or set as_needed)'],
    [
      '13 times a day',
      { times: Array.from({ length: 13 }, (_, i) => `${String(i + 8).padStart(2, '0')}:00`) },
      'times: must be at most 12 times a day',
    ],
    ['a weekday 0', { times: ['08:00'], days: [0] }, 'days.0: must be ISO weekdays 1 to 7'],
    ['a weekday 8', { times: ['08:00'], days: [1, 8] }, 'days.1: must be ISO weekdays 1 to 7'],
    ['no weekday', { times: ['08:00'], days: [] }, 'days: must name at least one day'],
    [
      'an end before the start',
      { times: ['08:00'], start_date: '2027-03-10', end_date: '2027-03-09' },
      'end_date: must not be before start_date',
    ],
    ['a start that is no date', { times: ['08:00'], start_date: '2027-02-30' }, 'start_date: must be a real calendar date'],
    ['no dose units', { times: ['08:00'], dose_units: 0 }, 'dose_units: must be more than 0'],
    ['a negative quantity', { times: ['08:00'], quantity_on_hand: -1 }, 'quantity_on_hand: must be 0 or more'],
  ];
  it.each(cases)('%s', async (_name, body, message) => {
    const med = await addMedication(f.owner, f.child, 'Validated');
    const res = await f.owner.client.put(schedulePath(f.child, med), body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect((await f.owner.client.get(schedulePath(f.child, med))).statusCode).toBe(404);
  });

  it('a start_date of null is the same as leaving it out: today for a new schedule, the stored start after', async () => {
    const med = await addMedication(f.owner, f.child, 'Start null');
    const first = await putSchedule(f.owner, f.child, med, { times: ['08:00'], start_date: null });
    expect(first.start_date).toBe('2027-03-10'); // 07:00 on 10 March in New York
    await putSchedule(f.owner, f.child, med, { times: ['08:00'], start_date: '2027-01-05' });
    expect((await putSchedule(f.owner, f.child, med, { times: ['09:00'], start_date: null })).start_date).toBe('2027-01-05');
  });

  it('a schedule read, changed and sent back whole is taken: the answer’s own fields are ignored', async () => {
    const med = await addMedication(f.owner, f.child, 'Round trip');
    const stored = await putSchedule(f.owner, f.child, med, { times: ['08:00'], quantity_on_hand: 10, start_date: '2027-03-01' });
    const read = (await f.owner.client.get(schedulePath(f.child, med))).json<Record<string, unknown>>();
    const back = await f.owner.client.put(schedulePath(f.child, med), { ...read, times: ['08:00', '20:00'], person_id: 'someone-else' });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json()).toMatchObject({
      ...stored,
      times: ['08:00', '20:00'],
      person_id: f.child,
      medication_id: med,
      runs_out_on: '2027-03-14',
    });
  });

  it('a field the schedule does not have is refused', async () => {
    const med = await addMedication(f.owner, f.child, 'Strict');
    const res = await f.owner.client.put(schedulePath(f.child, med), { times: ['08:00'], colour: 'red' });
    expect(res.statusCode).toBe(400);
  });
});

describe('who may read and change a schedule (DESIGN §11)', () => {
  it('an editor sets it, a viewer reads it but may not set or remove it (403), a stranger gets 404', async () => {
    const med = await addMedication(f.owner, f.child, 'Shared med');
    const set = await f.editor.client.put(schedulePath(f.child, med), { times: ['07:30'] });
    expect(set.statusCode).toBe(200);
    expect((await f.viewer.client.get(schedulePath(f.child, med))).json()).toMatchObject({ times: ['07:30'] });
    for (const res of [
      await f.viewer.client.put(schedulePath(f.child, med), { times: ['09:00'] }),
      await f.viewer.client.delete(schedulePath(f.child, med)),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('Your access to this person is view only');
    }
    for (const res of [
      await f.stranger.client.get(schedulePath(f.child, med)),
      await f.stranger.client.put(schedulePath(f.child, med), { times: ['09:00'] }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Person not found');
    }
    expect((await f.owner.client.get(schedulePath(f.child, med))).json()).toMatchObject({ times: ['07:30'] });
  });

  it("a medication of another person (even the owner's own) is 404 through this person's path", async () => {
    const other = await careFamily(t);
    const theirs = await addMedication(other.owner, other.child, 'Not yours');
    const res = await f.owner.client.put(schedulePath(f.child, theirs), { times: ['08:00'] });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Medication not found');
    // The owner's other person's medication, named through the wrong person.
    const sibling = await careFamily(t);
    const med = await addMedication(sibling.owner, sibling.child, 'Sibling med');
    const { insertMember } = await import('./factories');
    const second = await insertMember(t.database.db, sibling.owner.id, { name: 'Second child' });
    const wrong = await sibling.owner.client.get(schedulePath(second, med));
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().message).toBe('Medication not found');
  });

  it('a change through a share is written to the owner’s access history', async () => {
    const med = await addMedication(f.owner, f.child, 'Audited');
    expect((await f.editor.client.put(schedulePath(f.child, med), { times: ['06:00'] })).statusCode).toBe(200);
    const history = await f.owner.client.get(`/api/user/people/${f.child}/access-history`);
    expect(history.json()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          actor: 'Eddie Editor',
          action: 'shared_write',
          what: 'PUT /api/user/people/:personId/medications/:medicationId/schedule',
        }),
      ]),
    );
  });
});

describe('when the quantity on hand runs out', () => {
  // Wednesday 2027-03-10, 07:00 in New York.
  it('twice a day from 10 units: today’s two doses, then four more days — 14 March', async () => {
    const med = await addMedication(f.owner, f.child, 'Counted');
    const stored = await putSchedule(f.owner, f.child, med, { times: ['08:00', '20:00'], start_date: '2027-03-01', quantity_on_hand: 10 });
    expect(stored.runs_out_on).toBe('2027-03-14');
  });

  it('weekdays only, once a day, 5 units: Wed, Thu, Fri, Mon, Tue — 16 March', async () => {
    const med = await addMedication(f.owner, f.child, 'Weekdays');
    const stored = await putSchedule(f.owner, f.child, med, {
      times: ['08:00'],
      days: [1, 2, 3, 4, 5],
      start_date: '2027-03-01',
      quantity_on_hand: 5,
    });
    expect(stored.runs_out_on).toBe('2027-03-16');
  });

  it('half a unit a dose doubles the doses; a dose already missed today is not counted; less than a dose runs out today', async () => {
    const med = await addMedication(f.owner, f.child, 'Halves');
    // 05:00 is missed by 07:00, 08:00 is still to come: 3 units at 0.5 cover 6 doses — today's one, then 5.
    const stored = await putSchedule(f.owner, f.child, med, {
      times: ['05:00', '08:00'],
      start_date: '2027-03-01',
      quantity_on_hand: 3,
      dose_units: 0.5,
    });
    expect(stored.runs_out_on).toBe('2027-03-13');
    const little = await putSchedule(f.owner, f.child, med, { times: ['08:00'], quantity_on_hand: 0.4, dose_units: 0.5 });
    expect(little.runs_out_on).toBe('2027-03-10');
  });

  it('a schedule that ends first never runs out; a start in the future counts from the start; a large stock is counted, not walked', async () => {
    const med = await addMedication(f.owner, f.child, 'Course');
    const ends = await putSchedule(f.owner, f.child, med, {
      times: ['08:00'],
      start_date: '2027-03-01',
      end_date: '2027-03-12',
      quantity_on_hand: 30,
    });
    expect(ends.runs_out_on).toBeNull();
    const later = await putSchedule(f.owner, f.child, med, {
      times: ['08:00'],
      start_date: '2027-04-01',
      end_date: null,
      quantity_on_hand: 3,
    });
    expect(later.runs_out_on).toBe('2027-04-03');
    // 100000 units, one a day, every day: 99,999 days after today.
    const large = await putSchedule(f.owner, f.child, med, { times: ['21:00'], start_date: '2027-03-01', quantity_on_hand: 100000 });
    expect(large.runs_out_on).toBe(new Date(Date.parse('2027-03-10T00:00:00Z') + 99_999 * 86_400_000).toISOString().slice(0, 10));
  });

  it('taking a dose lowers the quantity and moves the date', async () => {
    const med = await addMedication(f.owner, f.child, 'Taken down');
    await putSchedule(f.owner, f.child, med, { times: ['08:00', '20:00'], start_date: '2027-03-01', quantity_on_hand: 10 });
    const dose = `${med}.202703100800`;
    expect((await f.owner.client.put(dosesPath(f.child, `/${dose}`), { status: 'taken' })).statusCode).toBe(200);
    const read = (await f.owner.client.get(schedulePath(f.child, med))).json();
    // 9 left: today's 20:00, then 8 = four days — still the 14th; a skip gives nothing back that was not taken.
    expect(read).toMatchObject({ quantity_on_hand: 9, runs_out_on: '2027-03-14' });
  });
});

describe('when the medication goes, or its list is saved again', () => {
  it('deleting the medication deletes its schedule and log (both delete routes)', async () => {
    const med = await addMedication(f.owner, f.child, 'Deleted');
    await putSchedule(f.owner, f.child, med, { times: ['08:00'], start_date: '2027-03-01' });
    expect((await f.owner.client.put(dosesPath(f.child, `/${med}.202703090800`), { status: 'taken' })).statusCode).toBe(200);
    const removed = await f.owner.client.delete(`/api/user/family/members/${f.child}/medications/${med}`);
    expect(removed.statusCode).toBe(200);
    const db = t.database.db;
    expect(await db.selectFrom('medication_schedules').select('medication_id').where('medication_id', '=', med).execute()).toEqual([]);
    expect(await db.selectFrom('dose_log').select('id').where('medication_id', '=', med).execute()).toEqual([]);

    // The own profile's medication, through the Prescriptions route.
    const own = await f.owner.client.post('/api/user/medications', { medication_name: 'Own med', dosage: '1 tab', is_current: true });
    expect(own.statusCode).toBe(201);
    const ownMed = own.json<{ id: string }>().id;
    const self = (await f.owner.client.get('/api/user/getPatientProfile')).json<{ id: string }>().id;
    await putSchedule(f.owner, self, ownMed, { times: ['08:00'], start_date: '2027-03-01' });
    expect((await f.owner.client.put(dosesPath(self, `/${ownMed}.202703090800`), { status: 'skipped' })).statusCode).toBe(200);
    expect((await f.owner.client.delete(`/api/user/medications/${ownMed}`)).statusCode).toBe(200);
    expect(await db.selectFrom('medication_schedules').select('medication_id').where('medication_id', '=', ownMed).execute()).toEqual([]);
    expect(await db.selectFrom('dose_log').select('id').where('medication_id', '=', ownMed).execute()).toEqual([]);
  });

  it('deleting the person deletes their medications’ schedules and logs', async () => {
    const other = await careFamily(t);
    const med = await addMedication(other.owner, other.child, 'Going with the person');
    await putSchedule(other.owner, other.child, med, { times: ['08:00'], start_date: '2027-03-01' });
    expect((await other.owner.client.put(dosesPath(other.child, `/${med}.202703090800`), { status: 'taken' })).statusCode).toBe(200);
    const removed = await other.owner.client.delete(`/api/user/family/members/${other.child}`);
    expect(removed.statusCode, removed.body).toBe(200);
    const db = t.database.db;
    expect(await db.selectFrom('medication_schedules').select('medication_id').where('profile_id', '=', other.child).execute()).toEqual([]);
    expect(await db.selectFrom('dose_log').select('id').where('profile_id', '=', other.child).execute()).toEqual([]);
  });

  it('saving the member’s lists with the medication kept keeps its schedule and log; leaving it out removes them', async () => {
    const other = await careFamily(t);
    const kept = await addMedication(other.owner, other.child, 'Kept');
    const dropped = await addMedication(other.owner, other.child, 'Dropped');
    for (const med of [kept, dropped]) await putSchedule(other.owner, other.child, med, { times: ['08:00'], start_date: '2027-03-01' });
    expect((await other.owner.client.put(dosesPath(other.child, `/${kept}.202703090800`), { status: 'taken' })).statusCode).toBe(200);
    const member = (await other.owner.client.get(`/api/user/family/members/${other.child}`)).json<Record<string, unknown>>();
    const save = await other.owner.client.put(`/api/user/family/members/${other.child}`, {
      name: member.name,
      date_of_birth: '2015-04-02',
      relationship: 'daughter',
      is_pet: false,
      medications: [{ id: kept, medication_name: 'Kept (renamed)', dosage: '5 ml', is_current: true }],
    });
    expect(save.statusCode, save.body).toBe(200);
    expect((await other.owner.client.get(schedulePath(other.child, kept))).statusCode).toBe(200);
    const doses = (await other.owner.client.get(dosesPath(other.child, '?from=2027-03-09&to=2027-03-09'))).json();
    expect(doses.doses).toEqual([expect.objectContaining({ medication_id: kept, medication_name: 'Kept (renamed)', status: 'taken' })]);
    expect((await other.owner.client.get(schedulePath(other.child, dropped))).statusCode).toBe(404);
  });
});
