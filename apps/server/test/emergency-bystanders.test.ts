// Issue 30, items 4 and 23 (DESIGN §7): a bystander who guesses wrong locks out only their own
// address, the code-wide disable waits for 10 wrong PINs in all, a flood of views gives the owner
// one notice per code with a count, and one address sees the essentials a bounded number of times.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { TestClient, buildTestApp, signedInUser } from './helpers';
import { fillProfile, insertMember, selfProfileId } from './factories';
import { MAX_ESSENTIALS_VIEWS_PER_ADDRESS_HOUR } from '../src/features/emergency/emergency.service';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

type Owner = Awaited<ReturnType<typeof signedInUser>>;
type Note = {
  notification_id: string;
  type: string;
  level: string;
  title: string;
  is_read: boolean;
  data: { message: string; action?: unknown };
};

async function setUpOwnCode(pin = '4826'): Promise<{ owner: Owner; shareId: string }> {
  const owner = await signedInUser(t.app);
  await fillProfile(t.database.db, owner.id, await selfProfileId(t.database.db, owner.id));
  const res = await owner.client.post('/api/user/wearable-qr', { pin });
  expect(res.statusCode).toBe(201);
  return { owner, shareId: res.json().share_id as string };
}

let addressCounter = 0;
/** A phone on its own IPv4 address. */
function phone(remoteAddress?: string) {
  addressCounter += 1;
  const address = remoteAddress ?? `10.31.${Math.floor(addressCounter / 250)}.${addressCounter % 250}`;
  const client = new TestClient(t.app);
  return { address, get: (url: string) => client.get(url, { remoteAddress: address }) };
}

const notesOf = async (owner: Owner) => (await owner.client.get('/api/user/notifications')).json<Note[]>();
const pinUrl = (shareId: string, pin: string) => `/api/user/emergency/${shareId}?pin=${pin}`;

describe('a bystander guessing PINs', () => {
  it('locks only their own address after 5 wrong PINs: a responder on another phone still opens the code with the PIN', async () => {
    const { owner, shareId } = await setUpOwnCode('4826');
    const bystander = phone();
    for (let i = 0; i < 5; i += 1) expect((await bystander.get(pinUrl(shareId, `135${i}`))).statusCode).toBe(401);
    const waits = await bystander.get(pinUrl(shareId, '4826'));
    expect(waits.statusCode).toBe(429);
    expect(Number(waits.headers['retry-after'])).toBeGreaterThan(14 * 60);
    expect(Number(waits.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);

    const responder = phone();
    const opened = await responder.get(pinUrl(shareId, '4826'));
    expect(opened.statusCode).toBe(200);
    expect(opened.json()).toMatchObject({ requirePin: false, name: 'Jordan Rivers' });

    // The owner is warned once, with the one action that lifts the lock, and sees it in Settings.
    const warnings = (await notesOf(owner)).filter((n) => n.level === 'warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.data.action).toEqual({ kind: 'unlock_pin', member_id: null });
    expect((await owner.client.get('/api/user/wearable-qr')).json()).toMatchObject({ is_active: true, pin_status: 'locked' });
    expect((await owner.client.put('/api/user/wearable-qr/unlock')).json()).toMatchObject({ pin_status: 'ok' });
    expect((await bystander.get(pinUrl(shareId, '4826'))).statusCode).toBe(200);
  });

  it('counts an IPv6 phone by its /64, so moving to another address of the same network does not start afresh', async () => {
    const { shareId } = await setUpOwnCode('4826');
    for (let i = 0; i < 5; i += 1) expect((await phone(`2001:db8:77:1::${i + 1}`).get(pinUrl(shareId, `135${i}`))).statusCode).toBe(401);
    expect((await phone('2001:db8:77:1:abcd::9').get(pinUrl(shareId, '4826'))).statusCode).toBe(429);
    expect((await phone('2001:db8:77:2::1').get(pinUrl(shareId, '4826'))).statusCode).toBe(200);
  });

  it('a right PIN from the address ends its run of wrong ones', async () => {
    const { shareId } = await setUpOwnCode('4826');
    const p = phone();
    for (let i = 0; i < 4; i += 1) expect((await p.get(pinUrl(shareId, `135${i}`))).statusCode).toBe(401);
    expect((await p.get(pinUrl(shareId, '4826'))).statusCode).toBe(200);
    const next = await p.get(pinUrl(shareId, '1357'));
    expect(next.statusCode).toBe(401);
    expect(next.json().remainingAttempts).toBe(4);
  });

  it('turns the PIN off after 10 wrong PINs in all from several addresses, tells the owner at once, and one action turns it back on', async () => {
    const owner = await signedInUser(t.app);
    const memberId = await insertMember(t.database.db, owner.id, { name: 'Rex' });
    const shareId = (await owner.client.post(`/api/user/family/members/${memberId}/qr`, { pin: '7314' })).json().share_id as string;
    const url = (pin: string) => `/api/user/family/emergency/${shareId}?pin=${pin}`;
    const counts: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const res = await phone().get(url(`13${String(50 + i)}`));
      expect(res.statusCode).toBe(401);
      counts.push(res.json().remainingAttempts as number);
    }
    // Each phone has 5 of its own, but the code has only 10 in all.
    expect(counts).toEqual([4, 4, 4, 4, 4, 4, 3, 2, 1, 0]);
    expect((await phone().get(url('7314'))).statusCode).toBe(404);
    const errors = (await notesOf(owner)).filter((n) => n.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.data.action).toEqual({ kind: 'unlock_pin', member_id: memberId });
    expect((await owner.client.get(`/api/user/family/members/${memberId}/qr`)).json()).toMatchObject({
      is_disabled: true,
      pin_status: 'disabled',
    });

    expect((await owner.client.put(`/api/user/family/members/${memberId}/qr/unlock`)).json()).toMatchObject({
      is_active: true,
      pin_status: 'ok',
    });
    expect((await phone().get(url('7314'))).statusCode).toBe(200);
  });

  it('lets at most 10 of 30 concurrent wrong guesses from 30 phones be answered, and 5 of 30 from one phone', async () => {
    const many = await setUpOwnCode('4826');
    const fromMany = await Promise.all(
      Array.from({ length: 30 }, (_, i) => phone().get(pinUrl(many.shareId, String(1000 + i * 7).padStart(4, '0')))),
    );
    expect(fromMany.filter((r) => r.statusCode === 401).length).toBeLessThanOrEqual(10);
    expect(fromMany.every((r) => r.statusCode === 401 || r.statusCode === 404)).toBe(true);

    const one = await setUpOwnCode('4826');
    const p = phone();
    const fromOne = await Promise.all(
      Array.from({ length: 30 }, (_, i) => p.get(pinUrl(one.shareId, String(1000 + i * 7).padStart(4, '0')))),
    );
    expect(fromOne.filter((r) => r.statusCode === 401).length).toBeLessThanOrEqual(5);
    expect(fromOne.every((r) => r.statusCode === 401 || r.statusCode === 429)).toBe(true);
    const row = await t.database.db
      .selectFrom('emergency_shares')
      .select(['failed_total'])
      .where('share_id', '=', one.shareId)
      .executeTakeFirstOrThrow();
    expect(row.failed_total).toBeLessThanOrEqual(5);
  });
});

describe('a flood of views', () => {
  it('gives the owner one notification per code, delivered with the first view and counting the rest', async () => {
    const { owner, shareId } = await setUpOwnCode();
    await owner.client.put('/api/user/wearable-qr/settings', { essentials_without_pin: true });
    expect((await phone().get(`/api/user/emergency/${shareId}`)).statusCode).toBe(200);
    const first = (await notesOf(owner)).filter((n) => n.type === 'qr_access');
    expect(first).toHaveLength(1);
    expect(first[0]!.data.message).toBe('Someone viewed your emergency essentials, shown without the PIN as you chose.');
    expect((await owner.client.put(`/api/user/notifications/${first[0]!.notification_id}/toggle`)).json().is_read).toBe(true);

    const views = await Promise.all(Array.from({ length: 99 }, () => phone().get(`/api/user/emergency/${shareId}`)));
    expect(views.every((v) => v.statusCode === 200)).toBe(true);
    const after = (await notesOf(owner)).filter((n) => n.type === 'qr_access');
    expect(after).toHaveLength(1);
    expect(after[0]!.notification_id).toBe(first[0]!.notification_id);
    expect(after[0]!.data.message).toMatch(/100 times/);
    // Unread again, so the bell shows the news.
    expect(after[0]!.is_read).toBe(false);
    // Every view is still audited.
    const audit = await t.database.db
      .selectFrom('audit_events')
      .select('id')
      .where('user_id', '=', owner.id)
      .where('action', '=', 'emergency_view')
      .execute();
    expect(audit).toHaveLength(100);
  });

  it('starts a new notification once the 15 minutes of the last one are over, and PIN views count in the same one', async () => {
    const { owner, shareId } = await setUpOwnCode('4826');
    expect((await phone().get(pinUrl(shareId, '4826'))).statusCode).toBe(200);
    expect((await phone().get(pinUrl(shareId, '4826'))).statusCode).toBe(200);
    expect((await notesOf(owner)).filter((n) => n.type === 'qr_access')).toHaveLength(1);
    await t.database.db
      .updateTable('emergency_access_alerts')
      .set({ window_started_at: new Date(Date.now() - 16 * 60_000).toISOString() })
      .where('user_id', '=', owner.id)
      .execute();
    expect((await phone().get(pinUrl(shareId, '4826'))).statusCode).toBe(200);
    const notes = (await notesOf(owner)).filter((n) => n.type === 'qr_access');
    expect(notes).toHaveLength(2);
    expect(notes.map((n) => n.data.message)).toContain('Someone opened your emergency information with the correct PIN.');
  });

  it('a notification the owner hid is not brought back: the next view starts a new one', async () => {
    const { owner, shareId } = await setUpOwnCode('4826');
    await phone().get(pinUrl(shareId, '4826'));
    const [note] = (await notesOf(owner)).filter((n) => n.type === 'qr_access');
    expect((await owner.client.put(`/api/user/notifications/${note!.notification_id}/hide`)).statusCode).toBe(200);
    await phone().get(pinUrl(shareId, '4826'));
    const notes = (await notesOf(owner)).filter((n) => n.type === 'qr_access');
    expect(notes).toHaveLength(1);
    expect(notes[0]!.notification_id).not.toBe(note!.notification_id);
  });
});

describe('views of the essentials from one address', () => {
  it(`are capped at ${MAX_ESSENTIALS_VIEWS_PER_ADDRESS_HOUR} an hour: beyond it 429 with Retry-After, while another address still sees them`, async () => {
    const { owner, shareId } = await setUpOwnCode();
    await owner.client.put('/api/user/wearable-qr/settings', { essentials_without_pin: true });
    const p = phone();
    for (let i = 0; i < MAX_ESSENTIALS_VIEWS_PER_ADDRESS_HOUR; i += 1)
      expect((await p.get(`/api/user/emergency/${shareId}`)).statusCode).toBe(200);
    const over = await p.get(`/api/user/emergency/${shareId}`);
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(3600);
    expect(over.json().message).toMatch(/Too many views from this network/);
    expect((await phone().get(`/api/user/emergency/${shareId}`)).statusCode).toBe(200);
    // The capped address can still enter the PIN.
    expect((await p.get(pinUrl(shareId, '4826'))).statusCode).toBe(200);
  });

  it('does not count a code that shows nothing without the PIN', async () => {
    const { shareId } = await setUpOwnCode();
    const p = phone();
    for (let i = 0; i <= MAX_ESSENTIALS_VIEWS_PER_ADDRESS_HOUR; i += 1)
      expect((await p.get(`/api/user/emergency/${shareId}`)).statusCode).toBe(200);
  });
});

describe('setting up a code', () => {
  it('takes the owner’s answer on showing the essentials without the PIN, and refuses a bad one naming the field', async () => {
    const owner = await signedInUser(t.app);
    const yes = await owner.client.post('/api/user/wearable-qr', { pin: '4826', essentials_without_pin: true });
    expect(yes.statusCode).toBe(201);
    expect(yes.json()).toMatchObject({ essentials_without_pin: true, message: 'QR code set up successfully' });
    const memberId = await insertMember(t.database.db, owner.id);
    const no = await owner.client.post(`/api/user/family/members/${memberId}/qr`, { pin: '7314', essentials_without_pin: false });
    expect(no.json()).toMatchObject({ essentials_without_pin: false });
    const bad = await owner.client.post(`/api/user/family/members/${memberId}/qr`, { pin: '7314', essentials_without_pin: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/essentials_without_pin/);
    // Without the answer the code keeps what it had (SPEC §7's set-up body is { pin }).
    expect((await owner.client.post('/api/user/wearable-qr', { pin: '5937' })).json()).toMatchObject({ essentials_without_pin: true });
  });
});
