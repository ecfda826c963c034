// DESIGN §7: essentials without the PIN (the owner's choice per code), the PIN status header,
// guessing limits that apply to the PIN only, and the owner's one action on a locked or
// disabled PIN.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { TestClient, buildTestApp, signedInUser } from './helpers';
import { fillProfile, insertMember, selfProfileId } from './factories';
import { expireAddressLocks } from './pin-locks';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

type Owner = Awaited<ReturnType<typeof signedInUser>>;

async function setUpOwnCode(pin = '4826'): Promise<{ owner: Owner; shareId: string; profileId: string }> {
  const owner = await signedInUser(t.app);
  const profileId = await selfProfileId(t.database.db, owner.id);
  await fillProfile(t.database.db, owner.id, profileId);
  const res = await owner.client.post('/api/user/wearable-qr', { pin });
  expect(res.statusCode).toBe(201);
  return { owner, shareId: res.json().share_id as string, profileId };
}

let addressCounter = 0;
function stranger() {
  addressCounter += 1;
  const remoteAddress = `10.7.${Math.floor(addressCounter / 250)}.${addressCounter % 250}`;
  const client = new TestClient(t.app);
  return { get: (url: string) => client.get(url, { remoteAddress }) };
}

/** Whole years on today's UTC date, computed independently of the server's helper. */
function ageFrom(dob: string): number {
  const now = new Date();
  const [y, m, d] = dob.split('-').map(Number) as [number, number, number];
  let age = now.getUTCFullYear() - y;
  if (now.getUTCMonth() + 1 < m || (now.getUTCMonth() + 1 === m && now.getUTCDate() < d)) age -= 1;
  return age;
}

const PROFILE_TIME = '2026-03-04T05:06:07.000Z';

/** fillProfile's person with fixed times, so `updated_at` is known exactly (the latest of the profile and its lists). */
async function pinTimes(profileId: string, medicationTime = '2026-01-01T00:00:00.000Z') {
  const db = t.database.db;
  const listTime = '2026-01-01T00:00:00.000Z';
  await db.updateTable('profiles').set({ updated_at: PROFILE_TIME }).where('id', '=', profileId).execute();
  await db.updateTable('medications').set({ updated_at: medicationTime }).where('profile_id', '=', profileId).execute();
  await db.updateTable('emergency_contacts').set({ created_at: listTime }).where('profile_id', '=', profileId).execute();
  await db.updateTable('healthcare_providers').set({ created_at: listTime }).where('profile_id', '=', profileId).execute();
}

const jordan = () => ({
  name: 'Jordan Rivers',
  age: ageFrom('1980-02-03'),
  is_pet: false,
  species: null,
  blood_type: 'O-',
  allergies: 'Penicillin',
  allergy_entries: [{ substance: 'Penicillin', reactions: [], severity: null, criticality: null }],
  conditions: null,
  bleeding_disorder: null,
  medications: ['Warfarin'],
  primary_contact: { name: 'Sam Rivers', phone_number: '555-0199' },
  updated_at: PROFILE_TIME,
});

async function wrongPins(s: ReturnType<typeof stranger>, shareId: string, n: number, prefix = '135') {
  for (let i = 0; i < n; i += 1) expect((await s.get(`/api/user/emergency/${shareId}?pin=${prefix}${i}`)).statusCode).toBe(401);
}

const liftLockByClock = (shareId: string) => expireAddressLocks(t.database.db, shareId);

describe('the owner’s essentials setting', () => {
  it('is off by default and is read in every QR configuration answer', async () => {
    const owner = await signedInUser(t.app);
    expect((await owner.client.get('/api/user/wearable-qr')).json()).toMatchObject({
      exists: false,
      essentials_without_pin: false,
      pin_status: 'ok',
    });
    const setup = await owner.client.post('/api/user/wearable-qr', { pin: '4826' });
    expect(setup.json()).toMatchObject({ essentials_without_pin: false, pin_status: 'ok' });
    const on = await owner.client.put('/api/user/wearable-qr/settings', { essentials_without_pin: true });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toMatchObject({ exists: true, is_active: true, essentials_without_pin: true });
    expect((await owner.client.get('/api/user/wearable-qr')).json().essentials_without_pin).toBe(true);
    expect((await owner.client.put('/api/user/wearable-qr/toggle', { is_active: true })).json().essentials_without_pin).toBe(true);
    expect((await owner.client.put('/api/user/wearable-qr/update-pin', { pin: '5937' })).json().essentials_without_pin).toBe(true);
    const off = await owner.client.put('/api/user/wearable-qr/settings', { essentials_without_pin: false });
    expect(off.json().essentials_without_pin).toBe(false);
    const audit = await t.database.db
      .selectFrom('audit_events')
      .select('action')
      .where('user_id', '=', owner.id)
      .where('action', '=', 'qr_settings')
      .execute();
    expect(audit).toHaveLength(2);
  });

  it('answers 404 before set-up, 400 for a bad body, 401 without a session and 403 cross-origin', async () => {
    const owner = await signedInUser(t.app);
    expect((await owner.client.put('/api/user/wearable-qr/settings', { essentials_without_pin: true })).statusCode).toBe(404);
    expect((await owner.client.put('/api/user/wearable-qr/unlock')).statusCode).toBe(404);
    await owner.client.post('/api/user/wearable-qr', { pin: '4826' });
    for (const body of [
      {},
      { essentials_without_pin: 'yes' },
      { essentials_without_pin: 1 },
      { essentials_without_pin: true, extra: 1 },
      null,
    ]) {
      expect((await owner.client.put('/api/user/wearable-qr/settings', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    const anon = new TestClient(t.app);
    expect((await anon.put('/api/user/wearable-qr/settings', { essentials_without_pin: true })).statusCode).toBe(401);
    expect((await anon.put('/api/user/wearable-qr/unlock')).statusCode).toBe(401);
    const cross = await owner.client.request(
      'PUT',
      '/api/user/wearable-qr/settings',
      { essentials_without_pin: true },
      { headers: { origin: 'https://evil.example' } },
    );
    expect(cross.statusCode).toBe(403);
    expect((await owner.client.get('/api/user/wearable-qr')).json().essentials_without_pin).toBe(false);
  });

  it('is per member code, and another user’s member (or own profile) is the same 404 as a missing one', async () => {
    const owner = await signedInUser(t.app);
    const intruder = await signedInUser(t.app);
    const memberId = await insertMember(t.database.db, owner.id);
    expect((await owner.client.put(`/api/user/family/members/${memberId}/qr/settings`, { essentials_without_pin: true })).statusCode).toBe(
      404,
    );
    await owner.client.post(`/api/user/family/members/${memberId}/qr`, { pin: '7314' });
    const on = await owner.client.put(`/api/user/family/members/${memberId}/qr/settings`, { essentials_without_pin: true });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toMatchObject({ essentials_without_pin: true });
    expect((await owner.client.get(`/api/user/family/members/${memberId}/qr`)).json().essentials_without_pin).toBe(true);
    expect((await owner.client.get('/api/user/wearable-qr')).json().essentials_without_pin).toBe(false);

    const selfId = await selfProfileId(t.database.db, owner.id);
    for (const id of [memberId, selfId, 'no-such-member']) {
      const settings = await intruder.client.put(`/api/user/family/members/${id}/qr/settings`, { essentials_without_pin: false });
      expect(settings.statusCode).toBe(404);
      expect(settings.json()).toMatchObject({ message: 'Family member not found' });
      const unlock = await intruder.client.put(`/api/user/family/members/${id}/qr/unlock`);
      expect(unlock.statusCode).toBe(404);
      expect(unlock.json()).toMatchObject({ message: 'Family member not found' });
    }
    expect((await owner.client.get(`/api/user/family/members/${memberId}/qr`)).json().essentials_without_pin).toBe(true);
  });
});

describe('the public answer without a PIN', () => {
  it('is exactly { requirePin: true } when the option is off, with no status header and no notice', async () => {
    const { owner, shareId } = await setUpOwnCode();
    const res = await stranger().get(`/api/user/emergency/${shareId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ requirePin: true });
    expect(res.headers['kinchart-pin-status']).toBeUndefined();
    const notes = (await owner.client.get('/api/user/notifications')).json<{ type: string }[]>();
    expect(notes.filter((n) => n.type === 'qr_access')).toHaveLength(0);
  });

  it('is exactly the essentials when opted in, with status ok, and it notifies and audits the owner', async () => {
    const { owner, shareId, profileId } = await setUpOwnCode();
    await pinTimes(profileId);
    await owner.client.put('/api/user/wearable-qr/settings', { essentials_without_pin: true });
    const res = await stranger().get(`/api/user/emergency/${shareId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ requirePin: true, essentials: jordan() });
    expect(res.headers['kinchart-pin-status']).toBe('ok');
    expect(res.headers['cache-control']).toBe('no-store');
    for (const secret of ['12 Secret Lane', 'jordan.private', '555-0100', 'Malignant', 'OldMed', '5 mg'])
      expect(res.body).not.toContain(secret);

    const notes = (await owner.client.get('/api/user/notifications')).json<{ type: string; title: string }[]>();
    expect(notes.filter((n) => n.type === 'qr_access')).toHaveLength(1);
    const audit = await t.database.db
      .selectFrom('audit_events')
      .select('action')
      .where('user_id', '=', owner.id)
      .where('action', '=', 'emergency_view')
      .execute();
    expect(audit).toHaveLength(1);
  });

  it('takes updated_at from the latest of the profile and its lists, and fills unknowns with null', async () => {
    const { owner, shareId, profileId } = await setUpOwnCode();
    await pinTimes(profileId, '2026-05-06T07:08:09.000Z');
    await t.database.db
      .updateTable('profiles')
      .set({ has_chronic_conditions: 1, chronic_condition_details: '', has_bleeding_disorders: 1 })
      .where('id', '=', profileId)
      .execute();
    await owner.client.put('/api/user/wearable-qr/settings', { essentials_without_pin: true });
    const res = await stranger().get(`/api/user/emergency/${shareId}`);
    expect(res.json()).toEqual({
      requirePin: true,
      essentials: { ...jordan(), conditions: 'Yes', bleeding_disorder: 'should not matter', updated_at: '2026-05-06T07:08:09.000Z' },
    });

    const member = await insertMember(t.database.db, owner.id, { name: 'Rex' });
    await t.database.db.updateTable('profiles').set({ date_of_birth: null, updated_at: PROFILE_TIME }).where('id', '=', member).execute();
    const setup = await owner.client.post(`/api/user/family/members/${member}/qr`, { pin: '7314' });
    await owner.client.put(`/api/user/family/members/${member}/qr/settings`, { essentials_without_pin: true });
    const memberShare = setup.json().share_id as string;
    expect((await stranger().get(`/api/user/emergency/${memberShare}`)).statusCode).toBe(404);
    const view = await stranger().get(`/api/user/family/emergency/${memberShare}`);
    expect(view.json()).toEqual({
      requirePin: true,
      essentials: {
        name: 'Rex',
        age: null,
        is_pet: false,
        species: null,
        blood_type: null,
        allergies: null,
        allergy_entries: [],
        conditions: null,
        bleeding_disorder: null,
        medications: [],
        primary_contact: null,
        updated_at: PROFILE_TIME,
      },
    });
    const notes = (await owner.client.get('/api/user/notifications')).json<{ type: string }[]>();
    expect(notes.filter((n) => n.type === 'family_emergency_access')).toHaveLength(1);
  });
});

describe('guessing limits apply to the PIN only', () => {
  it('an opted-in code keeps answering its essentials while the PIN is locked, and a PIN attempt is 429', async () => {
    const { owner, shareId, profileId } = await setUpOwnCode('4826');
    await pinTimes(profileId);
    await owner.client.put('/api/user/wearable-qr/settings', { essentials_without_pin: true });
    const s = stranger();
    await wrongPins(s, shareId, 5);
    const locked = await s.get(`/api/user/emergency/${shareId}?pin=4826`);
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    const essentials = await s.get(`/api/user/emergency/${shareId}`);
    expect(essentials.statusCode).toBe(200);
    expect(essentials.json()).toEqual({ requirePin: true, essentials: jordan() });
    expect(essentials.headers['kinchart-pin-status']).toBe('locked');
    expect((await owner.client.get('/api/user/wearable-qr')).json()).toMatchObject({ is_active: true, pin_status: 'locked' });
  });

  it('after the PIN is disabled an opted-in code still answers its essentials, and a PIN attempt is 423', async () => {
    const { owner, shareId, profileId } = await setUpOwnCode('4826');
    await pinTimes(profileId);
    await owner.client.put('/api/user/wearable-qr/settings', { essentials_without_pin: true });
    const s = stranger();
    await wrongPins(s, shareId, 5);
    await liftLockByClock(shareId);
    await wrongPins(s, shareId, 5, '246');
    const essentials = await s.get(`/api/user/emergency/${shareId}`);
    expect(essentials.statusCode).toBe(200);
    expect(essentials.json()).toEqual({ requirePin: true, essentials: jordan() });
    expect(essentials.headers['kinchart-pin-status']).toBe('disabled');
    const attempt = await s.get(`/api/user/emergency/${shareId}?pin=4826`);
    expect(attempt.statusCode).toBe(423);
    expect(attempt.json()).toMatchObject({
      message:
        'The PIN for this code was turned off after too many wrong tries. Use the information shown here and call your local emergency number.',
    });
    expect((await owner.client.get('/api/user/wearable-qr')).json()).toMatchObject({ is_disabled: true, pin_status: 'disabled' });
    // Switched off by the owner: nothing answers any more.
    await owner.client.put('/api/user/wearable-qr/toggle', { is_active: false });
    expect((await s.get(`/api/user/emergency/${shareId}`)).statusCode).toBe(404);
  });

  it('a disabled code without the option is the same 404 as an unknown code, PIN or not', async () => {
    const { shareId } = await setUpOwnCode('4826');
    const s = stranger();
    await wrongPins(s, shareId, 5);
    await liftLockByClock(shareId);
    await wrongPins(s, shareId, 5, '246');
    for (const url of [`/api/user/emergency/${shareId}`, `/api/user/emergency/${shareId}?pin=4826`]) {
      const res = await s.get(url);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ message: 'QR code not found or inactive' });
    }
  });
});

describe('the owner’s unlock', () => {
  it('lifts a lock and resets the wrong-PIN counts', async () => {
    const { owner, shareId } = await setUpOwnCode('4826');
    const s = stranger();
    await wrongPins(s, shareId, 5);
    expect((await s.get(`/api/user/emergency/${shareId}?pin=4826`)).statusCode).toBe(429);
    const res = await owner.client.put('/api/user/wearable-qr/unlock');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ exists: true, is_active: true, is_disabled: false, pin_status: 'ok' });
    const row = await t.database.db
      .selectFrom('emergency_shares')
      .select(['id', 'failed_total'])
      .where('share_id', '=', shareId)
      .executeTakeFirstOrThrow();
    expect(row.failed_total).toBe(0);
    expect(
      await t.database.db.selectFrom('emergency_pin_locks').select('address').where('emergency_share_id', '=', row.id).execute(),
    ).toEqual([]);
    expect((await s.get(`/api/user/emergency/${shareId}?pin=1357`)).json().remainingAttempts).toBe(4);
    expect((await s.get(`/api/user/emergency/${shareId}?pin=4826`)).statusCode).toBe(200);
    const audit = await t.database.db
      .selectFrom('audit_events')
      .select('action')
      .where('user_id', '=', owner.id)
      .where('action', '=', 'qr_pin_unlock')
      .execute();
    expect(audit).toHaveLength(1);
  });

  it('turns a disabled PIN of a member’s code back on; a code switched off by its owner stays off', async () => {
    const owner = await signedInUser(t.app);
    const memberId = await insertMember(t.database.db, owner.id);
    const shareId = (await owner.client.post(`/api/user/family/members/${memberId}/qr`, { pin: '7314' })).json().share_id as string;
    const s = stranger();
    const url = (pin: string) => `/api/user/family/emergency/${shareId}?pin=${pin}`;
    for (let i = 0; i < 5; i += 1) expect((await s.get(url(`135${i}`))).statusCode).toBe(401);
    await liftLockByClock(shareId);
    for (let i = 0; i < 5; i += 1) expect((await s.get(url(`246${i}`))).statusCode).toBe(401);
    expect((await s.get(url('7314'))).statusCode).toBe(404);

    const res = await owner.client.put(`/api/user/family/members/${memberId}/qr/unlock`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ is_active: true, is_disabled: false, pin_status: 'ok' });
    expect((await s.get(url('7314'))).statusCode).toBe(200);

    await owner.client.put(`/api/user/family/members/${memberId}/qr/toggle`, { is_active: false });
    expect((await owner.client.put(`/api/user/family/members/${memberId}/qr/unlock`)).json()).toMatchObject({ is_active: false });
  });
});

describe('lock and disable notices carry the unlock action', () => {
  it('names the member’s code by member id (null for the owner’s own), never the share id', async () => {
    const { owner, shareId } = await setUpOwnCode('4826');
    const memberId = await insertMember(t.database.db, owner.id, { name: 'Rex' });
    const memberShare = (await owner.client.post(`/api/user/family/members/${memberId}/qr`, { pin: '7314' })).json().share_id as string;
    const s = stranger();
    await wrongPins(s, shareId, 5);
    for (let i = 0; i < 5; i += 1) expect((await s.get(`/api/user/family/emergency/${memberShare}?pin=135${i}`)).statusCode).toBe(401);
    await liftLockByClock(memberShare);
    for (let i = 0; i < 5; i += 1) expect((await s.get(`/api/user/family/emergency/${memberShare}?pin=246${i}`)).statusCode).toBe(401);

    type Note = { title: string; type: string; data: { action?: unknown } };
    const notes = (await owner.client.get('/api/user/notifications')).json<Note[]>();
    const actions = notes.filter((n) => n.data.action).map((n) => ({ title: n.title, type: n.type, action: n.data.action }));
    // Notices written within one millisecond have no defined order: compare as a set.
    expect(actions).toHaveLength(3);
    expect(actions).toEqual(
      expect.arrayContaining([
        { title: 'Emergency QR code deactivated', type: 'family_emergency_access', action: { kind: 'unlock_pin', member_id: memberId } },
        { title: 'Emergency QR code locked', type: 'family_emergency_access', action: { kind: 'unlock_pin', member_id: memberId } },
        { title: 'Emergency QR code locked', type: 'qr_access', action: { kind: 'unlock_pin', member_id: null } },
      ]),
    );
    const raw = JSON.stringify(notes);
    expect(raw).not.toContain(shareId);
    expect(raw).not.toContain(memberShare);
    expect(notes.filter((n) => n.title === 'Emergency QR code set up').every((n) => n.data.action === undefined)).toBe(true);
  });
});
