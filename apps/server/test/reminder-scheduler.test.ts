// Issue 32, DESIGN §13, docs/decisions/0044: the reminder scheduler driven by a test clock — dose
// reminders at each local time across daylight-saving changes in two zones, missed-dose alerts,
// refills, appointments, the recipients' choices and channels (in-app, email through a loopback SMTP
// server, Web Push through a loopback push service that checks VAPID and decrypts the payload),
// catch-up after a restart, exactly once across two instances, and the push buttons' tokens.
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { TestApp } from './helpers';
import { buildTestApp, signedInUser, TestClient, TEST_TEXT } from './helpers';
import { insertMember, selfProfileId } from './factories';
import { insertShare } from './share-factories';
import type { LoopbackSmtp } from './smtp-helpers';
import { startLoopbackSmtp } from './smtp-helpers';
import type { LoopbackPush } from './push-helpers';
import { startLoopbackPush } from './push-helpers';
import { insertScheduledMedication, setPersonZone } from './reminder-helpers';
import { buildApp } from '../src/app';
import { createMailer } from '../src/common/mailer';
import type { ReminderScheduler } from '../src/features/reminders/scheduler';
import { doseIdOf } from '@kinchart/shared/care';
import { nowIso } from '../src/lib/ids';

const MAIL_FROM = 'Kinchart <kinchart@example.com>';
let smtp: LoopbackSmtp;
let push: LoopbackPush;
beforeAll(async () => {
  smtp = await startLoopbackSmtp();
  push = await startLoopbackPush();
});
afterAll(async () => {
  await smtp.close();
  await push.close();
});

type User = Awaited<ReturnType<typeof signedInUser>>;
interface World {
  t: TestApp;
  scheduler: ReminderScheduler;
  clock: { now: Date };
  tick(iso: string): ReturnType<ReminderScheduler['tick']>;
}

const opened: TestApp[] = [];
afterEach(async () => {
  while (opened.length > 0) await opened.pop()?.close();
});

/** A fresh app and database with email, push to the loopback service, and a clock the test moves. */
async function world(): Promise<World> {
  const clock = { now: new Date('2026-01-01T00:00:00Z') };
  let scheduler: ReminderScheduler | undefined;
  const t = await buildTestApp(
    { SMTP_URL: smtp.url, MAIL_FROM, PUSH_ALLOWED_HOSTS: push.host },
    { now: () => clock.now, reminders: { pushAgent: push.agent, onScheduler: (s) => (scheduler = s) } },
  );
  opened.push(t);
  if (!scheduler) throw new Error('no scheduler');
  const s = scheduler;
  return {
    t,
    scheduler: s,
    clock,
    tick: async (iso) => {
      clock.now = new Date(iso);
      const report = await s.tick(clock.now);
      await t.mailSettled();
      return report;
    },
  };
}

async function notes(client: TestClient): Promise<{ title: string; level: string; data: { message: string } }[]> {
  return (await client.get('/api/user/notifications')).json();
}

async function subscribe(user: User) {
  const sub = push.subscription();
  const res = await user.client.post('/api/user/push-subscriptions', sub.json);
  expect(res.statusCode).toBe(201);
  return sub;
}

/** Ticks each minute from `from` to `to` (both included); answers the minutes whose tick sent something. */
async function everyMinute(w: World, from: string, to: string): Promise<string[]> {
  const sentAt: string[] = [];
  for (let at = Date.parse(from); at <= Date.parse(to); at += 60_000) {
    const report = await w.tick(new Date(at).toISOString());
    if (report.sent + report.late > 0) sentAt.push(new Date(at).toISOString().slice(0, 16));
  }
  return sentAt;
}

describe('dose reminders reach the owner and the holders who opted in, on each channel', () => {
  it('at 8:00 in the person’s zone: in-app, email and push (with Taken and Snooze), named but with no dosage', async () => {
    const w = await world();
    const owner = await signedInUser(w.t.app, { username: 'Olivia' });
    const sister = await signedInUser(w.t.app, { username: 'Sara' });
    const viewer = await signedInUser(w.t.app, { username: 'Vic' });
    const mother = await insertMember(w.t.database.db, owner.id, { name: 'Rosa Rivera' });
    await setPersonZone(w.t, mother, 'America/New_York');
    await insertShare(w.t.database.db, { profileId: mother, ownerId: owner.id, holderId: sister.id, role: 'editor' });
    await insertShare(w.t.database.db, { profileId: mother, ownerId: owner.id, holderId: viewer.id, role: 'viewer' });
    await sister.client.put(`/api/user/people/${mother}/reminder-settings`, { dose_reminders: true });
    const warfarin = await insertScheduledMedication(w.t, { ownerId: owner.id, profileId: mother, name: 'Warfarin', times: ['08:00'] });
    const ownerPush = await subscribe(owner);
    const sisterPush = await subscribe(sister);
    const viewerPush = await subscribe(viewer);

    // 08:00 in New York in January is 13:00 UTC.
    await w.tick('2026-01-05T12:58:00Z');
    expect((await w.tick('2026-01-05T12:59:00Z')).sent).toBe(0);
    expect(await w.tick('2026-01-05T13:00:00Z')).toMatchObject({ sent: 1, late: 0 });

    for (const user of [owner, sister]) {
      const [note] = await notes(user.client);
      expect(note).toMatchObject({ title: 'Medication reminder', level: 'info' });
      expect(note?.data.message).toBe('Rosa Rivera: time for Warfarin (08:00).');
    }
    expect(await notes(viewer.client)).toEqual([]);

    const mails = await smtp.messagesTo(owner.email, 1, (m) => m.headers.subject?.includes('Medication reminder') ?? false);
    expect(mails[0]?.text).toContain('Rosa Rivera: time for Warfarin (08:00).');
    expect(mails[0]?.text).not.toContain('5 mg');

    const [pushed] = await push.pushesTo(ownerPush.id, 1);
    expect(pushed?.payload).toMatchObject({
      title: 'Medication reminder',
      body: 'Rosa Rivera: time for Warfarin (08:00).',
      tag: `dose:${doseIdOf(warfarin, '2026-01-05T08:00')}`,
      actions: ['taken', 'snooze'],
      url: '/dashboard',
    });
    expect(pushed?.payload.token).toMatch(/^[\w-]{43}$/);
    expect(JSON.stringify(pushed?.payload)).not.toContain('5 mg');
    expect(pushed?.claims.aud).toBe(push.origin);
    expect(pushed?.vapidKey).toBe((await new TestClient(w.t.app).get('/api/config')).json().vapid_public_key);
    expect(await push.pushesTo(sisterPush.id, 1)).toHaveLength(1);
    expect(push.received.filter((p) => p.id === viewerPush.id)).toEqual([]);
    expect(push.refused).toEqual([]);

    // Nothing twice: the same minute again, and the next.
    expect((await w.tick('2026-01-05T13:00:30Z')).sent).toBe(0);
    expect((await w.tick('2026-01-05T13:01:00Z')).sent).toBe(0);
    expect(await notes(owner.client)).toHaveLength(1);
    expect(push.received.filter((p) => p.id === ownerPush.id)).toHaveLength(1);

    // A viewer who opted in is reminded too, but with no buttons: a viewer cannot log a dose.
    await viewer.client.put(`/api/user/people/${mother}/reminder-settings`, { dose_reminders: true });
    await w.tick('2026-01-06T12:59:00Z');
    await w.tick('2026-01-06T13:00:00Z');
    const [toViewer] = await push.pushesTo(viewerPush.id, 1);
    expect(toViewer?.payload).toMatchObject({ title: 'Medication reminder', body: 'Rosa Rivera: time for Warfarin (08:00).' });
    expect(toViewer?.payload.token).toBeUndefined();
    expect(toViewer?.payload.actions).toBeUndefined();
    expect((await push.pushesTo(sisterPush.id, 2))[1]?.payload.token).toMatch(/^[\w-]{43}$/);
  });

  it('minimal email and push name only the person; channels turned off send nothing; a 404 or 410 removes the subscription', async () => {
    const w = await world();
    const owner = await signedInUser(w.t.app, { username: 'Olivia' });
    const self = await selfProfileId(w.t.database.db, owner.id);
    await w.t.database.db.updateTable('profiles').set({ name: 'Olivia Rivera' }).where('id', '=', self).execute();
    await insertScheduledMedication(w.t, { ownerId: owner.id, profileId: self, name: 'Metformin', times: ['09:00', '21:00'] });
    await w.t.database.db.updateTable('users').set({ reminder_minimal: 1 }).where('id', '=', owner.id).execute();
    const phone = await subscribe(owner);
    const old = await subscribe(owner);
    push.gone(old.id);
    // A subscription the push service does not know (it answers 404).
    const unknown = push.subscription();
    const forgotten = await owner.client.post('/api/user/push-subscriptions', {
      ...unknown.json,
      endpoint: `${push.origin}/push/forgotten-${unknown.id}`,
    });
    expect(forgotten.statusCode).toBe(201);
    expect((await owner.client.get('/api/user/push-subscriptions')).json().subscriptions).toHaveLength(3);

    await w.tick('2026-01-05T08:59:00Z');
    await w.tick('2026-01-05T09:00:00Z');
    // In the app (signed in) the medication is named; "your own" profile reads without a name.
    expect((await notes(owner.client))[0]?.data.message).toBe('Time for Metformin (09:00).');
    const [pushed] = await push.pushesTo(phone.id, 1);
    expect(pushed?.payload.body).toBe('Time for a dose (09:00).');
    const mails = await smtp.messagesTo(owner.email, 1, (m) => m.headers.subject?.includes('Medication reminder') ?? false);
    expect(mails[0]?.text).toContain('Time for a dose (09:00).');
    expect(mails[0]?.text).not.toContain('Metformin');
    // The gone (410) and unknown (404) endpoints were removed; the other stays.
    const listed = (await owner.client.get('/api/user/push-subscriptions')).json().subscriptions;
    expect(listed).toHaveLength(1);
    expect(await w.t.database.db.selectFrom('push_subscriptions').select('endpoint').where('user_id', '=', owner.id).execute()).toEqual([
      { endpoint: phone.json.endpoint },
    ]);

    // Email and push off: in-app only.
    await w.t.database.db.updateTable('users').set({ reminder_email: 0, reminder_push: 0 }).where('id', '=', owner.id).execute();
    await w.tick('2026-01-05T20:59:00Z');
    await w.tick('2026-01-05T21:00:00Z');
    expect(await notes(owner.client)).toHaveLength(2);
    expect(push.received.filter((p) => p.id === phone.id)).toHaveLength(1);
    expect(smtp.received.filter((m) => m.to.includes(owner.email) && m.headers.subject?.includes('Medication'))).toHaveLength(1);
  });

  it('no reminder for a dose already logged, a medication no longer current, or a schedule with reminders off', async () => {
    const w = await world();
    const owner = await signedInUser(w.t.app);
    const self = await selfProfileId(w.t.database.db, owner.id);
    const logged = await insertScheduledMedication(w.t, { ownerId: owner.id, profileId: self, name: 'A', times: ['08:00'] });
    await insertScheduledMedication(w.t, { ownerId: owner.id, profileId: self, name: 'B', times: ['08:00'], isCurrent: false });
    await insertScheduledMedication(w.t, { ownerId: owner.id, profileId: self, name: 'C', times: ['08:00'], reminders: false });
    const reminded = await insertScheduledMedication(w.t, { ownerId: owner.id, profileId: self, name: 'D', times: ['08:00'] });
    await w.t.database.db
      .insertInto('dose_log')
      .values({
        id: doseIdOf(logged, '2026-01-05T08:00'),
        user_id: owner.id,
        profile_id: self,
        medication_id: logged,
        scheduled_local: '2026-01-05T08:00',
        scheduled_at: '2026-01-05T08:00:00.000Z',
        status: 'taken',
        taken_at: '2026-01-05T07:55:00.000Z',
        logged_at: '2026-01-05T07:55:00.000Z',
        logged_by: owner.id,
        units_taken: null,
      })
      .execute();
    await w.tick('2026-01-05T07:59:00Z');
    expect((await w.tick('2026-01-05T08:00:00Z')).sent).toBe(1);
    expect((await notes(owner.client)).map((n) => n.data.message)).toEqual(['Time for D (08:00).']);
    expect(reminded).toBeTruthy();
  });
});

describe('a busy minute', () => {
  it('sends its pushes side by side, not one after another, and each button token works', async () => {
    const w = await world();
    const owner = await signedInUser(w.t.app);
    const self = await selfProfileId(w.t.database.db, owner.id);
    const names = ['A', 'B', 'C', 'D', 'E', 'F'];
    for (const name of names) await insertScheduledMedication(w.t, { ownerId: owner.id, profileId: self, name, times: ['08:00'] });
    const phone = await subscribe(owner);
    // The push service answers none of them until all six are in flight (or half a second passes).
    push.holdUntilInFlight(names.length);
    try {
      await w.tick('2026-01-05T07:59:00Z');
      expect((await w.tick('2026-01-05T08:00:00Z')).sent).toBe(names.length);
      expect(push.maxInFlight).toBe(names.length);
    } finally {
      push.holdUntilInFlight(0);
    }
    const pushed = await push.pushesTo(phone.id, names.length);
    expect(pushed.map((p) => p.payload.body).sort()).toEqual(names.map((n) => `Time for ${n} (08:00).`));
    // One VAPID JWT serves them all (RFC 8292 §2: signing one per push is CPU a busy minute lacks);
    // it names this push service and expires within 24 hours (the loopback service checked both).
    expect(new Set(pushed.map((p) => p.jwt)).size).toBe(1);
    expect(pushed[0]?.claims.aud).toBe(push.origin);
    // Each carries its own token, written before the send.
    w.clock.now = new Date('2026-01-05T08:01:00Z');
    for (const p of pushed) {
      const taken = await w.t.app.inject({
        method: 'POST',
        url: '/api/push-actions',
        payload: { token: p.payload.token, action: 'taken' },
        headers: { origin: 'http://localhost:3000' },
      });
      expect(taken.statusCode, taken.body).toBe(200);
    }
    const doses = (await owner.client.get(`/api/user/people/${self}/doses?from=2026-01-05&to=2026-01-05`)).json().doses;
    expect(doses.map((d: { status: string }) => d.status)).toEqual(names.map(() => 'taken'));
  });
});

describe('missed doses', () => {
  it('60 minutes after the time, one alert per missed dose to those who opted in, only when nobody logged it', async () => {
    const w = await world();
    const owner = await signedInUser(w.t.app, { username: 'Olivia' });
    const sister = await signedInUser(w.t.app, { username: 'Sara' });
    const mother = await insertMember(w.t.database.db, owner.id, { name: 'Rosa Rivera' });
    await setPersonZone(w.t, mother, 'Europe/Madrid');
    await insertShare(w.t.database.db, { profileId: mother, ownerId: owner.id, holderId: sister.id, role: 'editor' });
    await sister.client.put(`/api/user/people/${mother}/reminder-settings`, { missed_dose_alerts: true });
    const warfarin = await insertScheduledMedication(w.t, { ownerId: owner.id, profileId: mother, name: 'Warfarin', times: ['08:00'] });
    const statin = await insertScheduledMedication(w.t, { ownerId: owner.id, profileId: mother, name: 'Statin', times: ['08:00'] });
    // 08:00 in Madrid in January is 07:00 UTC; the statin is logged before 09:00.
    await w.tick('2026-01-05T06:59:00Z');
    await everyMinute(w, '2026-01-05T07:00:00Z', '2026-01-05T07:59:00Z');
    await w.t.database.db
      .insertInto('dose_log')
      .values({
        id: doseIdOf(statin, '2026-01-05T08:00'),
        user_id: owner.id,
        profile_id: mother,
        medication_id: statin,
        scheduled_local: '2026-01-05T08:00',
        scheduled_at: '2026-01-05T07:00:00.000Z',
        status: 'taken',
        taken_at: '2026-01-05T07:30:00.000Z',
        logged_at: nowIso(),
        logged_by: sister.id,
        units_taken: null,
      })
      .execute();
    expect((await w.tick('2026-01-05T08:00:00Z')).sent).toBe(1);
    const alerts = (await notes(sister.client)).filter((n) => n.title === 'Dose not logged');
    expect(alerts.map((n) => [n.level, n.data.message])).toEqual([['warning', 'Rosa Rivera: Warfarin at 08:00 was not logged.']]);
    // The owner (missed alerts off by default) has only the two dose reminders.
    expect((await notes(owner.client)).map((n) => n.title)).toEqual(['Medication reminder', 'Medication reminder']);
    expect((await w.tick('2026-01-05T08:01:00Z')).sent).toBe(0);
    expect(warfarin).toBeTruthy();
  });
});

describe('missed doses and the schedule’s reminders flag', () => {
  it('a schedule with reminders off sends no at-time reminder, but a holder who opted in is still told of a missed dose', async () => {
    const w = await world();
    const owner = await signedInUser(w.t.app, { username: 'Olivia' });
    const sister = await signedInUser(w.t.app, { username: 'Sara' });
    const mother = await insertMember(w.t.database.db, owner.id, { name: 'Rosa Rivera' });
    await insertShare(w.t.database.db, { profileId: mother, ownerId: owner.id, holderId: sister.id, role: 'editor' });
    await sister.client.put(`/api/user/people/${mother}/reminder-settings`, { dose_reminders: true, missed_dose_alerts: true });
    await owner.client.put(`/api/user/people/${mother}/reminder-settings`, { missed_dose_alerts: true });
    await insertScheduledMedication(w.t, {
      ownerId: owner.id,
      profileId: mother,
      name: 'Warfarin',
      times: ['08:00'],
      reminders: false,
      quantity: 2,
      refillRemindDays: 7,
    });
    const sisterPush = await subscribe(sister);
    await w.tick('2026-01-05T07:59:00Z');
    expect((await w.tick('2026-01-05T08:00:00Z')).sent).toBe(0);
    expect((await w.tick('2026-01-05T08:59:00Z')).sent).toBe(0);
    expect(await notes(sister.client)).toEqual([]);
    // 09:00: the missed-dose alert only — the refill reminder due then is silenced by the flag too.
    expect((await w.tick('2026-01-05T09:00:00Z')).sent).toBe(1);
    for (const user of [sister, owner]) {
      expect((await notes(user.client)).map((n) => [n.title, n.level, n.data.message])).toEqual([
        ['Dose not logged', 'warning', 'Rosa Rivera: Warfarin at 08:00 was not logged.'],
      ]);
    }
    const [alert] = await push.pushesTo(sisterPush.id, 1);
    expect(alert?.payload).toMatchObject({ title: 'Dose not logged' });
    expect(alert?.payload.token).toBeUndefined();
  });
});

describe('daylight-saving days', () => {
  const cases = [
    // [zone, local date, the time, expected UTC minutes it is reminded at, window]
    [
      'America/New_York',
      'spring forward: 02:30 happens once, at 03:30 EDT',
      '2027-03-14',
      '02:30',
      ['2027-03-14T07:30'],
      ['2027-03-14T06:00:00Z', '2027-03-14T08:30:00Z'],
    ],
    [
      'America/New_York',
      'fall back: 01:30 happens once, at the first 01:30 (EDT)',
      '2026-11-01',
      '01:30',
      ['2026-11-01T05:30'],
      ['2026-11-01T04:00:00Z', '2026-11-01T07:00:00Z'],
    ],
    [
      'Europe/Madrid',
      'spring forward: 02:30 happens once, at 03:30 CEST',
      '2027-03-28',
      '02:30',
      ['2027-03-28T01:30'],
      ['2027-03-28T00:30:00Z', '2027-03-28T02:30:00Z'],
    ],
    [
      'Europe/Madrid',
      'fall back: 02:30 happens once, at the first 02:30 (CEST)',
      '2026-10-25',
      '02:30',
      ['2026-10-25T00:30'],
      ['2026-10-25T00:00:00Z', '2026-10-25T02:30:00Z'],
    ],
  ] as const;
  for (const [zone, what, date, time, expected, [from, to]] of cases) {
    it(`${zone}, ${what}`, async () => {
      const w = await world();
      const owner = await signedInUser(w.t.app);
      const self = await selfProfileId(w.t.database.db, owner.id);
      await setPersonZone(w.t, self, zone);
      await insertScheduledMedication(w.t, { ownerId: owner.id, profileId: self, name: 'Levothyroxine', times: [time], startDate: date });
      await w.tick(new Date(Date.parse(from) - 60_000).toISOString());
      expect(await everyMinute(w, from, to)).toEqual(expected);
      expect((await notes(owner.client)).map((n) => n.data.message)).toEqual([`Time for Levothyroxine (${time}).`]);
    });
  }
});

describe('after a restart', () => {
  it('sends what is under an hour late, marked late, and only logs what is an hour late or more', async () => {
    const w = await world();
    const owner = await signedInUser(w.t.app);
    const self = await selfProfileId(w.t.database.db, owner.id);
    await insertScheduledMedication(w.t, { ownerId: owner.id, profileId: self, name: 'Early', times: ['07:00'] });
    await insertScheduledMedication(w.t, { ownerId: owner.id, profileId: self, name: 'Later', times: ['08:00'] });
    const phone = await subscribe(owner);
    await w.tick('2026-01-05T06:00:00Z');
    // The server was down from 06:00 to 08:30; a new instance starts.
    let restarted: ReminderScheduler | undefined;
    const app = await buildApp({
      config: w.t.config,
      database: w.t.database,
      webRoot: null,
      logger: false,
      reminders: { timer: false, now: () => new Date('2026-01-05T08:30:00Z'), pushAgent: push.agent, onScheduler: (s) => (restarted = s) },
      text: TEST_TEXT,
    });
    try {
      const report = await restarted?.tick(new Date('2026-01-05T08:30:00Z'));
      expect(report).toMatchObject({ sent: 0, late: 1, missed: 1 });
      const list = await notes(owner.client);
      expect(list.map((n) => [n.title, n.data.message])).toEqual([['Medication reminder (late)', 'Time for Later (08:00).']]);
      const [pushed] = await push.pushesTo(phone.id, 1);
      expect(pushed?.payload.title).toBe('Medication reminder (late)');
      const states = await w.t.database.db.selectFrom('reminder_occurrences').select(['key', 'state']).where('kind', '=', 'dose').execute();
      expect(states.map((s) => s.state).sort()).toEqual(['late', 'missed']);
    } finally {
      await app.close();
    }
  });
});

describe('after a quick restart', () => {
  it('a new instance looks back over what the last one sent and sends none of it again', async () => {
    const w = await world();
    const owner = await signedInUser(w.t.app);
    const self = await selfProfileId(w.t.database.db, owner.id);
    await insertScheduledMedication(w.t, { ownerId: owner.id, profileId: self, name: 'Morning', times: ['08:00'] });
    const phone = await subscribe(owner);
    await w.tick('2026-01-05T07:59:00Z');
    expect((await w.tick('2026-01-05T08:00:00Z')).sent).toBe(1);
    // The server restarts a minute later: its first tick catches up from the stored last tick.
    let restarted: ReminderScheduler | undefined;
    const app = await buildApp({
      config: w.t.config,
      database: w.t.database,
      webRoot: null,
      logger: false,
      reminders: { timer: false, now: () => new Date('2026-01-05T08:01:30Z'), pushAgent: push.agent, onScheduler: (s) => (restarted = s) },
      text: TEST_TEXT,
    });
    try {
      expect(await restarted?.tick(new Date('2026-01-05T08:01:30Z'))).toMatchObject({ sent: 0, late: 0, missed: 0, deliveries: 0 });
      expect(await notes(owner.client)).toHaveLength(1);
      expect(push.received.filter((p) => p.id === phone.id)).toHaveLength(1);
    } finally {
      await app.close();
    }
  });
});

describe('closing', () => {
  it('waits for a tick that is still pruning old occurrences, without starving it of its database', async () => {
    const w = await world();
    const owner = await signedInUser(w.t.app);
    const self = await selfProfileId(w.t.database.db, owner.id);
    await insertScheduledMedication(w.t, { ownerId: owner.id, profileId: self, name: 'Morning', times: ['08:00'] });
    // A new scheduler's first tick also prunes; the app closes (idle) while it runs. Waiting on a
    // settled tick again and again once spun microtasks forever, and the pruning query never returned.
    const ticking = w.scheduler.tick(new Date('2026-01-05T08:00:00Z'));
    await w.scheduler.idle();
    expect(await ticking).toMatchObject({ sent: 1 });
    await w.scheduler.idle();
  });
});

describe('two instances on one database', () => {
  it('tick the same minute: one delivery per recipient and channel', async () => {
    const w = await world();
    const owner = await signedInUser(w.t.app, { username: 'Olivia' });
    const sister = await signedInUser(w.t.app, { username: 'Sara' });
    const mother = await insertMember(w.t.database.db, owner.id, { name: 'Rosa Rivera' });
    await insertShare(w.t.database.db, { profileId: mother, ownerId: owner.id, holderId: sister.id, role: 'editor' });
    await sister.client.put(`/api/user/people/${mother}/reminder-settings`, { dose_reminders: true });
    for (const name of ['Warfarin', 'Statin', 'Aspirin']) {
      await insertScheduledMedication(w.t, { ownerId: owner.id, profileId: mother, name, times: ['08:00'] });
    }
    const ownerPush = await subscribe(owner);
    const sisterPush = await subscribe(sister);
    await w.tick('2026-01-05T07:59:00Z');

    let second: ReminderScheduler | undefined;
    const mailer = createMailer({ mail: w.t.config.mail, log: pino({ level: 'silent' }) });
    const other: FastifyInstance = await buildApp({
      config: w.t.config,
      database: w.t.database,
      webRoot: null,
      logger: false,
      ...(mailer ? { mailer } : {}),
      reminders: { timer: false, pushAgent: push.agent, onScheduler: (s) => (second = s) },
      text: TEST_TEXT,
    });
    try {
      const at = new Date('2026-01-05T08:00:00Z');
      const [a, b] = await Promise.all([w.scheduler.tick(at), second?.tick(at)]);
      expect((a.sent ?? 0) + (b?.sent ?? 0)).toBe(3);
      await w.t.mailSettled();
      await mailer?.settled();
      const deliveries = await w.t.database.db.selectFrom('reminder_deliveries').select(['user_id', 'channel']).execute();
      // 3 doses × 2 recipients × 3 channels.
      expect(deliveries).toHaveLength(18);
      expect(await notes(owner.client)).toHaveLength(3);
      expect(await notes(sister.client)).toHaveLength(3);
      expect(await push.pushesTo(ownerPush.id, 3)).toHaveLength(3);
      expect(await push.pushesTo(sisterPush.id, 3)).toHaveLength(3);
      const mails = (email: string) => smtp.received.filter((m) => m.to.includes(email) && m.headers.subject?.includes('Medication'));
      expect(mails(owner.email)).toHaveLength(3);
      expect(mails(sister.email)).toHaveLength(3);
    } finally {
      await other.close();
    }
  });
});

describe('refills and appointments', () => {
  it('a refill reminder at 9:00, refill_remind_days before the runs-out date, once for that date', async () => {
    const w = await world();
    const owner = await signedInUser(w.t.app);
    const self = await selfProfileId(w.t.database.db, owner.id);
    // 5 tablets, one at 08:00 and one at 20:00: 05-Jan two, 06-Jan two, 07-Jan one, then none: runs out 2026-01-07.
    await insertScheduledMedication(w.t, {
      ownerId: owner.id,
      profileId: self,
      name: 'Amoxicillin',
      times: ['08:00', '20:00'],
      quantity: 5,
      refillRemindDays: 3,
      reminders: true,
    });
    await w.tick('2026-01-05T08:58:00Z');
    await w.tick('2026-01-05T08:59:00Z');
    await w.tick('2026-01-05T09:00:00Z');
    const refill = (await notes(owner.client)).filter((n) => n.title === 'Refill reminder');
    expect(refill.map((n) => n.data.message)).toEqual(['Amoxicillin runs out around 2026-01-07.']);
    await w.tick('2026-01-05T09:01:00Z');
    expect((await notes(owner.client)).filter((n) => n.title === 'Refill reminder')).toHaveLength(1);
  });

  it('appointment reminders reach a holder who opted in, and not one who did not; the owner can turn them off', async () => {
    const w = await world();
    const owner = await signedInUser(w.t.app);
    const father = await signedInUser(w.t.app, { username: 'Pablo' });
    const aunt = await signedInUser(w.t.app, { username: 'Ana' });
    const son = await insertMember(w.t.database.db, owner.id, { name: 'Leo Rivera' });
    await insertShare(w.t.database.db, { profileId: son, ownerId: owner.id, holderId: father.id, role: 'viewer' });
    await insertShare(w.t.database.db, { profileId: son, ownerId: owner.id, holderId: aunt.id, role: 'editor' });
    await father.client.put(`/api/user/people/${son}/reminder-settings`, { appointment_reminders: true });
    await owner.client.put(`/api/user/people/${son}/reminder-settings`, { appointment_reminders: false });
    const made = await owner.client.post('/api/user/appointments', {
      appointment_date: '2026-12-03',
      start_time: '2026-12-03T09:30',
      provider_name: 'Dr Lee',
      person_id: son,
      reminder_minutes: [60],
    });
    expect(made.statusCode, made.body).toBe(201);
    await w.tick('2026-12-03T08:29:00Z');
    expect((await w.tick('2026-12-03T08:30:00Z')).sent).toBe(1);
    expect((await notes(father.client)).map((n) => n.data.message)).toEqual([
      "Reminder: Leo Rivera's appointment with Dr Lee is in 1 hour.",
    ]);
    expect(await notes(aunt.client)).toEqual([]);
    expect(await notes(owner.client)).toEqual([]);
  });

  it('appointments remind at each lead time with words right in the person’s zone', async () => {
    const w = await world();
    const owner = await signedInUser(w.t.app);
    const son = await insertMember(w.t.database.db, owner.id, { name: 'Leo Rivera' });
    await setPersonZone(w.t, son, 'Europe/Madrid');
    const made = await owner.client.post('/api/user/appointments', {
      appointment_date: '2026-12-03',
      start_time: '2026-12-03T09:30',
      provider_name: 'Dr Lee',
      person_id: son,
    });
    expect(made.statusCode).toBe(201);
    const other = await owner.client.post('/api/user/appointments', {
      appointment_date: '2026-12-03',
      start_time: '2026-12-03T16:00',
      provider_name: 'Dr Ortiz',
      person_id: son,
    });
    await w.t.database.db
      .updateTable('appointments')
      .set({ reminder_minutes: JSON.stringify([30]) })
      .where('id', '=', other.json().id)
      .execute();
    // 09:30 in Madrid in December is 08:30 UTC: a day before, then two hours before.
    await w.tick('2026-12-02T08:29:00Z');
    await w.tick('2026-12-02T08:30:00Z');
    await w.tick('2026-12-03T06:29:00Z');
    await w.tick('2026-12-03T06:30:00Z');
    await w.tick('2026-12-03T14:29:00Z');
    await w.tick('2026-12-03T14:30:00Z');
    const list = (await notes(owner.client)).map((n) => [n.title, n.data.message]);
    expect(list).toEqual(
      expect.arrayContaining([
        ['Appointment tomorrow', "Reminder: Leo Rivera's appointment with Dr Lee is tomorrow at 9:30."],
        ['Appointment reminder', "Reminder: Leo Rivera's appointment with Dr Lee is in 2 hours."],
        ['Appointment reminder', "Reminder: Leo Rivera's appointment with Dr Ortiz is in 30 minutes."],
      ]),
    );
    expect(list).toHaveLength(3);
  });
});

describe('the push buttons', () => {
  async function remindedWithToken() {
    const w = await world();
    const owner = await signedInUser(w.t.app);
    const holder = await signedInUser(w.t.app, { username: 'Hal' });
    const son = await insertMember(w.t.database.db, owner.id, { name: 'Leo Rivera' });
    const share = await insertShare(w.t.database.db, { profileId: son, ownerId: owner.id, holderId: holder.id, role: 'editor' });
    await holder.client.put(`/api/user/people/${son}/reminder-settings`, { dose_reminders: true });
    const inhaler = await insertScheduledMedication(w.t, { ownerId: owner.id, profileId: son, name: 'Inhaler', times: ['08:00'] });
    const phone = await subscribe(holder);
    await w.tick('2026-01-05T07:59:00Z');
    await w.tick('2026-01-05T08:00:00Z');
    const [pushed] = await push.pushesTo(phone.id, 1);
    return { w, holder, son, phone, share, inhaler, token: String(pushed?.payload.token) };
  }
  const act = (app: FastifyInstance, body: unknown) =>
    app.inject({ method: 'POST', url: '/api/push-actions', payload: body as object, headers: { origin: 'http://localhost:3000' } });

  it('Taken logs the dose as the token’s user, through the dose service; then no missed alert', async () => {
    const { w, holder, son, token } = await remindedWithToken();
    w.clock.now = new Date('2026-01-05T08:03:00Z');
    const taken = await act(w.t.app, { token, action: 'taken' });
    expect(taken.statusCode, taken.body).toBe(200);
    expect((await act(w.t.app, { token, action: 'taken' })).statusCode).toBe(404);
    const doses = (await holder.client.get(`/api/user/people/${son}/doses?from=2026-01-05&to=2026-01-05`)).json().doses;
    expect(doses).toEqual([expect.objectContaining({ status: 'taken', logged_by: holder.username })]);
    await holder.client.put(`/api/user/people/${son}/reminder-settings`, { missed_dose_alerts: true });
    await w.tick('2026-01-05T09:00:00Z');
    expect((await notes(holder.client)).map((n) => n.title)).toEqual(['Medication reminder']);
  });

  it('Snooze reminds that user once more 10 minutes later; the token works once', async () => {
    const { w, holder, phone, token } = await remindedWithToken();
    w.clock.now = new Date('2026-01-05T08:02:00Z');
    const snoozed = await act(w.t.app, { token, action: 'snooze' });
    expect(snoozed.statusCode).toBe(200);
    expect((await act(w.t.app, { token, action: 'snooze' })).statusCode).toBe(404);
    expect((await w.tick('2026-01-05T08:11:00Z')).sent).toBe(0);
    expect((await w.tick('2026-01-05T08:12:00Z')).sent).toBe(1);
    const pushes = await push.pushesTo(phone.id, 2);
    expect(pushes[1]?.payload).toMatchObject({ title: 'Medication reminder', body: 'Leo Rivera: time for Inhaler (08:12).' });
    expect(pushes[1]?.payload.token).not.toBe(token);
    expect((await notes(holder.client)).map((n) => n.title)).toEqual(['Medication reminder', 'Medication reminder']);
  });

  it('a snoozed reminder is not sent again once the dose is logged, nor to a user who lost access since', async () => {
    const { w, holder, son, phone, token, share, inhaler } = await remindedWithToken();
    w.clock.now = new Date('2026-01-05T08:02:00Z');
    expect((await act(w.t.app, { token, action: 'snooze' })).statusCode).toBe(200);
    // Someone logs the dose in the meantime: the snooze has nothing left to remind of.
    w.clock.now = new Date('2026-01-05T08:05:00Z');
    const logged = await holder.client.put(`/api/user/people/${son}/doses/${doseIdOf(inhaler, '2026-01-05T08:00')}`, {
      status: 'taken',
    });
    expect(logged.statusCode, logged.body).toBe(200);
    expect((await w.tick('2026-01-05T08:12:00Z')).sent).toBe(0);
    expect(push.received.filter((p) => p.id === phone.id)).toHaveLength(1);
    expect((await notes(holder.client)).map((n) => n.title)).toEqual(['Medication reminder']);

    // Another day: snoozed, then the share is revoked: the snooze does not reach them.
    await w.tick('2026-01-06T07:59:00Z');
    await w.tick('2026-01-06T08:00:00Z');
    const [, second] = await push.pushesTo(phone.id, 2);
    w.clock.now = new Date('2026-01-06T08:01:00Z');
    expect((await act(w.t.app, { token: String(second?.payload.token), action: 'snooze' })).statusCode).toBe(200);
    await w.t.database.db.updateTable('person_shares').set({ revoked_at: nowIso() }).where('id', '=', share).execute();
    expect((await w.tick('2026-01-06T08:11:00Z')).sent).toBe(0);
    expect(push.received.filter((p) => p.id === phone.id)).toHaveLength(2);
    expect(await notes(holder.client)).toHaveLength(2);
  });

  it('each browser gets its own token; answering on one spends the other’s; a removed browser’s token stops working', async () => {
    const w = await world();
    const owner = await signedInUser(w.t.app);
    const self = await selfProfileId(w.t.database.db, owner.id);
    await insertScheduledMedication(w.t, { ownerId: owner.id, profileId: self, name: 'Inhaler', times: ['08:00', '20:00'] });
    const desktop = await subscribe(owner);
    const phoneClient = new TestClient(w.t.app);
    expect((await phoneClient.post('/api/auth/login', { email: owner.email, password: owner.password })).statusCode).toBe(200);
    const phone = push.subscription();
    expect((await phoneClient.post('/api/user/push-subscriptions', phone.json)).statusCode).toBe(201);

    await w.tick('2026-01-05T07:59:00Z');
    await w.tick('2026-01-05T08:00:00Z');
    const [onDesktop] = await push.pushesTo(desktop.id, 1);
    const [onPhone] = await push.pushesTo(phone.id, 1);
    expect(onDesktop?.payload.token).toMatch(/^[\w-]{43}$/);
    expect(onPhone?.payload.token).toMatch(/^[\w-]{43}$/);
    expect(onPhone?.payload.token).not.toBe(onDesktop?.payload.token);
    // Taken on the desktop: the phone's button for the same reminder is answered too.
    w.clock.now = new Date('2026-01-05T08:02:00Z');
    expect((await act(w.t.app, { token: onDesktop?.payload.token, action: 'taken' })).statusCode).toBe(200);
    expect((await act(w.t.app, { token: onPhone?.payload.token, action: 'snooze' })).statusCode).toBe(404);

    // 20:00: the phone is lost, and its session is ended from the desktop's sessions list.
    await w.tick('2026-01-05T19:59:00Z');
    await w.tick('2026-01-05T20:00:00Z');
    const [, eveningDesktop] = await push.pushesTo(desktop.id, 2);
    const [, eveningPhone] = await push.pushesTo(phone.id, 2);
    const sessions = (await owner.client.get('/api/auth/sessions')).json<{ id: string; current: boolean }[]>();
    expect((await owner.client.delete(`/api/auth/sessions/${sessions.find((s) => !s.current)?.id}`)).statusCode).toBe(200);
    w.clock.now = new Date('2026-01-05T20:05:00Z');
    // The lost phone's Taken logs nothing; the desktop's still works.
    expect((await act(w.t.app, { token: eveningPhone?.payload.token, action: 'taken' })).statusCode).toBe(404);
    const before = (await owner.client.get(`/api/user/people/${self}/doses?from=2026-01-05&to=2026-01-05`)).json().doses;
    expect(before.map((d: { status: string }) => d.status)).toEqual(['taken', 'due']);
    expect((await act(w.t.app, { token: eveningDesktop?.payload.token, action: 'taken' })).statusCode).toBe(200);
    // And the next reminder reaches the desktop only.
    await w.tick('2026-01-06T07:59:00Z');
    await w.tick('2026-01-06T08:00:00Z');
    expect(await push.pushesTo(desktop.id, 3)).toHaveLength(3);
    expect(push.received.filter((p) => p.id === phone.id)).toHaveLength(2);
  });

  it('an expired token, an unknown one, and one whose user lost access are refused', async () => {
    const { w, token, share } = await remindedWithToken();
    expect((await act(w.t.app, { token: 'x'.repeat(43), action: 'snooze' })).statusCode).toBe(404);
    expect((await act(w.t.app, { token, action: 'later' })).statusCode).toBe(400);
    await w.t.database.db.updateTable('person_shares').set({ revoked_at: nowIso() }).where('id', '=', share).execute();
    w.clock.now = new Date('2026-01-05T08:05:00Z');
    expect((await act(w.t.app, { token, action: 'snooze' })).statusCode).toBe(404);

    const again = await remindedWithToken();
    again.w.clock.now = new Date('2026-01-05T20:00:01Z');
    expect((await act(again.w.t.app, { token: again.token, action: 'snooze' })).statusCode).toBe(404);
  });
});
