import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { ORIGIN, TestClient, appWithCapturedLog, buildTestApp, signedInUser } from './helpers';
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

async function setUpOwnCode(pin = '4826'): Promise<{ owner: Owner; shareId: string }> {
  const owner = await signedInUser(t.app);
  await fillProfile(t.database.db, owner.id, await selfProfileId(t.database.db, owner.id));
  const res = await owner.client.post('/api/user/wearable-qr', { pin });
  expect(res.statusCode).toBe(201);
  return { owner, shareId: res.json().share_id as string };
}

/** A stranger: no session, a distinct address so per-address limits stay per test. */
let addressCounter = 0;
function stranger() {
  addressCounter += 1;
  const remoteAddress = `10.9.${Math.floor(addressCounter / 250)}.${addressCounter % 250}`;
  const client = new TestClient(t.app);
  return { get: (url: string) => client.get(url, { remoteAddress }) };
}

async function notificationsOf(owner: Owner) {
  type Note = { type: string; level: string; title: string; notification_id: string; is_read: boolean; data: { message: string } };
  return (await owner.client.get('/api/user/notifications')).json<Note[]>();
}

describe('personal QR code set-up', () => {
  it('is not configured at first, and toggling or changing the PIN before set-up answers 404', async () => {
    const owner = await signedInUser(t.app);
    const get = await owner.client.get('/api/user/wearable-qr');
    expect(get.statusCode).toBe(200);
    expect(get.json()).toMatchObject({ exists: false, is_active: false, access_pin: null, qr_data: null, share_id: null });
    expect((await owner.client.put('/api/user/wearable-qr/toggle', { is_active: true })).statusCode).toBe(404);
    expect((await owner.client.put('/api/user/wearable-qr/update-pin', { pin: '4826' })).statusCode).toBe(404);
  });

  it('refuses a PIN that is not exactly 4 digits, and weak PINs', async () => {
    const owner = await signedInUser(t.app);
    for (const pin of ['123', '12345', '12a4', '', ' 4826']) {
      const res = await owner.client.post('/api/user/wearable-qr', { pin });
      expect(res.statusCode, pin).toBe(400);
      expect(res.json().message).toBe('PIN must be 4 digits');
    }
    for (const pin of ['1111', '1234', '6789', '9876', '3210', '7890', '1212', '0909']) {
      const res = await owner.client.post('/api/user/wearable-qr', { pin });
      expect(res.statusCode, pin).toBe(400);
      expect(res.json().message).toMatch(/too easy to guess/);
    }
    expect((await owner.client.post('/api/user/wearable-qr', { pin: 4826 })).statusCode).toBe(400);
  });

  it('sets up an active code with a 43-character share id, a masked PIN and the public link', async () => {
    const owner = await signedInUser(t.app);
    const res = await owner.client.post('/api/user/wearable-qr', { pin: '4826' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ exists: true, is_active: true, access_pin: '••••' });
    expect(body.share_id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.qr_data).toBe(`${ORIGIN}/emergency/${body.share_id}`);
    expect(JSON.stringify(body)).not.toContain('4826');
    const row = await t.database.db
      .selectFrom('emergency_shares')
      .select('pin_hash')
      .where('share_id', '=', body.share_id)
      .executeTakeFirstOrThrow();
    expect(row.pin_hash).toMatch(/^\$argon2id\$/);
    const get = await owner.client.get('/api/user/wearable-qr');
    expect(get.json()).toMatchObject({ exists: true, is_active: true, access_pin: '••••', share_id: body.share_id });
    const notes = await notificationsOf(owner);
    expect(notes.map((n) => n.type)).toContain('qr_setup');
  });

  it('toggles to the desired state and answers is_active', async () => {
    const { owner, shareId } = await setUpOwnCode();
    const off = await owner.client.put('/api/user/wearable-qr/toggle', { is_active: false });
    expect(off.statusCode).toBe(200);
    expect(off.json().is_active).toBe(false);
    const publicRes = await stranger().get(`/api/user/emergency/${shareId}`);
    expect(publicRes.statusCode).toBe(404);
    expect(publicRes.json()).toMatchObject({ message: 'QR code not found or inactive' });
    const on = await owner.client.put('/api/user/wearable-qr/toggle', { is_active: true });
    expect(on.json().is_active).toBe(true);
    expect((await stranger().get(`/api/user/emergency/${shareId}`)).json()).toEqual({ requirePin: true });
  });
});

describe('the public emergency view', () => {
  it('answers { requirePin: true } and nothing else without a PIN, uncached', async () => {
    const { shareId } = await setUpOwnCode();
    const res = await stranger().get(`/api/user/emergency/${shareId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ requirePin: true });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('shows only the emergency sections with the right PIN and tells the owner', async () => {
    const { owner, shareId } = await setUpOwnCode('4826');
    const res = await stranger().get(`/api/user/emergency/${shareId}?pin=4826`);
    expect(res.statusCode).toBe(200);
    const info = res.json();
    expect(info).toMatchObject({
      requirePin: false,
      name: 'Jordan Rivers',
      blood_type: 'O-',
      has_allergies: true,
      allergy_details: 'Penicillin',
      anesthesia_reaction_details: 'Malignant hyperthermia',
      organ_donor: true,
    });
    expect(info.medications).toEqual([{ medication_name: 'Warfarin', dosage: '5 mg', frequency: null, purpose: null }]);
    expect(info.emergency_contacts[0]).toMatchObject({ name: 'Sam Rivers', phone_number: '555-0199', is_primary: true });
    const text = JSON.stringify(info);
    for (const secret of ['12 Secret Lane', 'jordan.private@example.com', owner.email, 'OldMed', 'pin_hash', 'user_id']) {
      expect(text).not.toContain(secret);
    }
    const notes = await notificationsOf(owner);
    expect(notes.filter((n) => n.type === 'qr_access')).toHaveLength(1);
    // DESIGN §7: every view is told; one moments after the last is counted in the same notice.
    await stranger().get(`/api/user/emergency/${shareId}?pin=4826`);
    const told = (await notificationsOf(owner)).filter((n) => n.type === 'qr_access');
    expect(told).toHaveLength(1);
    expect(told[0]!.data.message).toMatch(/^Your emergency information was opened 2 times since \d{2}:\d{2} UTC\.$/);
    const audit = await t.database.db
      .selectFrom('audit_events')
      .select('action')
      .where('user_id', '=', owner.id)
      .where('action', '=', 'emergency_view')
      .execute();
    expect(audit).toHaveLength(2);
  });

  it('answers a wrong PIN with 401, a message and the remaining attempts, and reveals nothing', async () => {
    const { shareId } = await setUpOwnCode('4826');
    const res = await stranger().get(`/api/user/emergency/${shareId}?pin=1357`);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ message: 'Invalid PIN', remainingAttempts: 4 });
  });

  it('answers the same 404 for unknown codes and for a code asked on the other kind of route', async () => {
    const { shareId } = await setUpOwnCode();
    const expected = { message: 'QR code not found or inactive', code: 'qr_code_not_found_or_inactive' };
    const unknown = await stranger().get(`/api/user/emergency/${'A'.repeat(43)}`);
    const malformed = await stranger().get('/api/user/emergency/nope');
    const wrongRoute = await stranger().get(`/api/user/family/emergency/${shareId}`);
    const wrongRouteWithPin = await stranger().get(`/api/user/family/emergency/${shareId}?pin=4826`);
    for (const res of [unknown, malformed, wrongRoute, wrongRouteWithPin]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(expected);
    }
  });

  it('locks the code for 15 minutes after 5 wrong PINs in a row, warns the owner, and lets the right PIN in after the lock', async () => {
    const { owner, shareId } = await setUpOwnCode('4826');
    const s = stranger();
    const remaining: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const res = await s.get(`/api/user/emergency/${shareId}?pin=135${i}`);
      expect(res.statusCode).toBe(401);
      remaining.push(res.json().remainingAttempts as number);
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    const locked = await s.get(`/api/user/emergency/${shareId}?pin=4826`);
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(14 * 60);
    expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    expect(locked.json().message).toMatch(/Too many incorrect PINs/);
    expect((await notificationsOf(owner)).some((n) => n.level === 'warning' && n.type === 'qr_access')).toBe(true);

    await expireAddressLocks(t.database.db, shareId);
    const after = await s.get(`/api/user/emergency/${shareId}?pin=4826`);
    expect(after.statusCode).toBe(200);
    expect(after.json().requirePin).toBe(false);
  });

  it('deactivates the code after 10 wrong PINs since set-up, tells the owner, and re-activation starts the count afresh', async () => {
    const { owner, shareId } = await setUpOwnCode('4826');
    const s = stranger();
    const unlock = () => expireAddressLocks(t.database.db, shareId);
    for (let i = 0; i < 5; i += 1) expect((await s.get(`/api/user/emergency/${shareId}?pin=135${i}`)).statusCode).toBe(401);
    await unlock();
    for (let i = 0; i < 4; i += 1) expect((await s.get(`/api/user/emergency/${shareId}?pin=246${i}`)).statusCode).toBe(401);
    const tenth = await s.get(`/api/user/emergency/${shareId}?pin=2470`);
    expect(tenth.statusCode).toBe(401);
    expect(tenth.json().remainingAttempts).toBe(0);
    const gone = await s.get(`/api/user/emergency/${shareId}?pin=4826`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ message: 'QR code not found or inactive' });
    expect((await owner.client.get('/api/user/wearable-qr')).json()).toMatchObject({ exists: true, is_active: false, is_disabled: true });
    expect((await notificationsOf(owner)).some((n) => n.level === 'error')).toBe(true);

    expect((await owner.client.put('/api/user/wearable-qr/toggle', { is_active: true })).json().is_active).toBe(true);
    const wrong = await s.get(`/api/user/emergency/${shareId}?pin=1357`);
    expect(wrong.json().remainingAttempts).toBe(4);
    expect((await s.get(`/api/user/emergency/${shareId}?pin=4826`)).statusCode).toBe(200);
  });

  it('lets at most 5 of 30 concurrent wrong guesses from one address be answered', async () => {
    const { shareId } = await setUpOwnCode('4826');
    const s = stranger();
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => s.get(`/api/user/emergency/${shareId}?pin=${String(1000 + i * 7).padStart(4, '0')}`)),
    );
    const answered = results.filter((r) => r.statusCode === 401).length;
    expect(answered).toBeLessThanOrEqual(5);
    expect(results.every((r) => r.statusCode === 401 || r.statusCode === 429)).toBe(true);
    const row = await t.database.db
      .selectFrom('emergency_shares')
      .select(['failed_total'])
      .where('share_id', '=', shareId)
      .executeTakeFirstOrThrow();
    expect(row.failed_total).toBeLessThanOrEqual(5);
  });

  it('a new PIN replaces the old one', async () => {
    const { owner, shareId } = await setUpOwnCode('4826');
    const changed = await owner.client.put('/api/user/wearable-qr/update-pin', { pin: '5937' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ message: 'PIN updated successfully', access_pin: '••••' });
    expect((await stranger().get(`/api/user/emergency/${shareId}?pin=4826`)).statusCode).toBe(401);
    expect((await stranger().get(`/api/user/emergency/${shareId}?pin=5937`)).statusCode).toBe(200);
    expect((await owner.client.put('/api/user/wearable-qr/update-pin', { pin: '1111' })).statusCode).toBe(400);
  });

  it('limits one address to 30 PIN attempts an hour across codes', async () => {
    const s = stranger();
    const codes = await Promise.all(Array.from({ length: 8 }, () => setUpOwnCode('4826')));
    const statuses: number[] = [];
    // Four wrong PINs per code stay under each code's own lock; 30 in all reach the address limit.
    for (const { shareId } of codes) {
      for (let i = 0; i < 4 && statuses.length < 30; i += 1)
        statuses.push((await s.get(`/api/user/emergency/${shareId}?pin=135${i}`)).statusCode);
    }
    expect(statuses).toHaveLength(30);
    expect(statuses.every((c) => c === 401)).toBe(true);
    const over = await s.get(`/api/user/emergency/${codes[0]?.shareId ?? ''}?pin=4826`);
    expect(over.statusCode).toBe(429);
    expect(over.json().message).toMatch(/this network/);
  });

  it('holds one address to 30 PIN attempts an hour even when its guesses across codes arrive together', async () => {
    const codes = await Promise.all(Array.from({ length: 12 }, () => setUpOwnCode('4826')));
    const remoteAddress = '10.99.0.1';
    const c = new TestClient(t.app);
    // Four wrong PINs per code stay under each code's own lock; 48 in all are over the address limit.
    const results = await Promise.all(
      codes.flatMap(({ shareId }) =>
        Array.from({ length: 4 }, (_, i) => c.get(`/api/user/emergency/${shareId}?pin=135${i}`, { remoteAddress })),
      ),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(18);
    const row = await t.database.db
      .selectFrom('emergency_shares')
      .select((eb) => eb.fn.sum<number>('failed_total').as('n'))
      .where(
        'share_id',
        'in',
        codes.map((code) => code.shareId),
      )
      .executeTakeFirstOrThrow();
    expect(Number(row.n)).toBe(30);
  });
});

describe('family member codes', () => {
  it('are set up per member, served only on the family route, and notify with the family types', async () => {
    const owner = await signedInUser(t.app);
    const memberId = await insertMember(t.database.db, owner.id, { name: 'Rex', is_pet: 1, relationship: 'other' });
    expect((await owner.client.get(`/api/user/family/members/${memberId}/qr`)).json()).toMatchObject({ exists: false });
    expect((await owner.client.put(`/api/user/family/members/${memberId}/qr/toggle`)).statusCode).toBe(404);
    expect((await owner.client.put(`/api/user/family/members/${memberId}/qr/pin`, { pin: '4826' })).statusCode).toBe(404);

    const setup = await owner.client.post(`/api/user/family/members/${memberId}/qr`, { pin: '7314' });
    expect(setup.statusCode).toBe(201);
    const { share_id: shareId, qr_data: qrData } = setup.json();
    expect(qrData).toBe(`${ORIGIN}/family/emergency/${shareId}`);

    expect((await stranger().get(`/api/user/emergency/${shareId}`)).statusCode).toBe(404);
    expect((await stranger().get(`/api/user/family/emergency/${shareId}`)).json()).toEqual({ requirePin: true });
    const view = await stranger().get(`/api/user/family/emergency/${shareId}?pin=7314`);
    expect(view.statusCode).toBe(200);
    expect(view.json()).toMatchObject({ name: 'Rex', is_pet: true, requirePin: false });
    expect((await stranger().get(`/api/user/family/emergency/${shareId}?pin=7314`)).statusCode).toBe(200);

    const toggled = await owner.client.put(`/api/user/family/members/${memberId}/qr/toggle`);
    expect(toggled.json().is_active).toBe(false);
    expect((await owner.client.put(`/api/user/family/members/${memberId}/qr/pin`, { pin: '5937' })).statusCode).toBe(200);

    const notes = await notificationsOf(owner);
    expect(notes.map((n) => n.type)).toContain('family_qr_setup');
    // Two views, told in one notice with the count (DESIGN §7: access alerts are coalesced per code).
    const access = notes.filter((n) => n.type === 'family_emergency_access');
    expect(access).toHaveLength(1);
    expect(access[0]!.data.message).toMatch(/^Rex's emergency information was opened 2 times since/);
  });

  it('another user cannot read, set up, toggle or re-pin someone else’s codes', async () => {
    const owner = await signedInUser(t.app);
    const intruder = await signedInUser(t.app);
    const memberId = await insertMember(t.database.db, owner.id);
    await owner.client.post(`/api/user/family/members/${memberId}/qr`, { pin: '7314' });
    const selfId = await selfProfileId(t.database.db, owner.id);
    for (const id of [memberId, selfId]) {
      expect((await intruder.client.get(`/api/user/family/members/${id}/qr`)).statusCode).toBe(404);
      expect((await intruder.client.post(`/api/user/family/members/${id}/qr`, { pin: '5937' })).statusCode).toBe(404);
      expect((await intruder.client.put(`/api/user/family/members/${id}/qr/toggle`)).statusCode).toBe(404);
      expect((await intruder.client.put(`/api/user/family/members/${id}/qr/pin`, { pin: '5937' })).statusCode).toBe(404);
    }
    expect((await owner.client.get(`/api/user/family/members/${memberId}/qr`)).json()).toMatchObject({ exists: true, is_active: true });
    const anonymous = new TestClient(t.app);
    expect((await anonymous.get('/api/user/wearable-qr')).statusCode).toBe(401);
  });

  it('deleting the member removes the code', async () => {
    const owner = await signedInUser(t.app);
    const memberId = await insertMember(t.database.db, owner.id);
    const { share_id: shareId } = (await owner.client.post(`/api/user/family/members/${memberId}/qr`, { pin: '7314' })).json();
    await t.database.db.deleteFrom('profiles').where('id', '=', memberId).execute();
    expect((await stranger().get(`/api/user/family/emergency/${shareId}`)).statusCode).toBe(404);
    expect(
      await t.database.db.selectFrom('emergency_shares').select('id').where('share_id', '=', shareId).executeTakeFirst(),
    ).toBeUndefined();
  });
});

describe('notifications', () => {
  it('lists newest first with the spec fields, toggles read, hides and marks all read', async () => {
    const { owner, shareId } = await setUpOwnCode('4826');
    await stranger().get(`/api/user/emergency/${shareId}?pin=4826`);
    const list = await notificationsOf(owner);
    expect(list.map((n) => n.type)).toEqual(['qr_access', 'qr_setup']);
    const first = list[0];
    expect(first).toMatchObject({ is_read: false, is_hidden: false, level: 'info', title: 'Emergency information accessed' });
    expect(first).toHaveProperty('time');
    expect(first?.data).toMatchObject({ title: first?.title, type: 'qr_access', level: 'info', is_read: false });
    expect(first?.data.message).toMatch(/opened your emergency information/);

    const toggled = await owner.client.put(`/api/user/notifications/${first?.notification_id}/toggle`);
    expect(toggled.statusCode).toBe(200);
    expect(toggled.json().is_read).toBe(true);
    expect((await owner.client.put(`/api/user/notifications/${first?.notification_id}/toggle`)).json().is_read).toBe(false);

    const hidden = await owner.client.put(`/api/user/notifications/${first?.notification_id}/hide`);
    expect(hidden.statusCode).toBe(200);
    expect((await notificationsOf(owner)).map((n) => n.type)).toEqual(['qr_setup']);

    const all = await owner.client.put('/api/user/notifications/mark-all-read');
    expect(all.statusCode).toBe(200);
    expect((await notificationsOf(owner)).every((n) => n.is_read)).toBe(true);
  });

  it('another user gets 404 toggling or hiding someone else’s notification, and it is unchanged', async () => {
    const { owner } = await setUpOwnCode();
    const intruder = await signedInUser(t.app);
    const [note] = await notificationsOf(owner);
    expect((await intruder.client.put(`/api/user/notifications/${note?.notification_id}/toggle`)).statusCode).toBe(404);
    expect((await intruder.client.put(`/api/user/notifications/${note?.notification_id}/hide`)).statusCode).toBe(404);
    expect(await notificationsOf(intruder)).toEqual([]);
    expect((await notificationsOf(owner))[0]).toMatchObject({ is_read: false, is_hidden: false });
    expect((await new TestClient(t.app).get('/api/user/notifications')).statusCode).toBe(401);
  });
});

describe('logging', () => {
  it('never writes the PIN to the log', async () => {
    const { loggerOptions } = await import('../src/plugins/logging');
    const { app, log: capturedLog } = await appWithCapturedLog(t, loggerOptions('info') as object);
    const { shareId } = await setUpOwnCode('4826');
    await app.inject({ method: 'GET', url: `/api/user/emergency/${shareId}?pin=4826` });
    await app.inject({ method: 'GET', url: `/api/user/emergency/${shareId}?pin=1357` });
    await app.close();
    const log = capturedLog();
    expect(log).toContain('/api/user/emergency/');
    expect(log).toContain('pin=[redacted]');
    expect(log).not.toContain('4826');
    expect(log).not.toContain('1357');
  });
});
