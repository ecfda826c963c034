// Issue 32, "Done when", as one story through the API with a test clock: a parent schedules her son's
// inhaler at 8:00 and 20:00 and her mother's blood thinner at 8:00 (the son in her zone, Madrid; the
// mother in New York); at 8:00 in each person's zone her phone gets one reminder per dose with Taken
// and Snooze; her sister, who shares their mother as editor, is told when the blood thinner was not
// logged by 9:00; the month shows adherence; her phone's calendar shows the appointments with alarms
// through a private feed she can revoke.
import ICAL from 'ical.js';
import nodeIcal from 'node-ical';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { doseIdOf } from '@kinchart/shared/care';
import type { TestApp } from './helpers';
import { buildTestApp, signedInUser, TestClient } from './helpers';
import { insertShare } from './share-factories';
import type { LoopbackPush, ReceivedPush } from './push-helpers';
import { startLoopbackPush } from './push-helpers';
import type { ReminderScheduler } from '../src/features/reminders/scheduler';

let push: LoopbackPush;
let t: TestApp;
let scheduler: ReminderScheduler | undefined;
const clock = { now: new Date('2027-01-10T08:00:00Z') };

beforeAll(async () => {
  push = await startLoopbackPush();
  t = await buildTestApp(
    { PUSH_ALLOWED_HOSTS: push.host },
    { now: () => clock.now, reminders: { pushAgent: push.agent, onScheduler: (s) => (scheduler = s) } },
  );
});
afterAll(async () => {
  await t?.close();
  await push?.close();
});

/** Moves the clock and runs the scheduler's tick at each minute from `from` to `to` (both included). */
async function minutes(from: string, to: string): Promise<void> {
  if (!scheduler) throw new Error('no scheduler');
  for (let at = Date.parse(from); at <= Date.parse(to); at += 60_000) {
    clock.now = new Date(at);
    await scheduler.tick(clock.now);
  }
}

type Note = { title: string; level: string; data: { message: string } };
const notes = async (client: TestClient): Promise<Note[]> => (await client.get('/api/user/notifications')).json();
const pushes = (id: string): ReceivedPush[] => push.received.filter((p) => p.id === id);

it('a parent, her son, her mother and her sister: reminders at 8:00 in each zone, a missed dose told at 9:00, adherence, a feed', async () => {
  const parent = await signedInUser(t.app, { username: 'Olivia' });
  const sister = await signedInUser(t.app, { username: 'Sara' });
  expect((await parent.client.put('/api/user/preferences', { time_zone: 'Europe/Madrid' })).statusCode).toBe(200);

  // Her son follows her zone; her mother lives in New York.
  const addPerson = async (body: Record<string, unknown>) => {
    const res = await parent.client.post('/api/user/family/add', { date_of_birth: '1950-01-01', ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string }>().id;
  };
  const son = await addPerson({ name: 'Leo Rivera', relationship: 'Son', date_of_birth: '2018-04-02' });
  const mother = await addPerson({ name: 'Rosa Rivera', relationship: 'Mother', time_zone: 'America/New_York' });
  expect((await parent.client.get(`/api/user/family/members/${son}`)).json()).toMatchObject({ time_zone: null });
  expect((await parent.client.get(`/api/user/family/members/${mother}`)).json()).toMatchObject({ time_zone: 'America/New_York' });

  const medication = async (person: string, name: string, dosage: string, times: string[]) => {
    const made = await parent.client.post(`/api/user/family/members/${person}/medications`, {
      medication_name: name,
      dosage,
      is_current: true,
    });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json<{ id: string }>().id;
    const scheduled = await parent.client.put(`/api/user/people/${person}/medications/${id}/schedule`, { times, start_date: '2027-01-10' });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    return id;
  };
  const inhaler = await medication(son, 'Ventolin inhaler', '2 puffs', ['08:00', '20:00']);
  const thinner = await medication(mother, 'Warfarin', '5 mg', ['08:00']);

  // Her sister shares their mother as editor and asks to be told of missed doses (nothing else).
  await insertShare(t.database.db, { profileId: mother, ownerId: parent.id, holderId: sister.id, role: 'editor' });
  const sisterSettings = await sister.client.put(`/api/user/people/${mother}/reminder-settings`, { missed_dose_alerts: true });
  expect(sisterSettings.json()).toEqual({ dose_reminders: false, missed_dose_alerts: true, appointment_reminders: false });
  expect((await parent.client.get(`/api/user/people/${mother}/reminder-settings`)).json()).toEqual({
    dose_reminders: true,
    missed_dose_alerts: false,
    appointment_reminders: true,
  });

  // Her phone and her sister's subscribe to Web Push with the server's VAPID key.
  const vapid = (await new TestClient(t.app).get('/api/config')).json<{ vapid_public_key: string }>().vapid_public_key;
  const phone = push.subscription();
  const sisterPhone = push.subscription();
  expect((await parent.client.post('/api/user/push-subscriptions', phone.json)).statusCode).toBe(201);
  expect((await sister.client.post('/api/user/push-subscriptions', sisterPhone.json)).statusCode).toBe(201);

  // The first day (Sunday 10 January) she logs every dose in the app.
  clock.now = new Date('2027-01-10T22:00:00Z');
  for (const [person, id] of [
    [son, doseIdOf(inhaler, '2027-01-10T08:00')],
    [son, doseIdOf(inhaler, '2027-01-10T20:00')],
    [mother, doseIdOf(thinner, '2027-01-10T08:00')],
  ] as const) {
    expect((await parent.client.put(`/api/user/people/${person}/doses/${id}`, { status: 'taken' })).statusCode).toBe(200);
  }

  // Monday 11 January. 08:00 in Madrid is 07:00 UTC: one push, for the son's inhaler, with Taken and Snooze.
  await minutes('2027-01-11T06:55:00Z', '2027-01-11T07:01:00Z');
  expect(pushes(phone.id).map((p) => p.payload)).toEqual([
    {
      title: 'Medication reminder',
      body: 'Leo Rivera: time for Ventolin inhaler (08:00).',
      tag: `dose:${doseIdOf(inhaler, '2027-01-11T08:00')}`,
      url: '/dashboard',
      token: expect.stringMatching(/^[\w-]{43}$/),
      actions: ['taken', 'snooze'],
      action_titles: { taken: 'Taken', snooze: 'Snooze 10 min' },
      action_failed: 'This could not be saved. Open Kinchart to log the dose.',
    },
  ]);
  const [inhalerPush] = pushes(phone.id);
  expect(inhalerPush?.vapidKey).toBe(vapid);
  expect(JSON.stringify(inhalerPush?.payload)).not.toContain('puffs');

  // She presses Taken on her phone (the service worker posts the token, no session).
  const taken = await new TestClient(t.app).post('/api/push-actions', { token: inhalerPush?.payload.token, action: 'taken' });
  expect(taken.statusCode, taken.body).toBe(200);
  const sonDoses = (await parent.client.get(`/api/user/people/${son}/doses?from=2027-01-11&to=2027-01-11`)).json<{
    doses: { status: string; logged_by: string | null; scheduled_at: string }[];
  }>().doses;
  expect(sonDoses.map((d) => [d.scheduled_at, d.status, d.logged_by])).toEqual([
    ['2027-01-11T08:00:00+01:00', 'taken', 'Olivia'],
    ['2027-01-11T20:00:00+01:00', 'upcoming', null],
  ]);

  // 08:00 in New York is 13:00 UTC: one push, for the mother's blood thinner. She snoozes it; it comes
  // back ten minutes later, once — and then nobody logs it.
  await minutes('2027-01-11T07:02:00Z', '2027-01-11T13:01:00Z');
  expect(pushes(phone.id)).toHaveLength(2);
  const thinnerPush = pushes(phone.id)[1];
  expect(thinnerPush?.payload).toMatchObject({
    title: 'Medication reminder',
    body: 'Rosa Rivera: time for Warfarin (08:00).',
    tag: `dose:${doseIdOf(thinner, '2027-01-11T08:00')}`,
    actions: ['taken', 'snooze'],
  });
  const snoozed = await new TestClient(t.app).post('/api/push-actions', { token: thinnerPush?.payload.token, action: 'snooze' });
  expect(snoozed.statusCode, snoozed.body).toBe(200);
  await minutes('2027-01-11T13:02:00Z', '2027-01-11T13:59:00Z');
  expect(pushes(phone.id).map((p) => p.payload.body)).toEqual([
    'Leo Rivera: time for Ventolin inhaler (08:00).',
    'Rosa Rivera: time for Warfarin (08:00).',
    'Rosa Rivera: time for Warfarin (08:11).',
  ]);
  // Her sister asked for no dose reminders: nothing yet.
  expect(pushes(sisterPhone.id)).toEqual([]);
  expect(await notes(sister.client)).toEqual([]);

  // 09:00 in New York: the blood thinner was not logged — her sister is told, once, in the app and on her phone.
  await minutes('2027-01-11T14:00:00Z', '2027-01-11T14:05:00Z');
  const told = await notes(sister.client);
  expect(told.map((n) => [n.title, n.level, n.data.message])).toEqual([
    ['Dose not logged', 'warning', 'Rosa Rivera: Warfarin at 08:00 was not logged.'],
  ]);
  expect(pushes(sisterPhone.id).map((p) => p.payload)).toEqual([
    {
      title: 'Dose not logged',
      body: 'Rosa Rivera: Warfarin at 08:00 was not logged.',
      tag: `dose:${doseIdOf(thinner, '2027-01-11T08:00')}`,
      url: '/dashboard',
    },
  ]);
  // The parent (missed-dose alerts off by default) is not; the son's inhaler was logged, so nobody is told of it.
  expect((await notes(parent.client)).map((n) => n.title)).not.toContain('Dose not logged');

  // 20:00 in Madrid: the evening puff; she skips it in the app.
  await minutes('2027-01-11T18:59:00Z', '2027-01-11T19:00:00Z');
  expect(pushes(phone.id).at(-1)?.payload.body).toBe('Leo Rivera: time for Ventolin inhaler (20:00).');
  const skip = await parent.client.put(`/api/user/people/${son}/doses/${doseIdOf(inhaler, '2027-01-11T20:00')}`, { status: 'skipped' });
  expect(skip.statusCode).toBe(200);
  await minutes('2027-01-11T19:59:00Z', '2027-01-11T20:01:00Z');
  expect(pushes(phone.id)).toHaveLength(4);
  expect(pushes(sisterPhone.id)).toHaveLength(1);

  // The month: adherence per medication over the last 30 days (only the two days scheduled count).
  clock.now = new Date('2027-01-12T06:00:00Z');
  const adherence = async (person: string) =>
    (await parent.client.get(`/api/user/people/${person}/adherence?days=30`)).json<{ days: number; adherence: unknown[] }>();
  expect(await adherence(son)).toEqual({
    days: 30,
    adherence: [
      { medication_id: inhaler, medication_name: 'Ventolin inhaler', scheduled: 4, taken: 3, skipped: 1, missed: 0, percent: 75 },
    ],
  });
  expect(await adherence(mother)).toEqual({
    days: 30,
    adherence: [{ medication_id: thinner, medication_name: 'Warfarin', scheduled: 2, taken: 1, skipped: 0, missed: 1, percent: 50 }],
  });
  // Her sister sees the same month.
  expect((await sister.client.get(`/api/user/people/${mother}/adherence?days=30`)).json()).toEqual(await adherence(mother));

  // Her phone's calendar: the son's appointment with its alarms (a day and two hours before, by
  // default), through a private feed read without a session, which she revokes.
  const visit = await parent.client.post('/api/user/appointments', {
    appointment_date: '2027-01-20',
    start_time: '2027-01-20T09:30',
    provider_name: 'Dr Lee',
    person_id: son,
  });
  expect(visit.statusCode, visit.body).toBe(201);
  const made = await parent.client.post('/api/user/calendar-feeds', { person_id: null });
  expect(made.statusCode, made.body).toBe(201);
  const feed = made.json<{ id: string; url: string; webcal_url: string }>();
  expect(feed.webcal_url).toBe(feed.url.replace(/^https?:/, 'webcal:'));
  const anonymous = new TestClient(t.app);
  const read = await anonymous.get(new URL(feed.url).pathname);
  expect(read.statusCode).toBe(200);
  expect(read.headers['content-type']).toMatch(/^text\/calendar/);
  const [event] = new ICAL.Component(ICAL.parse(read.body)).getAllSubcomponents('vevent');
  expect(event?.getFirstPropertyValue('summary')).toContain('Dr Lee');
  expect((event?.getFirstPropertyValue('dtstart') as ICAL.Time | undefined)?.toJSDate().toISOString()).toBe('2027-01-20T08:30:00.000Z');
  const triggers = (event?.getAllSubcomponents('valarm') ?? []).map((a) =>
    (a.getFirstPropertyValue('trigger') as ICAL.Duration).toSeconds(),
  );
  expect(triggers.sort((a, b) => a - b)).toEqual([-86_400, -7_200]);
  expect(Object.values(nodeIcal.sync.parseICS(read.body)).filter((c) => c?.type === 'VEVENT')).toHaveLength(1);
  expect((await parent.client.delete(`/api/user/calendar-feeds/${feed.id}`)).statusCode).toBe(200);
  expect((await anonymous.get(new URL(feed.url).pathname)).statusCode).toBe(404);

  // And the day before, at 9:30 in Madrid, the appointment reminder reaches her phone.
  await minutes('2027-01-19T08:29:00Z', '2027-01-19T08:30:00Z');
  expect(pushes(phone.id).at(-1)?.payload).toMatchObject({
    title: 'Appointment tomorrow',
    body: "Reminder: Leo Rivera's appointment with Dr Lee is tomorrow at 9:30.",
  });
  expect(push.refused).toEqual([]);
});
