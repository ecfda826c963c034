// docs/decisions/0044, "Later changes": a lost phone can be cut off. A Web Push subscription
// remembers the session that made it; ending that session ON PURPOSE (logout, the sessions list,
// "sign out other sessions", a password or email change, a password reset) removes it in the same
// transaction, while a session that merely expires keeps it (reminders go on through the night).
// GET /api/user/push-subscriptions names each browser (never its endpoint URL) and says which is
// this session's; DELETE of another user's subscription is 404.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushSubscriptionsSchema } from '@kinchart/shared/care';
import { sessionsSchema } from '@kinchart/shared/auth';
import type { TestApp } from './helpers';
import { TestClient, buildTestApp, signedInUser } from './helpers';
import type { LoopbackSmtp } from './smtp-helpers';
import { startLoopbackSmtp, withSubject } from './smtp-helpers';
import { sha256Hex } from '../src/lib/ids';
import { createSessionRepository } from '../src/common/session.repository';

const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const MAC_FIREFOX = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0';

let smtp: LoopbackSmtp;
let t: TestApp;
beforeAll(async () => {
  smtp = await startLoopbackSmtp();
  t = await buildTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Kinchart <kinchart@kinchart.test>', PUSH_ALLOWED_HOSTS: 'push.example.net' });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

let addressCounter = 0;
const nextAddress = () => `10.66.${Math.floor(addressCounter / 200)}.${(addressCounter++ % 200) + 1}`;

type User = Awaited<ReturnType<typeof signedInUser>>;

/** Another sign-in to the user's account from its own browser. */
async function anotherBrowser(user: User, userAgent = ANDROID_CHROME): Promise<TestClient> {
  const client = new TestClient(t.app);
  const res = await client.post(
    '/api/auth/login',
    { email: user.email, password: user.password },
    { headers: { 'user-agent': userAgent }, remoteAddress: nextAddress() },
  );
  expect(res.statusCode, res.body).toBe(200);
  return client;
}

/** Subscribes the client's browser to Web Push; answers the subscription's id. */
async function subscribe(client: TestClient, userAgent = ANDROID_CHROME): Promise<string> {
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const p256dh = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x ?? '', 'base64url'), Buffer.from(jwk.y ?? '', 'base64url')]);
  const res = await client.post(
    '/api/user/push-subscriptions',
    {
      endpoint: `https://push.example.net/send/${randomBytes(12).toString('hex')}`,
      keys: { p256dh: p256dh.toString('base64url'), auth: randomBytes(16).toString('base64url') },
    },
    { headers: { 'user-agent': userAgent } },
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string }>().id;
}

async function list(client: TestClient) {
  const res = await client.get('/api/user/push-subscriptions');
  expect(res.statusCode).toBe(200);
  return pushSubscriptionsSchema.strict().parse(res.json()).subscriptions;
}

const sessionKey = (client: TestClient): string => sha256Hex(decodeURIComponent(client.cookie?.split('=')[1] ?? ''));

/** The ids of the user's subscriptions as stored. */
async function stored(userId: string): Promise<string[]> {
  const rows = await t.database.db.selectFrom('push_subscriptions').select('id').where('user_id', '=', userId).orderBy('id').execute();
  return rows.map((r) => r.id);
}

describe('GET /api/user/push-subscriptions', () => {
  it('names each browser and says which is this session’s, never the endpoint URL', async () => {
    const user = await signedInUser(t.app);
    const desktop = await subscribe(user.client, MAC_FIREFOX);
    const phone = await anotherBrowser(user);
    const phoneSub = await subscribe(phone);

    const fromDesktop = await list(user.client);
    expect(fromDesktop).toEqual([
      { id: desktop, endpoint_host: 'push.example.net', label: 'Firefox on macOS', created_at: expect.any(String), this_session: true },
      { id: phoneSub, endpoint_host: 'push.example.net', label: 'Chrome on Android', created_at: expect.any(String), this_session: false },
    ]);
    const res = await user.client.get('/api/user/push-subscriptions');
    expect(res.body).not.toContain('/send/');
    expect(res.body).not.toContain('p256dh');
    expect((await list(phone)).map((s) => [s.id, s.this_session])).toEqual([
      [desktop, false],
      [phoneSub, true],
    ]);
  });

  it("another user's subscription is 404 to DELETE and is kept; the own one is removed", async () => {
    const user = await signedInUser(t.app);
    const stranger = await signedInUser(t.app);
    const id = await subscribe(user.client);
    const res = await stranger.client.delete(`/api/user/push-subscriptions/${id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ message: 'Push subscription not found' });
    expect(await stored(user.id)).toEqual([id]);
    expect((await user.client.delete(`/api/user/push-subscriptions/${id}`)).statusCode).toBe(200);
    expect(await stored(user.id)).toEqual([]);
  });
});

describe('GET /api/auth/sessions', () => {
  it('says which session has a browser that receives reminders', async () => {
    const user = await signedInUser(t.app);
    const phone = await anotherBrowser(user);
    await subscribe(phone);
    await anotherBrowser(user, MAC_FIREFOX);
    const listed = sessionsSchema.parse((await user.client.get('/api/auth/sessions')).json());
    expect(listed.map((s) => [s.current, s.user_agent, s.reminders])).toEqual([
      [true, 'lightMyRequest', false],
      [false, MAC_FIREFOX, false],
      [false, ANDROID_CHROME, true],
    ]);
  });
});

describe('a session ended on purpose takes its subscriptions along', () => {
  it('logout removes the subscriptions made in that session only', async () => {
    const user = await signedInUser(t.app);
    const kept = await subscribe(user.client, MAC_FIREFOX);
    const phone = await anotherBrowser(user);
    await subscribe(phone);
    expect((await phone.post('/api/auth/logout')).statusCode).toBe(200);
    expect(await stored(user.id)).toEqual([kept]);
  });

  it('ending a session from the sessions list removes the lost phone’s subscription', async () => {
    const user = await signedInUser(t.app);
    const kept = await subscribe(user.client, MAC_FIREFOX);
    const phone = await anotherBrowser(user);
    await subscribe(phone);
    const sessions = (await user.client.get('/api/auth/sessions')).json<{ id: string; current: boolean }[]>();
    const lost = sessions.find((s) => !s.current);
    expect((await user.client.delete(`/api/auth/sessions/${lost?.id}`)).statusCode).toBe(200);
    expect(await stored(user.id)).toEqual([kept]);
    // The phone's session is gone too: it can no longer list or re-subscribe.
    expect((await phone.get('/api/user/push-subscriptions')).statusCode).toBe(401);
  });

  it('“sign out other sessions” removes every other session’s subscriptions, and keeps this one’s', async () => {
    const user = await signedInUser(t.app);
    const kept = await subscribe(user.client, MAC_FIREFOX);
    await subscribe(await anotherBrowser(user));
    await subscribe(await anotherBrowser(user));
    expect(await stored(user.id)).toHaveLength(3);
    expect((await user.client.delete('/api/auth/sessions')).json()).toMatchObject({ ended: 2 });
    expect(await stored(user.id)).toEqual([kept]);
  });

  it('a password change and an email change remove the other sessions’ subscriptions', async () => {
    const user = await signedInUser(t.app);
    const kept = await subscribe(user.client, MAC_FIREFOX);
    await subscribe(await anotherBrowser(user));
    const changed = await user.client.put('/api/auth/changePassword', {
      currentPassword: user.password,
      newPassword: 'a brand new kestrel',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await stored(user.id)).toEqual([kept]);

    const next = { ...user, password: 'a brand new kestrel' };
    await subscribe(await anotherBrowser(next));
    expect(await stored(user.id)).toHaveLength(2);
    const moved = await user.client.put('/api/auth/change-email', {
      newEmail: `moved.${randomBytes(4).toString('hex')}@example.com`,
      password: next.password,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await stored(user.id)).toEqual([kept]);
  });

  it('a password reset ends every session and the subscriptions made in them', async () => {
    const user = await signedInUser(t.app);
    await subscribe(user.client);
    expect(
      (await new TestClient(t.app).post('/api/auth/forgot-password', { email: user.email }, { remoteAddress: nextAddress() })).statusCode,
    ).toBe(202);
    const [mail] = await smtp.messagesTo(user.email, 1, withSubject('Kinchart: reset your password'));
    const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1];
    const reset = await new TestClient(t.app).post('/api/auth/reset-password', { token, newPassword: 'a brand new kestrel' });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(await stored(user.id)).toEqual([]);
  });

  it('signing in again in the same browser keeps its subscription, now tied to the new session', async () => {
    const user = await signedInUser(t.app);
    const id = await subscribe(user.client);
    const again = await user.client.post(
      '/api/auth/login',
      { email: user.email, password: user.password },
      { remoteAddress: nextAddress() },
    );
    expect(again.statusCode).toBe(200);
    expect(await stored(user.id)).toEqual([id]);
    expect((await list(user.client)).map((s) => s.this_session)).toEqual([true]);
    // …so ending that new session on purpose still cuts the browser off.
    expect((await user.client.post('/api/auth/logout')).statusCode).toBe(200);
    expect(await stored(user.id)).toEqual([]);
  });
});

describe('a session that merely expires keeps its subscriptions', () => {
  it('idle and past its lifetime: the session is gone, the subscription stays (reminders go on overnight)', async () => {
    const user = await signedInUser(t.app);
    const idle = await anotherBrowser(user);
    const idleSub = await subscribe(idle);
    const old = await anotherBrowser(user);
    const oldSub = await subscribe(old);
    const desktop = await subscribe(user.client, MAC_FIREFOX);
    await t.database.db
      .updateTable('sessions')
      .set({ last_seen_at: new Date(Date.now() - t.config.sessionIdleMs - 60_000).toISOString() })
      .where('id', '=', sessionKey(idle))
      .execute();
    await t.database.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', sessionKey(old))
      .execute();
    // The expired sessions are found over (one by its own request, both by the sweep).
    expect((await idle.get('/api/user/push-subscriptions')).statusCode).toBe(401);
    await createSessionRepository(t.database.db, { idleMs: t.config.sessionIdleMs, maxMs: t.config.sessionMaxMs }).deleteExpired();
    expect(
      await t.database.db
        .selectFrom('sessions')
        .select('id')
        .where('id', 'in', [sessionKey(idle), sessionKey(old)])
        .execute(),
    ).toEqual([]);
    expect(await stored(user.id)).toEqual([idleSub, oldSub, desktop].sort());
    // Still listed, as other browsers, and still removable from another session.
    expect(
      (await list(user.client))
        .filter((s) => !s.this_session)
        .map((s) => s.id)
        .sort(),
    ).toEqual([idleSub, oldSub].sort());
    // And "sign out other sessions" cannot reach them (their sessions are over): Stop reminders can.
    await user.client.delete('/api/auth/sessions');
    expect(await stored(user.id)).toHaveLength(3);
    expect((await user.client.delete(`/api/user/push-subscriptions/${idleSub}`)).statusCode).toBe(200);
    expect(await stored(user.id)).toEqual([oldSub, desktop].sort());
  });
});
