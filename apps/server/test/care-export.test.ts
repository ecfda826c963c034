// Issue 32, decision 0046: the Kinchart export (format version 3) carries each medication's schedule
// and its logged doses, the import restores them under the account's own medication ids (twice adds
// nothing), and the FHIR collection writes each logged dose as a MedicationAdministration that
// Medplum's validator accepts. Decision 0045: the import restores each calendar feed's settings with
// a fresh token nobody knows, listed as `restored` until its account renews its address.
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dose } from '@kinchart/shared/care';
import { kinchartExportSchema } from '@kinchart/shared/export';
import type { TestApp } from './helpers';
import { TestClient, buildTestApp, signedInUser } from './helpers';
import type { FhirChecker } from './fhir-validator';
import { loadFhirChecker } from './fhir-validator';
import { exportZip, importFile, readZip } from './export-helpers';
import { insertMember, selfProfileId } from './factories';
import { insertShare } from './share-factories';
import { sha256Hex } from '../src/lib/ids';
import type { CareUser } from './care-helpers';
import { addMedication, dosesPath, putSchedule, schedulePath, setZone } from './care-helpers';

let t: TestApp;
let check: FhirChecker;
/** Wednesday 2027-03-10, 12:00Z. */
const now = new Date('2027-03-10T12:00:00Z');

beforeAll(async () => {
  t = await buildTestApp({}, { now: () => now });
  check = await loadFhirChecker();
});
afterAll(async () => {
  await t.close();
});

type Bundle = { entry: { fullUrl: string; resource: Record<string, unknown> }[] };

/** An account whose own profile (New York) and child (Madrid) have scheduled medications and logged doses. */
async function accountWithDoses() {
  const user = await signedInUser(t.app, { username: 'Ana Export' });
  const self = await selfProfileId(t.database.db, user.id);
  await setZone(t, self, 'America/New_York');
  const saved = await user.client.put('/api/user/updateProfile', { name: 'Ana Rivers', date_of_birth: '1985-01-02' });
  expect(saved.statusCode, saved.body).toBe(200);
  const child = await insertMember(t.database.db, user.id, { name: 'Mia Rivers' });
  await setZone(t, child, 'Europe/Madrid');
  const own = await user.client.post('/api/user/medications', { medication_name: 'Inhaler', dosage: '2 puffs', is_current: true });
  expect(own.statusCode).toBe(201);
  const inhaler = own.json<{ id: string }>().id;
  await putSchedule(user, self, inhaler, {
    times: ['08:00', '20:00'],
    start_date: '2027-03-01',
    quantity_on_hand: 30,
    refill_remind_days: 5,
  });
  const log = async (person: string, dose: string, body: Record<string, unknown>) => {
    const res = await user.client.put(dosesPath(person, `/${dose}`), body);
    expect(res.statusCode, res.body).toBe(200);
  };
  await log(self, `${inhaler}.202703090800`, { status: 'taken', taken_at: '2027-03-09T13:05:00Z' });
  await log(self, `${inhaler}.202703092000`, { status: 'skipped' });
  const paracetamol = await user.client.post('/api/user/medications', {
    medication_name: 'Paracetamol',
    dosage: '500 mg',
    is_current: true,
  });
  const asNeeded = await user.client.post(dosesPath(self), {
    medication_id: paracetamol.json<{ id: string }>().id,
    taken_at: '2027-03-09T15:00:00Z',
  });
  expect(asNeeded.statusCode).toBe(201);
  const syrup = await addMedication(user, child, 'Syrup', { dosage: '5 ml' });
  await putSchedule(user, child, syrup, { times: ['09:00'], days: [1, 2, 3, 4, 5], start_date: '2027-03-01', end_date: '2027-04-30' });
  await log(child, `${syrup}.202703090900`, { status: 'taken', taken_at: '2027-03-09T08:10:00Z' });
  return { user, self, child, inhaler, syrup };
}

const ownDoses = async (user: CareUser, from: string, to = from): Promise<Dose[]> => {
  const self = await selfProfileId(t.database.db, user.id);
  const res = await user.client.get(dosesPath(self, `?from=${from}&to=${to}`));
  expect(res.statusCode).toBe(200);
  return res.json<{ doses: Dose[] }>().doses;
};

describe('the export', () => {
  it('kinchart.json (version 3) holds each medication’s schedule and logged doses', async () => {
    const { user, inhaler, syrup } = await accountWithDoses();
    const zip = await readZip(await exportZip(user.client));
    const doc = kinchartExportSchema.parse(JSON.parse(zip.get('kinchart.json')!.toString('utf8')));
    expect(doc.version).toBe(3);
    const meds = doc.profiles.flatMap((p) => p.medications);
    const own = meds.find((m) => m.id === inhaler)!;
    expect(own.schedule).toEqual({
      times: ['08:00', '20:00'],
      days: [1, 2, 3, 4, 5, 6, 7],
      start_date: '2027-03-01',
      end_date: null,
      as_needed: false,
      dose_units: 1,
      quantity_on_hand: 29,
      refill_remind_days: 5,
      reminders: true,
    });
    expect(own.doses.map((d) => [d.id, d.scheduled_local, d.status, d.taken_at, d.logged_by, d.units_taken])).toEqual([
      [`${inhaler}.202703090800`, '2027-03-09T08:00', 'taken', '2027-03-09T13:05:00.000Z', 'Ana Export', 1],
      [`${inhaler}.202703092000`, '2027-03-09T20:00', 'skipped', null, 'Ana Export', null],
    ]);
    const paracetamol = meds.find((m) => m.medication_name === 'Paracetamol')!;
    expect(paracetamol.schedule).toBeNull();
    expect(paracetamol.doses).toEqual([expect.objectContaining({ as_needed: true, scheduled_local: '2027-03-09T10:00', status: 'taken' })]);
    expect(meds.find((m) => m.id === syrup)!.schedule).toMatchObject({ days: [1, 2, 3, 4, 5], end_date: '2027-04-30' });
  });

  it('the FHIR collection writes each logged dose as a MedicationAdministration, valid in Medplum’s validator', async () => {
    const { user } = await accountWithDoses();
    const zip = await readZip(await exportZip(user.client));
    const read = (name: string) => JSON.parse(zip.get(name)!.toString()) as Bundle;
    for (const name of ['fhir/Ana Rivers-other.json', 'fhir/Mia Rivers-other.json']) expect(check.collection(read(name)), name).toEqual([]);
    const administrations = (b: Bundle) =>
      b.entry.filter((e) => e.resource.resourceType === 'MedicationAdministration').map((e) => e.resource);
    const own = administrations(read('fhir/Ana Rivers-other.json'));
    const patient = read('fhir/Ana Rivers-other.json').entry[0]!.fullUrl;
    expect(own).toEqual(
      expect.arrayContaining([
        {
          resourceType: 'MedicationAdministration',
          status: 'completed',
          medicationCodeableConcept: { text: 'Inhaler' },
          subject: { reference: patient },
          effectiveDateTime: '2027-03-09T08:05:00-05:00',
        },
        {
          resourceType: 'MedicationAdministration',
          status: 'not-done',
          statusReason: [{ text: 'Dose skipped' }],
          medicationCodeableConcept: { text: 'Inhaler' },
          subject: { reference: patient },
          effectiveDateTime: '2027-03-09T20:00:00-05:00',
        },
        expect.objectContaining({
          status: 'completed',
          medicationCodeableConcept: { text: 'Paracetamol' },
          effectiveDateTime: '2027-03-09T10:00:00-05:00',
        }),
      ]),
    );
    expect(own).toHaveLength(3);
    // The child's dose in the child's own zone.
    expect(administrations(read('fhir/Mia Rivers-other.json'))).toEqual([
      expect.objectContaining({ status: 'completed', effectiveDateTime: '2027-03-09T09:10:00+01:00' }),
    ]);
  });
});

describe('the import', () => {
  it('restores schedules and doses under the new account’s medications; importing again adds nothing', async () => {
    const source = await accountWithDoses();
    const zipFile = await exportZip(source.user.client);
    const target = await signedInUser(t.app, { username: 'Ben Import' });
    const first = await importFile(target.client, zipFile, 'export.zip');
    expect(first.statusCode, first.body).toBe(200);

    const targetSelf = await selfProfileId(t.database.db, target.id);
    const meds = (await target.client.get('/api/user/medications')).json<{ id: string; medication_name: string }[]>();
    const inhaler = meds.find((m) => m.medication_name === 'Inhaler')!;
    expect(inhaler.id).not.toBe(source.inhaler);
    const schedule = (await target.client.get(schedulePath(targetSelf, inhaler.id))).json();
    expect(schedule).toMatchObject({ times: ['08:00', '20:00'], start_date: '2027-03-01', quantity_on_hand: 29, refill_remind_days: 5 });

    const doses = await ownDoses(target, '2027-03-09');
    const logged = doses.filter((d) => d.status === 'taken' || d.status === 'skipped');
    // What the export's own account logged is the importing account's (its own profile became theirs too).
    expect(logged.map((d) => [d.dose_id, d.medication_name, d.status, new Date(d.scheduled_at).toISOString(), d.logged_by])).toEqual([
      [`${inhaler.id}.202703090800`, 'Inhaler', 'taken', '2027-03-09T13:00:00.000Z', 'Ben Import'],
      [expect.any(String), 'Paracetamol', 'taken', '2027-03-09T15:00:00.000Z', 'Ben Import'],
      [`${inhaler.id}.202703092000`, 'Inhaler', 'skipped', '2027-03-10T01:00:00.000Z', 'Ben Import'],
    ]);
    // The restored log is the account's own: a restored dose can be changed (and gives back its unit).
    const skip = await target.client.put(dosesPath(targetSelf, `/${inhaler.id}.202703090800`), { status: 'skipped' });
    expect(skip.statusCode).toBe(200);
    expect((await target.client.get(schedulePath(targetSelf, inhaler.id))).json()).toMatchObject({ quantity_on_hand: 30 });

    const count = async () =>
      Number(
        (
          await t.database.db
            .selectFrom('dose_log')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('user_id', '=', target.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count()).toBe(4);
    const again = await importFile(target.client, zipFile, 'export.zip');
    expect(again.statusCode, again.body).toBe(200);
    expect(await count()).toBe(4);
    // The schedule already there stays as it is.
    expect((await target.client.get(schedulePath(targetSelf, inhaler.id))).json()).toMatchObject({ quantity_on_hand: 30 });
  });

  it('an account restoring its own export gets nothing twice, as-needed doses included', async () => {
    const source = await accountWithDoses();
    const zipFile = await exportZip(source.user.client);
    const again = await importFile(source.user.client, zipFile, 'export.zip');
    expect(again.statusCode, again.body).toBe(200);
    const doses = await ownDoses(source.user, '2027-03-09');
    expect(doses.filter((d) => d.logged_by === 'Ana Export')).toHaveLength(3);
    expect(
      Number(
        (
          await t.database.db
            .selectFrom('dose_log')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('user_id', '=', source.user.id)
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(4);
  });
});

type Feed = {
  id: string;
  person_id: string | null;
  person_name: string | null;
  include_medications: boolean;
  minimal: boolean;
  last_read_at: string | null;
  restored: boolean;
};
type Created = { id: string; url: string; webcal_url: string };

const feedPath = (url: string) => new URL(url).pathname;
const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1, -'.ics'.length);
const feedsOf = async (client: TestClient): Promise<Feed[]> => {
  const res = await client.get('/api/user/calendar-feeds');
  expect(res.statusCode).toBe(200);
  return res.json<{ feeds: Feed[] }>().feeds;
};
const summaries = (ics: string) => new ICAL.Component(ICAL.parse(ics)).getAllSubcomponents('vevent').map((v) => new ICAL.Event(v).summary);

/** The account of accountWithDoses with an appointment of Mia's and three feeds: Mia's, everyone's (minimal), and a shared grandmother's. */
async function accountWithFeeds() {
  const source = await accountWithDoses();
  const added = await source.user.client.post('/api/user/appointments', {
    person_id: source.child,
    appointment_date: '2027-03-20',
    start_time: '2027-03-20T10:00',
    provider_name: 'Dr. Lee',
  });
  expect(added.statusCode, added.body).toBe(201);
  // Someone else's mother, shared with the account: the export does not hold her.
  const aunt = await signedInUser(t.app, { username: 'Aunt Export' });
  const grandma = await insertMember(t.database.db, aunt.id, { name: 'Grandma Rivers', relationship: 'parent' });
  await insertShare(t.database.db, { profileId: grandma, ownerId: aunt.id, holderId: source.user.id, role: 'viewer' });
  const make = async (body: Record<string, unknown>) => {
    const res = await source.user.client.post('/api/user/calendar-feeds', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Created>();
  };
  const mia = await make({ person_id: source.child, include_medications: true, minimal: false });
  const everyone = await make({ person_id: null, include_medications: false, minimal: true });
  const shared = await make({ person_id: grandma, include_medications: false, minimal: false });
  return { ...source, aunt, grandma, feeds: { mia, everyone, shared } };
}

describe('calendar feeds through an export and an import', () => {
  it('come back with their settings, the person mapped, fresh ids and tokens nobody knows, listed as restored', async () => {
    const source = await accountWithFeeds();
    const zipFile = await exportZip(source.user.client);
    const target = await signedInUser(t.app, { username: 'Ben Feeds' });
    const imported = await importFile(target.client, zipFile, 'export.zip');
    expect(imported.statusCode, imported.body).toBe(200);
    // The grandmother is not this account's to see: her feed is left out, and the answer says so.
    expect(imported.json<{ skipped: string[] }>().skipped).toEqual(['1 calendar feed of a person this account cannot see']);

    const mia = (await target.client.get('/api/user/people'))
      .json<{ id: string; name: string | null }[]>()
      .find((p) => p.name === 'Mia Rivers')!;
    expect(mia.id).not.toBe(source.child);
    const feeds = await feedsOf(target.client);
    expect(feeds).toHaveLength(2);
    expect(feeds).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          person_id: mia.id,
          person_name: 'Mia Rivers',
          include_medications: true,
          minimal: false,
          last_read_at: null,
          restored: true,
        }),
        expect.objectContaining({ person_id: null, person_name: null, include_medications: false, minimal: true, restored: true }),
      ]),
    );
    const sourceIds = Object.values(source.feeds).map((f) => f.id);
    for (const f of feeds) expect(sourceIds).not.toContain(f.id);
    // Each restored feed has a token of its own, stored hashed: none of the exported account's.
    const hashes = (
      await t.database.db.selectFrom('calendar_feeds').select(['token_hash', 'restored']).where('user_id', '=', target.id).execute()
    ).map((r) => r.token_hash);
    expect(hashes).toHaveLength(2);
    for (const f of Object.values(source.feeds)) expect(hashes).not.toContain(sha256Hex(tokenOf(f.url)));
    for (const h of hashes) expect(h).toMatch(/^[0-9a-f]{64}$/);
    // The old address is still the exported account's own feed; once that account revokes it, it answers nothing.
    const anon = new TestClient(t.app);
    expect(summaries((await anon.get(feedPath(source.feeds.mia.url))).body)).toEqual(['Mia Rivers: Dr. Lee']);
    expect((await source.user.client.delete(`/api/user/calendar-feeds/${source.feeds.mia.id}`)).statusCode).toBe(200);
    expect((await anon.get(feedPath(source.feeds.mia.url))).statusCode).toBe(404);

    // Importing the same export again adds no feed.
    const again = await importFile(target.client, zipFile, 'export.zip');
    expect(again.statusCode, again.body).toBe(200);
    expect(await feedsOf(target.client)).toHaveLength(2);

    // A restored feed gets an address by renewing it: a calendar of the imported Mia, read without a session.
    const restored = feeds.find((f) => f.person_id === mia.id)!;
    const renewed = await target.client.post(`/api/user/calendar-feeds/${restored.id}/renew`);
    expect(renewed.statusCode, renewed.body).toBe(200);
    const address = renewed.json<Created>();
    expect(address).toEqual({
      id: restored.id,
      url: expect.stringMatching(/\/api\/calendar\/[\w-]{43}\.ics$/),
      webcal_url: expect.any(String),
    });
    const read = await anon.get(feedPath(address.url));
    expect(read.statusCode).toBe(200);
    const calendar = new ICAL.Component(ICAL.parse(read.body));
    expect(calendar.getFirstPropertyValue('name')).toBe('Kinchart: Mia Rivers');
    expect(summaries(read.body)).toEqual(['Mia Rivers: Dr. Lee']);
    const after = await feedsOf(target.client);
    expect(after.find((f) => f.id === restored.id)).toMatchObject({ restored: false, include_medications: true, person_id: mia.id });
    expect(after.find((f) => f.id !== restored.id)).toMatchObject({ restored: true });

    // Renewing again: the address before answers 404 at once.
    const second = (await target.client.post(`/api/user/calendar-feeds/${restored.id}/renew`)).json<Created>();
    expect((await anon.get(feedPath(address.url))).statusCode).toBe(404);
    expect((await anon.get(feedPath(second.url))).statusCode).toBe(200);
    // Nobody else renews it (404), and an id no feed can have is 400.
    expect((await source.user.client.post(`/api/user/calendar-feeds/${restored.id}/renew`)).statusCode).toBe(404);
    expect((await anon.get(feedPath(second.url))).statusCode).toBe(200);
    const bad = await target.client.post(`/api/user/calendar-feeds/${'x'.repeat(65)}/renew`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^id: /);
  });

  it('keeps a shared person’s feed for an account that sees them too; an account restoring its own export gets no feed twice', async () => {
    const source = await accountWithFeeds();
    const zipFile = await exportZip(source.user.client);
    const cousin = await signedInUser(t.app, { username: 'Cousin Feeds' });
    await insertShare(t.database.db, { profileId: source.grandma, ownerId: source.aunt.id, holderId: cousin.id, role: 'viewer' });
    const imported = await importFile(cousin.client, zipFile, 'export.zip');
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json<{ skipped: string[] }>().skipped).toEqual([]);
    const feeds = await feedsOf(cousin.client);
    expect(feeds).toHaveLength(3);
    expect(feeds.find((f) => f.person_id === source.grandma)).toMatchObject({ person_name: 'Grandma Rivers', restored: true });

    const own = await importFile(source.user.client, zipFile, 'export.zip');
    expect(own.statusCode, own.body).toBe(200);
    const still = await feedsOf(source.user.client);
    expect(still.map((f) => f.id).sort()).toEqual(
      Object.values(source.feeds)
        .map((f) => f.id)
        .sort(),
    );
    expect(still.every((f) => !f.restored)).toBe(true);
  });

  it('restores no more feeds than an account may hold (20), saying how many were left out', async () => {
    const source = await accountWithFeeds();
    const zipFile = await exportZip(source.user.client);
    const full = await signedInUser(t.app, { username: 'Full Feeds' });
    for (let i = 0; i < 19; i += 1) expect((await full.client.post('/api/user/calendar-feeds', { minimal: false })).statusCode).toBe(201);
    const imported = await importFile(full.client, zipFile, 'export.zip');
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json<{ skipped: string[] }>().skipped).toEqual([
      '1 calendar feed of a person this account cannot see',
      '1 calendar feed beyond the limit of feeds an account',
    ]);
    const feeds = await feedsOf(full.client);
    expect(feeds).toHaveLength(20);
    expect(feeds.filter((f) => f.restored)).toEqual([expect.objectContaining({ include_medications: true, minimal: false })]);
  });
});
