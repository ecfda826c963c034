import { createHash } from 'node:crypto';
import { compactDecrypt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeShlink } from '@kinchart/shared/shl';
import type { TestApp } from './helpers';
import { ORIGIN, TestClient, appWithCapturedLog, buildTestApp, signedInUser } from './helpers';
import { fillProfile, insertMember, selfProfileId } from './factories';
import { expireAddressLocks } from './pin-locks';
import { loadFhirChecker } from './fhir-validator';
import { loggerOptions } from '../src/plugins/logging';

let t: TestApp;
/** Every error of the emergency summary: R4, and the IPS document rules (docs/decisions/0023). */
let fhirErrors: (bundle: unknown) => string[];
let r4Errors: (resource: unknown) => string[];
beforeAll(async () => {
  t = await buildTestApp();
  const checker = await loadFhirChecker();
  fhirErrors = checker.ipsDocument;
  r4Errors = checker.resource;
});
afterAll(async () => {
  await t.close();
});

type Owner = Awaited<ReturnType<typeof signedInUser>>;
const PIN = '4826';

async function ownerWithCode(): Promise<{ owner: Owner; shareId: string }> {
  const owner = await signedInUser(t.app);
  await fillProfile(t.database.db, owner.id, await selfProfileId(t.database.db, owner.id));
  await owner.client.post('/api/user/appointments', { appointment_date: '2026-12-03', provider_name: 'Secret Clinic' });
  const res = await owner.client.post('/api/user/wearable-qr', { pin: PIN });
  expect(res.statusCode).toBe(201);
  return { owner, shareId: res.json().share_id as string };
}

/** POST makes the link (201) or answers the one already made (200). */
async function linkOf(owner: Owner, path = '/api/user/wearable-qr/shl') {
  const res = await owner.client.post(path);
  expect([200, 201], res.body).toContain(res.statusCode);
  return res.json<{ shlink: string; payload: { url: string; key: string; flag: string; label: string } }>();
}

/** A receiver somewhere else: no cookies, no Origin, its own address (per-address limits stay per test). */
let addressCounter = 0;
function receiver() {
  addressCounter += 1;
  const remoteAddress = `10.77.${Math.floor(addressCounter / 250)}.${addressCounter % 250}`;
  return {
    fetchManifest: (url: string, body: unknown) =>
      t.app.inject({
        method: 'POST',
        url: new URL(url).pathname,
        payload: body as Record<string, unknown>,
        headers: { 'content-type': 'application/json' },
        remoteAddress,
      }),
    openPage: (shareId: string, pin: string) => new TestClient(t.app).get(`/api/user/emergency/${shareId}?pin=${pin}`, { remoteAddress }),
    downloadFhir: (shareId: string, pin: string, family = false) =>
      new TestClient(t.app).get(`/api/user/${family ? 'family/' : ''}emergency/${shareId}/fhir?pin=${pin}`, { remoteAddress }),
  };
}

async function decryptFile(embedded: string, key: string) {
  const { plaintext, protectedHeader } = await compactDecrypt(embedded, Buffer.from(key, 'base64url'));
  return { bundle: JSON.parse(new TextDecoder().decode(plaintext)) as Record<string, unknown>, protectedHeader };
}

describe('SMART Health Link for an emergency code', () => {
  it('gives the owner a shlink:/ with a 256-bit manifest URL, a 32-byte key, flags L and P (no expiry, a file that can change) and a label — the same link every time', async () => {
    const { owner } = await ownerWithCode();
    const link = await linkOf(owner);
    expect(link.shlink).toMatch(/^shlink:\/[A-Za-z0-9_-]+$/);
    const payload = decodeShlink(link.shlink);
    expect(payload).toEqual(link.payload);
    expect(payload.url).toMatch(new RegExp(`^${ORIGIN}/shl/[A-Za-z0-9_-]{43}$`));
    expect(Buffer.from(payload.key, 'base64url')).toHaveLength(32);
    expect(payload.key).toHaveLength(43);
    // STU1: flags in alphabetical order; L — long-term use, the manifest may change (its file is can-change, and the link has no exp); P — a passcode.
    expect(payload.flag).toBe('LP');
    expect(payload.label).toBe('Kinchart emergency summary');
    expect(payload.exp).toBeUndefined();
    expect((await linkOf(owner)).shlink).toBe(link.shlink);
    const read = await owner.client.get('/api/user/wearable-qr/shl');
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(link);
  });

  it('is made only by POST: a GET — even a cross-site top-level navigation — reads and never makes one', async () => {
    const { owner } = await ownerWithCode();
    const memberId = await insertMember(t.database.db, owner.id, { name: 'Kid' });
    expect((await owner.client.post(`/api/user/family/members/${memberId}/qr`, { pin: '5937' })).statusCode).toBe(201);
    for (const path of ['/api/user/wearable-qr/shl', `/api/user/family/members/${memberId}/qr/shl`]) {
      const navigation = await owner.client.get(path, {
        headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', referer: 'https://evil.example/' },
      });
      expect(navigation.statusCode).toBe(404);
      expect(navigation.json()).toMatchObject({ message: 'No SMART Health Link has been made for this code yet' });
      expect((await owner.client.get(path)).statusCode).toBe(404);
      const made = await owner.client.post(path);
      expect(made.statusCode, made.body).toBe(201);
      const again = await owner.client.post(path);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(made.json());
      expect((await owner.client.get(path)).json()).toEqual(made.json());
    }
    const creations = await t.database.db
      .selectFrom('audit_events')
      .select('action')
      .where('user_id', '=', owner.id)
      .where('action', '=', 'shl_link_create')
      .execute();
    expect(creations).toHaveLength(2);
    const crossSite = await owner.client.post('/api/user/wearable-qr/shl', undefined, { headers: { origin: 'https://evil.example' } });
    expect(crossSite.statusCode).toBe(403);
  });

  it("is only for an active code of the owner: not set up, inactive, anonymous and another user's member all fail", async () => {
    const fresh = await signedInUser(t.app);
    expect((await fresh.client.post('/api/user/wearable-qr/shl')).statusCode).toBe(404);
    const { owner } = await ownerWithCode();
    await owner.client.put('/api/user/wearable-qr/toggle', { is_active: false });
    expect((await owner.client.post('/api/user/wearable-qr/shl')).statusCode).toBe(404);
    expect((await new TestClient(t.app).post('/api/user/wearable-qr/shl')).statusCode).toBe(401);
    expect((await new TestClient(t.app).get('/api/user/wearable-qr/shl')).statusCode).toBe(401);

    const memberId = await insertMember(t.database.db, owner.id, { name: 'Kid' });
    expect((await owner.client.post(`/api/user/family/members/${memberId}/qr`, { pin: '5937' })).statusCode).toBe(201);
    const member = await linkOf(owner, `/api/user/family/members/${memberId}/qr/shl`);
    expect(member.payload.url).toMatch(new RegExp(`^${ORIGIN}/shl/[A-Za-z0-9_-]{43}$`));
    expect((await linkOf(owner, `/api/user/family/members/${memberId}/qr/shl`)).shlink).toBe(member.shlink);
    expect((await fresh.client.get(`/api/user/family/members/${memberId}/qr/shl`)).statusCode).toBe(404);
    expect((await fresh.client.post(`/api/user/family/members/${memberId}/qr/shl`)).statusCode).toBe(404);
  });

  it("with the passcode (the PIN), the manifest holds one JWE (dir, A256GCM) of the person's IPS Bundle, which decrypts with the link's key and validates", async () => {
    const { owner } = await ownerWithCode();
    // Issue 34: the allergy as its entry (decision 0053) — its reaction and criticality go with it.
    const self = await selfProfileId(t.database.db, owner.id);
    const [penicillin] = (await owner.client.get(`/api/user/people/${self}/allergies`)).json<{ id: string }[]>();
    const put = await owner.client.put(`/api/user/people/${self}/allergies/${penicillin!.id}`, {
      substance: 'Penicillin',
      reactions: ['Anaphylaxis'],
      severity: 'severe',
      criticality: 'high',
    });
    expect(put.statusCode, put.body).toBe(200);
    const { payload } = await linkOf(owner);
    const res = await receiver().fetchManifest(payload.url, { recipient: 'Dr. Ada Lovelace, St Thomas ED', passcode: PIN });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const manifest = res.json();
    // STU1 manifest: `{ files }` only; `status` and `fhirVersion` sit on each file (docs/decisions/0020).
    expect(manifest).toEqual({
      files: [
        {
          contentType: 'application/fhir+json',
          embedded: expect.any(String),
          lastUpdated: expect.any(String),
          status: 'can-change',
          fhirVersion: '4.0.1',
        },
      ],
    });
    expect(Date.parse(manifest.files[0].lastUpdated as string)).not.toBeNaN();
    const jwe = manifest.files[0].embedded as string;
    expect(jwe.split('.')).toHaveLength(5);
    expect(decodeProtectedHeader(jwe)).toMatchObject({ alg: 'dir', enc: 'A256GCM' });

    const { bundle } = await decryptFile(jwe, payload.key);
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'document' });
    expect(fhirErrors(bundle)).toEqual([]);
    for (const e of bundle.entry as { resource: { resourceType: string } }[])
      expect(r4Errors(e.resource), e.resource.resourceType).toEqual([]);
    const text = JSON.stringify(bundle);
    // What the emergency page shows…
    for (const shown of ['Jordan Rivers', 'Penicillin', 'Malignant hyperthermia', 'Warfarin', 'Sam Rivers', '555-0199'])
      expect(text).toContain(shown);
    // …and nothing it does not.
    for (const hidden of ['12 Secret Lane', 'jordan.private@example.com', '555-0100', 'OldMed', 'Secret Clinic', 'urn:kinchart:profile'])
      expect(text).not.toContain(hidden);
    expect((bundle.entry as { resource: { resourceType: string } }[]).map((e) => e.resource.resourceType)).not.toContain('Appointment');
    const allergy = (bundle.entry as { resource: Record<string, unknown> }[])
      .map((e) => e.resource)
      .find((r) => r.resourceType === 'AllergyIntolerance' && JSON.stringify(r.code).includes('Penicillin'));
    expect(allergy).toMatchObject({ criticality: 'high', reaction: [{ manifestation: [{ text: 'Anaphylaxis' }], severity: 'severe' }] });

    // A wrong key does not open it.
    await expect(compactDecrypt(jwe, Buffer.alloc(32, 1))).rejects.toThrow();
  });

  it('tells the owner, naming the recipient the requester gave', async () => {
    const { owner } = await ownerWithCode();
    const { payload } = await linkOf(owner);
    expect((await receiver().fetchManifest(payload.url, { recipient: 'Dr. Ada\nLovelace <b>ED</b>', passcode: PIN })).statusCode).toBe(200);
    const notes = (await owner.client.get('/api/user/notifications')).json<{ type: string; data: { message: string } }[]>();
    const access = notes.find((n) => n.type === 'qr_access');
    expect(access?.data.message).toContain('SMART Health Link');
    expect(access?.data.message).toContain('Recipient: "Dr. Ada Lovelace <b>ED</b>"');
    const audit = await t.database.db
      .selectFrom('audit_events')
      .select('action')
      .where('user_id', '=', owner.id)
      .where('action', '=', 'shl_access')
      .execute();
    expect(audit).toHaveLength(1);
  });

  it('answers a wrong passcode with 401 and the attempts left before the link is disabled, and needs a recipient', async () => {
    const { owner } = await ownerWithCode();
    const { payload } = await linkOf(owner);
    const r = receiver();
    const wrong = await r.fetchManifest(payload.url, { recipient: 'Dr. X', passcode: '0000' });
    expect(wrong.statusCode).toBe(401);
    // STU1: "number of attempts remaining before the SMART Health Link is disabled" — ten in all.
    expect(wrong.json()).toMatchObject({ message: 'Invalid passcode', remainingAttempts: 9 });
    expect(wrong.headers['access-control-allow-origin']).toBe('*');
    const none = await r.fetchManifest(payload.url, { recipient: 'Dr. X' });
    expect(none.statusCode).toBe(401);
    expect(none.json().remainingAttempts).toBe(8);
    const noRecipient = await r.fetchManifest(payload.url, { passcode: PIN });
    expect(noRecipient.statusCode).toBe(400);
    expect(noRecipient.json().message).toMatch(/recipient is required/);
  });

  it('wrong passcodes on the link and wrong PINs on the emergency page count against one counter and lock the same code', async () => {
    const { owner, shareId } = await ownerWithCode();
    const { payload } = await linkOf(owner);
    const r = receiver();
    // The link counts down to its disabling (10 wrong in all); the page to the 15-minute lock (5 in a row).
    expect((await r.fetchManifest(payload.url, { recipient: 'a', passcode: '1111' })).json().remainingAttempts).toBe(9);
    expect((await r.openPage(shareId, '2222')).json().remainingAttempts).toBe(3);
    expect((await r.fetchManifest(payload.url, { recipient: 'a', passcode: '3333' })).json().remainingAttempts).toBe(7);
    expect((await r.downloadFhir(shareId, '4444')).json().remainingAttempts).toBe(1);
    expect((await r.openPage(shareId, '5555')).json().remainingAttempts).toBe(0);

    // Locked everywhere, even for the right PIN.
    const page = await r.openPage(shareId, PIN);
    expect(page.statusCode).toBe(429);
    expect(Number(page.headers['retry-after'])).toBeGreaterThan(800);
    expect((await r.fetchManifest(payload.url, { recipient: 'a', passcode: PIN })).statusCode).toBe(429);
    expect((await r.downloadFhir(shareId, PIN)).statusCode).toBe(429);
    const notes = (await owner.client.get('/api/user/notifications')).json<{ title: string }[]>();
    expect(notes.filter((n) => n.title === 'Emergency QR code locked')).toHaveLength(1);

    // The lock is a pause: it spent none of the link's budget. Five wrong so far, five left.
    await expireAddressLocks(t.database.db, shareId);
    expect((await r.fetchManifest(payload.url, { recipient: 'a', passcode: '6666' })).json()).toMatchObject({
      message: 'Invalid passcode',
      remainingAttempts: 4,
    });
  });

  it('a lock set on the emergency page holds on the link too, and 10 wrong in total deactivate the code for both', async () => {
    const { owner, shareId } = await ownerWithCode();
    const { payload } = await linkOf(owner);
    const r = receiver();
    for (let i = 0; i < 5; i += 1) expect((await r.openPage(shareId, '1357')).statusCode).toBe(401);
    expect((await r.fetchManifest(payload.url, { recipient: 'a', passcode: PIN })).statusCode).toBe(429);

    // Let the lock run out (as 15 minutes passing would), then five more wrong through the link,
    // each answering what is left before the link is disabled.
    await expireAddressLocks(t.database.db, shareId);
    const left: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const wrong = await r.fetchManifest(payload.url, { recipient: 'a', passcode: '1357' });
      expect(wrong.statusCode).toBe(401);
      left.push(wrong.json<{ remainingAttempts: number }>().remainingAttempts);
    }
    expect(left).toEqual([4, 3, 2, 1, 0]);
    expect((await r.fetchManifest(payload.url, { recipient: 'a', passcode: PIN })).statusCode).toBe(404);
    expect((await r.openPage(shareId, PIN)).statusCode).toBe(404);
    const config = (await owner.client.get('/api/user/wearable-qr')).json();
    expect(config).toMatchObject({ is_active: false, is_disabled: true });

    // Disabled for good: the owner turning the PIN back on does not bring the link back…
    expect((await owner.client.put('/api/user/wearable-qr/unlock')).statusCode).toBe(200);
    expect((await r.openPage(shareId, PIN)).statusCode).toBe(200);
    const dead = await r.fetchManifest(payload.url, { recipient: 'a', passcode: PIN });
    expect(dead.statusCode).toBe(404);
    expect(dead.json()).toMatchObject({ message: 'QR code not found or inactive' });
    const read = await owner.client.get('/api/user/wearable-qr/shl');
    expect(read.statusCode).toBe(404);
    expect(read.json().message).toMatch(/disabled after too many wrong passcodes/);
    // …a new link, with a new manifest URL and a new key, does.
    const fresh = await owner.client.post('/api/user/wearable-qr/shl');
    expect(fresh.statusCode).toBe(201);
    const next = fresh.json<{ payload: { url: string; key: string } }>().payload;
    expect(next.url).not.toBe(payload.url);
    expect(next.key).not.toBe(payload.key);
    expect((await r.fetchManifest(next.url, { recipient: 'a', passcode: PIN })).statusCode).toBe(200);
    expect((await r.fetchManifest(payload.url, { recipient: 'a', passcode: PIN })).statusCode).toBe(404);
    const audit = await t.database.db
      .selectFrom('audit_events')
      .select('action')
      .where('user_id', '=', owner.id)
      .where('action', '=', 'shl_link_disabled')
      .execute();
    expect(audit).toHaveLength(1);
  });

  it("keeps the link's own lifetime count of wrong passcodes: a new PIN does not give a link that was guessed at a fresh budget", async () => {
    const { owner, shareId } = await ownerWithCode();
    const { payload } = await linkOf(owner);
    const r = receiver();
    for (const expected of [9, 8, 7, 6])
      expect((await r.fetchManifest(payload.url, { recipient: 'a', passcode: '1357' })).json().remainingAttempts).toBe(expected);
    // The right passcode spends nothing.
    expect((await r.fetchManifest(payload.url, { recipient: 'a', passcode: PIN })).statusCode).toBe(200);

    // A new PIN starts the code's counters afresh (DESIGN §7), not the link's.
    const NEW_PIN = '5937';
    expect((await owner.client.put('/api/user/wearable-qr/update-pin', { pin: NEW_PIN })).statusCode).toBe(200);
    const unlockExpired = () => expireAddressLocks(t.database.db, shareId);
    const left: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      if (i === 5) await unlockExpired();
      const wrong = await r.fetchManifest(payload.url, { recipient: 'a', passcode: '1357' });
      expect(wrong.statusCode).toBe(401);
      left.push(wrong.json<{ remainingAttempts: number }>().remainingAttempts);
    }
    expect(left).toEqual([5, 4, 3, 2, 1, 0]);

    // The link is spent and disabled; the code itself is not (6 wrong since the new PIN).
    await unlockExpired();
    expect((await r.fetchManifest(payload.url, { recipient: 'a', passcode: NEW_PIN })).statusCode).toBe(404);
    expect((await r.openPage(shareId, NEW_PIN)).statusCode).toBe(200);
    expect((await owner.client.get('/api/user/wearable-qr')).json()).toMatchObject({ is_active: true, is_disabled: false });
  });

  it('counts nothing against the link for a request refused before its passcode was checked (per-address cap, lock)', async () => {
    const { owner } = await ownerWithCode();
    const { payload } = await linkOf(owner);
    // An address that has used its 30 PIN attempts this hour (DESIGN §7) is turned away first.
    const busy = '10.79.0.1';
    const now = new Date().toISOString();
    for (let i = 0; i < 30; i += 1)
      await t.database.db
        .insertInto('pin_attempts')
        .values({ id: `busy-${i}-${Date.now()}`, ip: busy, created_at: now })
        .execute();
    for (let i = 0; i < 3; i += 1) {
      const refused = await t.app.inject({
        method: 'POST',
        url: new URL(payload.url).pathname,
        payload: { recipient: 'a', passcode: '1357' },
        remoteAddress: busy,
      });
      expect(refused.statusCode).toBe(429);
    }
    expect((await receiver().fetchManifest(payload.url, { recipient: 'a', passcode: '1357' })).json().remainingAttempts).toBe(9);
  });

  it('a disabled code answers 404 on the link even when its owner shows the essentials without the PIN', async () => {
    const { owner, shareId } = await ownerWithCode();
    const { payload } = await linkOf(owner);
    expect((await owner.client.put('/api/user/wearable-qr/settings', { essentials_without_pin: true })).statusCode).toBe(200);
    // The moment between the tenth wrong PIN and the code's switch-off (a parallel request's view).
    await t.database.db.updateTable('emergency_shares').set({ failed_total: 10 }).where('share_id', '=', shareId).execute();
    const res = await receiver().fetchManifest(payload.url, { recipient: 'a', passcode: PIN });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ message: 'QR code not found or inactive' });
  });

  it('unknown and malformed links, and deactivated codes, answer 404', async () => {
    const { owner } = await ownerWithCode();
    const { payload } = await linkOf(owner);
    const r = receiver();
    expect((await r.fetchManifest(`${ORIGIN}/shl/${'A'.repeat(43)}`, { recipient: 'a', passcode: PIN })).statusCode).toBe(404);
    expect((await r.fetchManifest(`${ORIGIN}/shl/short`, { recipient: 'a', passcode: PIN })).statusCode).toBe(404);
    await owner.client.put('/api/user/wearable-qr/toggle', { is_active: false });
    const res = await r.fetchManifest(payload.url, { recipient: 'a', passcode: PIN });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('QR code not found or inactive');
    // Re-activated, the same link works again.
    await owner.client.put('/api/user/wearable-qr/toggle', { is_active: true });
    expect((await r.fetchManifest(payload.url, { recipient: 'a', passcode: PIN })).statusCode).toBe(200);
  });

  it('answers a CORS preflight so web-based receivers on other origins can fetch it', async () => {
    const { owner } = await ownerWithCode();
    const { payload } = await linkOf(owner);
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: new URL(payload.url).pathname,
      headers: {
        origin: 'https://viewer.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toContain('POST');
  });

  it('never writes the passcode or the recipient to the log', async () => {
    const { app: logged, log } = await appWithCapturedLog(t);
    try {
      const { owner } = await ownerWithCode();
      const { payload } = await linkOf(owner);
      for (const passcode of ['9182', PIN]) {
        await logged.inject({
          method: 'POST',
          url: new URL(payload.url).pathname,
          payload: { recipient: 'Dr. Unique Recipient', passcode },
          remoteAddress: '10.78.0.1',
        });
      }
    } finally {
      await logged.close();
    }
    const all = log();
    expect(all).toContain('/shl/');
    expect(all).not.toContain('9182');
    expect(all).not.toContain('Unique Recipient');
  });
});

describe("a manifest file's location (STU1 embeddedLengthMax)", () => {
  const LOCATION = new RegExp(`^${ORIGIN}/shl-files/[A-Za-z0-9_-]{43}$`);
  /** The token of a location URL, the id of a manifest URL. */
  const lastSegment = (url: string) => new URL(url).pathname.split('/').pop() ?? '';
  const getLocation = (app: typeof t.app, location: string) =>
    app.inject({ method: 'GET', url: new URL(location).pathname, remoteAddress: '10.80.0.1' });

  it('embeds the JWE when it fits embeddedLengthMax, and answers a location instead when it is longer', async () => {
    const { owner } = await ownerWithCode();
    const { payload } = await linkOf(owner);
    const r = receiver();
    const roomy = (await r.fetchManifest(payload.url, { recipient: 'a', passcode: PIN, embeddedLengthMax: 1_000_000 })).json();
    const length = (roomy.files[0].embedded as string).length;
    expect(length).toBeGreaterThan(100);

    for (const embeddedLengthMax of [100, 0]) {
      const res = await r.fetchManifest(payload.url, { recipient: 'a', passcode: PIN, embeddedLengthMax });
      expect(res.statusCode, res.body).toBe(200);
      const manifest = res.json();
      expect(manifest).toEqual({
        files: [
          {
            contentType: 'application/fhir+json',
            location: expect.stringMatching(LOCATION),
            lastUpdated: expect.any(String),
            status: 'can-change',
            fhirVersion: '4.0.1',
          },
        ],
      });
      expect(manifest.files[0]).not.toHaveProperty('embedded');
    }
    for (const embeddedLengthMax of [-1, 1.5, '100']) {
      expect((await r.fetchManifest(payload.url, { recipient: 'a', passcode: PIN, embeddedLengthMax })).statusCode).toBe(400);
    }
  });

  it('a location answers one GET with the JWE as application/jose, which decrypts with the link key; a second GET is 404', async () => {
    const { owner } = await ownerWithCode();
    const { payload } = await linkOf(owner);
    const manifest = (await receiver().fetchManifest(payload.url, { recipient: 'a', passcode: PIN, embeddedLengthMax: 10 })).json();
    const location = manifest.files[0].location as string;

    const res = await getLocation(t.app, location);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/jose');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.split('.')).toHaveLength(5);
    const { bundle, protectedHeader } = await decryptFile(res.body, payload.key);
    expect(protectedHeader).toMatchObject({ alg: 'dir', enc: 'A256GCM', cty: 'application/fhir+json' });
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'document' });
    expect(fhirErrors(bundle)).toEqual([]);
    expect(JSON.stringify(bundle)).toContain('Penicillin');

    const again = await getLocation(t.app, location);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ message: 'QR code not found or inactive' });
    expect((await getLocation(t.app, `${ORIGIN}/shl-files/${'A'.repeat(43)}`)).statusCode).toBe(404);
    expect((await getLocation(t.app, `${ORIGIN}/shl-files/short`)).statusCode).toBe(404);
  });

  it('is kept in the database, hashed: another instance answers it, and its token is stored nowhere', async () => {
    const { owner } = await ownerWithCode();
    const { payload } = await linkOf(owner);
    const manifest = (await receiver().fetchManifest(payload.url, { recipient: 'a', passcode: PIN, embeddedLengthMax: 0 })).json();
    const location = manifest.files[0].location as string;
    const token = lastSegment(location);
    const rows = await t.database.db.selectFrom('shl_file_locations').selectAll().execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(token);
    const row = rows.find((r) => r.token_hash === createHash('sha256').update(token).digest('hex'));
    expect(row).toBeDefined();
    // STU1: "The lifetime of .files.location links SHALL NOT exceed one hour."
    const lifetime = Date.parse(row!.expires_at) - Date.parse(row!.created_at);
    expect(lifetime).toBeGreaterThan(0);
    expect(lifetime).toBeLessThanOrEqual(3_600_000);

    // A second app on the same database, as a second instance would be.
    const { app: other } = await appWithCapturedLog(t, { level: 'silent' });
    try {
      const res = await getLocation(other, location);
      expect(res.statusCode).toBe(200);
      expect((await decryptFile(res.body, payload.key)).bundle).toMatchObject({ resourceType: 'Bundle' });
    } finally {
      await other.close();
    }
  });

  it('expires after the hour, and dies with its code switched off or its link disabled', async () => {
    const { owner } = await ownerWithCode();
    const { payload } = await linkOf(owner);
    const r = receiver();
    const locationOf = async () =>
      (await r.fetchManifest(payload.url, { recipient: 'a', passcode: PIN, embeddedLengthMax: 0 })).json().files[0].location as string;

    const expired = await locationOf();
    const hash = createHash('sha256').update(lastSegment(expired)).digest('hex');
    await t.database.db
      .updateTable('shl_file_locations')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('token_hash', '=', hash)
      .execute();
    expect((await getLocation(t.app, expired)).statusCode).toBe(404);
    // The next manifest clears expired locations away.
    await locationOf();
    expect(await t.database.db.selectFrom('shl_file_locations').select('id').where('token_hash', '=', hash).execute()).toEqual([]);

    const switchedOff = await locationOf();
    await owner.client.put('/api/user/wearable-qr/toggle', { is_active: false });
    expect((await getLocation(t.app, switchedOff)).statusCode).toBe(404);
    await owner.client.put('/api/user/wearable-qr/toggle', { is_active: true });

    const disabled = await locationOf();
    await t.database.db
      .updateTable('shl_links')
      .set({ disabled_at: new Date().toISOString() })
      .where('manifest_id', '=', lastSegment(payload.url))
      .execute();
    expect((await getLocation(t.app, disabled)).statusCode).toBe(404);
  });

  it('never writes a location token to the log', async () => {
    const { app: logged, log } = await appWithCapturedLog(t, loggerOptions('info') as object);
    let token = '';
    try {
      const { owner } = await ownerWithCode();
      const { payload } = await linkOf(owner);
      const res = await logged.inject({
        method: 'POST',
        url: new URL(payload.url).pathname,
        payload: { recipient: 'a', passcode: PIN, embeddedLengthMax: 0 },
        remoteAddress: '10.78.0.2',
      });
      const location = res.json().files[0].location as string;
      token = lastSegment(location);
      expect((await getLocation(logged, location)).statusCode).toBe(200);
      expect((await getLocation(logged, location)).statusCode).toBe(404);
    } finally {
      await logged.close();
    }
    const all = log();
    expect(all).toContain('/shl-files/[redacted]');
    expect(token).toHaveLength(43);
    expect(all).not.toContain(token);
  });
});

describe("the emergency page's 'Download for clinicians (FHIR)'", () => {
  it('answers the IPS Bundle as a FHIR JSON download for the right PIN, and only the emergency sections', async () => {
    const { owner, shareId } = await ownerWithCode();
    const r = receiver();
    expect((await r.openPage(shareId, PIN)).statusCode).toBe(200);
    const res = await r.downloadFhir(shareId, PIN);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/fhir+json; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="emergency-summary\.fhir\.json"$/);
    expect(res.headers['cache-control']).toBe('no-store');
    const bundle = res.json();
    expect(fhirErrors(bundle)).toEqual([]);
    expect(JSON.stringify(bundle)).toContain('Penicillin');
    expect(JSON.stringify(bundle)).not.toContain('12 Secret Lane');
    // The page view and the download are two accesses, and the owner is told of both (DESIGN §7),
    // in one notice that counts them (access alerts are coalesced per code).
    const notes = (await owner.client.get('/api/user/notifications')).json<{ type: string; data: { message: string } }[]>();
    const access = notes.filter((n) => n.type === 'qr_access');
    expect(access).toHaveLength(1);
    expect(access[0]!.data.message).toMatch(/opened 2 times/);
  });

  it('needs a PIN, counts a wrong one, and each route answers only its own kind of code', async () => {
    const { owner, shareId } = await ownerWithCode();
    const r = receiver();
    expect((await new TestClient(t.app).get(`/api/user/emergency/${shareId}/fhir`)).statusCode).toBe(400);
    const wrong = await r.downloadFhir(shareId, '0000');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ message: 'Invalid PIN', remainingAttempts: 4 });
    expect((await r.downloadFhir(shareId, PIN, true)).statusCode).toBe(404);
    const memberId = await insertMember(t.database.db, owner.id, { name: 'Kid', has_allergies: 1, allergy_details: 'Bees' });
    const member = (await owner.client.post(`/api/user/family/members/${memberId}/qr`, { pin: '5937' })).json();
    const ok = await r.downloadFhir(member.share_id as string, '5937', true);
    expect(ok.statusCode).toBe(200);
    expect(JSON.stringify(ok.json())).toContain('Bees');
    expect((await r.downloadFhir(member.share_id as string, '5937')).statusCode).toBe(404);
  });
});
