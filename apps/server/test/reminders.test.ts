// Issue 32: reminder settings per person and push subscriptions — the API, its validation and its
// access rules (the scheduler has its own file, reminder-scheduler.test.ts).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { buildTestApp, signedInUser, TestClient } from './helpers';
import { insertMember, selfProfileId } from './factories';
import { insertShare } from './share-factories';
import { loadConfig } from '../src/config';
import { pushEndpointAllowed } from '../src/features/reminders/push-subscriptions.service';
import { loadVapidKeys } from '../src/features/reminders/vapid-keys';
import webpush from 'web-push';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ PUSH_ALLOWED_HOSTS: 'push.example.net, *.push.example.org, localhost:8443' });
});
afterAll(async () => {
  await t.close();
});

/** A browser's subscription keys: a P-256 public key (65 bytes) and 16 bytes of auth secret, base64url. */
function browserKeys() {
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x ?? '', 'base64url'), Buffer.from(jwk.y ?? '', 'base64url')]);
  return { p256dh: point.toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

describe('reminder settings', () => {
  it("the owner's defaults are on, off, on; a holder's all off; each sets only their own", async () => {
    const owner = await signedInUser(t.app);
    const viewer = await signedInUser(t.app);
    const child = await insertMember(t.database.db, owner.id, { name: 'Mia Rivera' });
    await insertShare(t.database.db, { profileId: child, ownerId: owner.id, holderId: viewer.id, role: 'viewer' });
    const url = `/api/user/people/${child}/reminder-settings`;

    expect((await owner.client.get(url)).json()).toEqual({ dose_reminders: true, missed_dose_alerts: false, appointment_reminders: true });
    expect((await viewer.client.get(url)).json()).toEqual({
      dose_reminders: false,
      missed_dose_alerts: false,
      appointment_reminders: false,
    });

    // A viewer chooses what they receive; the fields left out keep their value.
    const set = await viewer.client.put(url, { missed_dose_alerts: true });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ dose_reminders: false, missed_dose_alerts: true, appointment_reminders: false });
    expect((await viewer.client.put(url, { dose_reminders: true })).json()).toEqual({
      dose_reminders: true,
      missed_dose_alerts: true,
      appointment_reminders: false,
    });
    // The owner's choice is untouched.
    expect((await owner.client.get(url)).json()).toMatchObject({ missed_dose_alerts: false });
    expect((await owner.client.put(url, { appointment_reminders: false })).json()).toEqual({
      dose_reminders: true,
      missed_dose_alerts: false,
      appointment_reminders: false,
    });
    expect((await viewer.client.get(url)).json()).toMatchObject({ appointment_reminders: false, dose_reminders: true });

    // The owner's own profile works the same way.
    const self = await selfProfileId(t.database.db, owner.id);
    expect((await owner.client.get(`/api/user/people/${self}/reminder-settings`)).json()).toMatchObject({ dose_reminders: true });
  });

  it('validates the body and hides people the user cannot see', async () => {
    const owner = await signedInUser(t.app);
    const stranger = await signedInUser(t.app);
    const child = await insertMember(t.database.db, owner.id);
    const url = `/api/user/people/${child}/reminder-settings`;
    const bad = await owner.client.put(url, { dose_reminders: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('dose_reminders');
    expect((await owner.client.put(url, { other: true })).statusCode).toBe(400);
    expect((await stranger.client.get(url)).statusCode).toBe(404);
    expect((await stranger.client.put(url, { dose_reminders: true })).statusCode).toBe(404);
    expect((await new TestClient(t.app).get(url)).statusCode).toBe(401);
  });
});

describe('push subscriptions', () => {
  it('keeps an allowed https endpoint once, lists it by host, and deletes only the own', async () => {
    const user = await signedInUser(t.app);
    const other = await signedInUser(t.app);
    const endpoint = 'https://push.example.net/send/abc123';
    const first = await user.client.post('/api/user/push-subscriptions', { endpoint, expirationTime: null, keys: browserKeys() });
    expect(first.statusCode).toBe(201);
    const { id } = first.json();
    // The same endpoint again updates its keys: still one subscription, the same id.
    const keys = browserKeys();
    const again = await user.client.post('/api/user/push-subscriptions', { endpoint, keys });
    expect(again.json()).toEqual({ id });
    const stored = await t.database.db.selectFrom('push_subscriptions').selectAll().where('user_id', '=', user.id).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ p256dh: keys.p256dh, auth: keys.auth });

    expect(
      (await user.client.post('/api/user/push-subscriptions', { endpoint: 'https://a.push.example.org/x', keys: browserKeys() }))
        .statusCode,
    ).toBe(201);
    const list = (await user.client.get('/api/user/push-subscriptions')).json();
    expect(list.subscriptions.map((s: { endpoint_host: string }) => s.endpoint_host).sort()).toEqual([
      'a.push.example.org',
      'push.example.net',
    ]);
    expect(JSON.stringify(list)).not.toContain('abc123');

    expect((await other.client.delete(`/api/user/push-subscriptions/${id}`)).statusCode).toBe(404);
    expect((await user.client.delete(`/api/user/push-subscriptions/${id}`)).statusCode).toBe(200);
    expect((await user.client.delete(`/api/user/push-subscriptions/${id}`)).statusCode).toBe(404);
    expect((await user.client.get('/api/user/push-subscriptions')).json().subscriptions).toHaveLength(1);
  });

  it('refuses http, hosts not listed, and bad keys with a 400 naming the field', async () => {
    const { client } = await signedInUser(t.app);
    const post = (body: unknown) => client.post('/api/user/push-subscriptions', body);
    for (const endpoint of [
      'http://push.example.net/x',
      'https://internal.example.net/x',
      'https://push.example.org/x',
      'https://localhost:9443/x',
      'https://localhost/x',
      'https://user:pw@push.example.net/x',
      'https://127.0.0.1/x',
      'not a url',
    ]) {
      const res = await post({ endpoint, keys: browserKeys() });
      expect(res.statusCode, endpoint).toBe(400);
      expect(res.json().message, endpoint).toContain('endpoint');
    }
    const endpoint = 'https://push.example.net/y';
    const short = await post({ endpoint, keys: { ...browserKeys(), p256dh: randomBytes(20).toString('base64url') } });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toContain('p256dh');
    const auth = await post({ endpoint, keys: { ...browserKeys(), auth: randomBytes(8).toString('base64url') } });
    expect(auth.statusCode).toBe(400);
    expect(auth.json().message).toContain('auth');
    const notBase64 = await post({ endpoint, keys: { ...browserKeys(), auth: 'a+b/c' } });
    expect(notBase64.statusCode).toBe(400);
    expect((await post({ endpoint })).statusCode).toBe(400);
    expect((await client.get('/api/user/push-subscriptions')).json().subscriptions).toEqual([]);
  });

  it('matches hosts exactly, a wildcard only for subdomains; an entry without a port any port, with one only that port', () => {
    const hosts = ['fcm.googleapis.com', '*.notify.windows.com', 'localhost:8443', '*.push.example.org:9443', 'push.example.net:443'];
    expect(pushEndpointAllowed('https://fcm.googleapis.com/fcm/send/x', hosts)).toBe(true);
    expect(pushEndpointAllowed('https://FCM.googleapis.com/fcm/send/x', hosts)).toBe(true);
    expect(pushEndpointAllowed('https://evilfcm.googleapis.com/x', hosts)).toBe(false);
    expect(pushEndpointAllowed('https://fcm.googleapis.com.evil.example/x', hosts)).toBe(false);
    // No port in the entry: the host on any port.
    expect(pushEndpointAllowed('https://fcm.googleapis.com:444/x', hosts)).toBe(true);
    expect(pushEndpointAllowed('https://fcm.googleapis.com:443/x', hosts)).toBe(true);
    expect(pushEndpointAllowed('https://wns2-by3p.notify.windows.com/w/?token=x', hosts)).toBe(true);
    expect(pushEndpointAllowed('https://wns2-by3p.notify.windows.com:8080/w/?token=x', hosts)).toBe(true);
    expect(pushEndpointAllowed('https://notify.windows.com/x', hosts)).toBe(false);
    // A port in the entry: only that port (443 is what an https URL without one means).
    expect(pushEndpointAllowed('https://localhost:8443/p', hosts)).toBe(true);
    expect(pushEndpointAllowed('https://localhost/p', hosts)).toBe(false);
    expect(pushEndpointAllowed('https://localhost:8444/p', hosts)).toBe(false);
    expect(pushEndpointAllowed('https://a.push.example.org:9443/p', hosts)).toBe(true);
    expect(pushEndpointAllowed('https://a.push.example.org/p', hosts)).toBe(false);
    expect(pushEndpointAllowed('https://push.example.org:9443/p', hosts)).toBe(false);
    expect(pushEndpointAllowed('https://push.example.net/p', hosts)).toBe(true);
    expect(pushEndpointAllowed('https://push.example.net:8443/p', hosts)).toBe(false);
    // Still https only, whatever the port.
    expect(pushEndpointAllowed('http://fcm.googleapis.com:443/x', hosts)).toBe(false);
  });

  it('PUSH_ALLOWED_HOSTS without a port takes a subscription on another port (201); with a port, only that port', async () => {
    const { client } = await signedInUser(t.app);
    const post = (endpoint: string) => client.post('/api/user/push-subscriptions', { endpoint, keys: browserKeys() });
    expect((await post('https://push.example.net:8443/x')).statusCode).toBe(201);
    expect((await post('https://b.push.example.org:4443/x')).statusCode).toBe(201);
    expect((await post('https://localhost:8443/x')).statusCode).toBe(201);
    expect((await post('https://localhost:8080/x')).statusCode).toBe(400);
  });
});

describe('VAPID keys and configuration', () => {
  it('answers the public key in /api/config, generated once into DATA_DIR (0600) and read back', async () => {
    const res = await new TestClient(t.app).get('/api/config');
    const key = res.json().vapid_public_key;
    expect(key).toMatch(/^[\w-]{87}$/);
    const file = path.join(t.dataDir, 'vapid.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(loadVapidKeys(t.config.push, t.dataDir).publicKey).toBe(key);
  });

  it('uses VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY when set, and writes no key file', async () => {
    const keys = webpush.generateVAPIDKeys();
    const app = await buildTestApp({ VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey });
    try {
      expect((await new TestClient(app.app).get('/api/config')).json().vapid_public_key).toBe(keys.publicKey);
      expect(fs.existsSync(path.join(app.dataDir, 'vapid.json'))).toBe(false);
      expect(loadVapidKeys(app.config.push, app.dataDir)).toEqual(keys);
    } finally {
      await app.close();
    }
  });

  it('takes both VAPID keys or neither, and checks PUSH_ALLOWED_HOSTS', () => {
    const base = { DATA_DIR: t.dataDir };
    expect(() => loadConfig({ ...base, VAPID_PUBLIC_KEY: 'B'.repeat(87) })).toThrow(/VAPID_PRIVATE_KEY/);
    expect(loadConfig(base).push.allowedHosts).toContain('fcm.googleapis.com');
    expect(loadConfig({ ...base, PUSH_ALLOWED_HOSTS: 'A.example, *.b.example' }).push.allowedHosts).toEqual(['a.example', '*.b.example']);
    expect(() => loadConfig({ ...base, PUSH_ALLOWED_HOSTS: 'a.example/path' })).toThrow(/PUSH_ALLOWED_HOSTS/);
    expect(() => loadConfig({ ...base, PUSH_ALLOWED_HOSTS: '*' })).toThrow(/PUSH_ALLOWED_HOSTS/);
  });
});
