// Sessions you can see and re-authentication (DESIGN §5, docs/decisions/0024): a user lists their
// live sessions and ends any of them; exporting everything and creating shares need the password
// within the last 10 minutes, and the SPEC's password-carrying account changes work as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endOtherSessionsResponseSchema, reauthResponseSchema, sessionsSchema } from '@kinchart/shared/auth';
import { sha256Hex } from '../src/lib/ids';
import { loggerOptions } from '../src/plugins/logging';
import type { TestApp } from './helpers';
import { TestClient, appWithCapturedLog, buildTestApp, signedInUser, uniqueEmail } from './helpers';
import { insertMember } from './factories';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const CHROME_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const REAUTH_REQUIRED = { message: 'Please confirm your password to continue.', reauth_required: true };

/** A distinct client address per call, so the per-address login ceilings stay per test. */
let addressCounter = 0;
const nextAddress = () => {
  addressCounter += 1;
  return `10.88.${Math.floor(addressCounter / 250)}.${addressCounter % 250}`;
};

/** Another sign-in to `email` from its own browser (user agent and address). */
async function signInAgain(email: string, password: string, userAgent = SAFARI_IPHONE, remoteAddress = '203.0.113.9'): Promise<TestClient> {
  const client = new TestClient(t.app);
  const res = await client.post('/api/auth/login', { email, password }, { headers: { 'user-agent': userAgent }, remoteAddress });
  expect(res.statusCode).toBe(200);
  return client;
}

/** The sessions row key of a client's cookie: the token's SHA-256 (DESIGN §5). */
const sessionKey = (client: TestClient): string => sha256Hex(decodeURIComponent(client.cookie?.split('=')[1] ?? ''));

/** Moves the session's last password proof `minutes` into the past, as if that much time had gone by. */
async function ageAuthentication(client: TestClient, minutes: number): Promise<void> {
  const at = new Date(Date.now() - minutes * 60_000).toISOString();
  const result = await t.database.db
    .updateTable('sessions')
    .set({ authenticated_at: at })
    .where('id', '=', sessionKey(client))
    .executeTakeFirst();
  expect(Number(result.numUpdatedRows)).toBe(1);
}

async function listSessions(client: TestClient) {
  const res = await client.get('/api/auth/sessions');
  expect(res.statusCode).toBe(200);
  return sessionsSchema.parse(res.json());
}

const shareBody = { role: 'viewer' };

describe('the session list', () => {
  it('a user sees their live sessions with device, address and times, this one first and marked', async () => {
    const user = await signedInUser(t.app);
    const phone = await signInAgain(user.email, user.password);
    const laptop = await signInAgain(user.email, user.password, CHROME_LINUX, '198.51.100.7');

    const sessions = await listSessions(laptop);
    expect(sessions).toHaveLength(3);
    for (const session of sessions)
      expect(Object.keys(session).sort()).toEqual(['created_at', 'current', 'id', 'ip', 'last_seen_at', 'reminders', 'user_agent']);
    expect(sessions[0]).toMatchObject({ current: true, user_agent: CHROME_LINUX, ip: '198.51.100.7' });
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    // After the current one, the newest first: the phone signed in after the sign-up's login.
    expect(sessions[1]).toMatchObject({ current: false, user_agent: SAFARI_IPHONE, ip: '203.0.113.9' });
    expect(Date.parse(sessions[1]?.created_at ?? '')).toBeGreaterThanOrEqual(Date.parse(sessions[2]?.created_at ?? ''));
    for (const s of sessions) expect(Number.isNaN(Date.parse(s.last_seen_at))).toBe(false);

    // Each device sees itself as current.
    const fromPhone = await listSessions(phone);
    expect(fromPhone[0]?.user_agent).toBe(SAFARI_IPHONE);
    expect(fromPhone.map((s) => s.id).sort()).toEqual(sessions.map((s) => s.id).sort());
  });

  it('the listed ids are not the session tokens nor the keys they are looked up by', async () => {
    const user = await signedInUser(t.app);
    const token = decodeURIComponent(user.client.cookie?.split('=')[1] ?? '');
    const [own] = await listSessions(user.client);
    expect(own?.id).toBeTruthy();
    expect(own?.id).not.toBe(token);
    expect(own?.id).not.toBe(sha256Hex(token));
    expect(JSON.stringify(await user.client.get('/api/auth/sessions').then((r) => r.json()))).not.toContain(sha256Hex(token));
  });

  it("another user's sessions are not listed, and a session idle past its limit is not listed", async () => {
    const user = await signedInUser(t.app);
    const stranger = await signedInUser(t.app);
    const idle = await signInAgain(user.email, user.password);
    await t.database.db
      .updateTable('sessions')
      .set({ last_seen_at: new Date(Date.now() - t.config.sessionIdleMs - 60_000).toISOString() })
      .where('id', '=', sessionKey(idle))
      .execute();
    const sessions = await listSessions(user.client);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.current).toBe(true);
    expect((await listSessions(stranger.client)).map((s) => s.id)).not.toContain(sessions[0]?.id);
  });
});

describe('ending sessions', () => {
  it('a user signs out another of their sessions: its cookie no longer works, this one goes on', async () => {
    const user = await signedInUser(t.app);
    const phone = await signInAgain(user.email, user.password);
    const other = (await listSessions(user.client)).find((s) => !s.current);

    const res = await user.client.delete(`/api/auth/sessions/${other?.id ?? ''}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Session ended', current: false });
    expect(res.headers['set-cookie']).toBeUndefined();
    expect((await phone.get('/api/auth/check-auth')).statusCode).toBe(401);
    expect((await user.client.get('/api/auth/check-auth')).statusCode).toBe(200);
    expect(await listSessions(user.client)).toHaveLength(1);
    // Already gone: a second try is a 404.
    expect((await user.client.delete(`/api/auth/sessions/${other?.id ?? ''}`)).statusCode).toBe(404);
  });

  it("another user's session and an unknown id answer 404 and end nothing", async () => {
    const user = await signedInUser(t.app);
    const stranger = await signedInUser(t.app);
    const [theirs] = await listSessions(stranger.client);

    const res = await user.client.delete(`/api/auth/sessions/${theirs?.id ?? ''}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ message: 'Session not found' });
    expect((await stranger.client.get('/api/auth/check-auth')).statusCode).toBe(200);

    // Not even by the key a session is looked up by, nor by its token.
    const token = decodeURIComponent(stranger.client.cookie?.split('=')[1] ?? '');
    expect((await user.client.delete(`/api/auth/sessions/${sha256Hex(token).slice(0, 64)}`)).statusCode).toBe(404);
    expect((await user.client.delete(`/api/auth/sessions/${encodeURIComponent(token)}`)).statusCode).toBe(404);
    expect((await user.client.delete('/api/auth/sessions/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await stranger.client.get('/api/auth/check-auth')).statusCode).toBe(200);
  });

  it('signing out this session from the list is a logout: the cookie is cleared and ends on the server', async () => {
    const user = await signedInUser(t.app);
    const cookie = user.client.cookie;
    const [own] = await listSessions(user.client);
    const res = await user.client.delete(`/api/auth/sessions/${own?.id ?? ''}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Logged out successfully', current: true });
    expect(String(res.headers['set-cookie'])).toMatch(/^sid=;/);
    const replay = new TestClient(t.app);
    replay.cookie = cookie;
    expect((await replay.get('/api/auth/check-auth')).statusCode).toBe(401);
  });

  it('"sign out of all other sessions" ends every other session of the user and keeps this one', async () => {
    const user = await signedInUser(t.app);
    const phone = await signInAgain(user.email, user.password);
    const tablet = await signInAgain(user.email, user.password, CHROME_LINUX);
    const stranger = await signedInUser(t.app);

    const res = await user.client.delete('/api/auth/sessions');
    expect(res.statusCode).toBe(200);
    expect(endOtherSessionsResponseSchema.parse(res.json())).toMatchObject({ message: 'Signed out of 2 other sessions', ended: 2 });
    expect((await user.client.get('/api/auth/check-auth')).statusCode).toBe(200);
    expect((await phone.get('/api/auth/check-auth')).statusCode).toBe(401);
    expect((await tablet.get('/api/auth/check-auth')).statusCode).toBe(401);
    expect((await stranger.client.get('/api/auth/check-auth')).statusCode).toBe(200);
    expect((await listSessions(user.client)).map((s) => s.current)).toEqual([true]);

    // Nothing left to end is still a success.
    expect((await user.client.delete('/api/auth/sessions')).json()).toMatchObject({ message: 'Signed out of 0 other sessions', ended: 0 });
  });

  it('an id longer than any session id is refused before it reaches the database', async () => {
    const user = await signedInUser(t.app);
    const res = await user.client.delete(`/api/auth/sessions/${'x'.repeat(65)}`);
    expect(res.statusCode).toBe(400);
    expect(await listSessions(user.client)).toHaveLength(1);
  });

  it('the log of listing and ending sessions carries neither tokens nor session ids', async () => {
    const user = await signedInUser(t.app);
    const phone = await signInAgain(user.email, user.password);
    const { app, log } = await appWithCapturedLog(t, loggerOptions('trace') as object);
    try {
      const client = new TestClient(app);
      client.cookie = user.client.cookie;
      const listed = sessionsSchema.parse((await client.get('/api/auth/sessions')).json());
      const other = listed.find((s) => !s.current)?.id ?? '';
      expect((await client.delete(`/api/auth/sessions/${other}`)).statusCode).toBe(200);
      expect((await client.delete('/api/auth/sessions')).statusCode).toBe(200);
      const text = log();
      expect(text).toContain('/api/auth/sessions/[redacted]');
      for (const secret of [other, listed[0]?.id ?? '', sessionKey(user.client), sessionKey(phone)]) expect(text).not.toContain(secret);
      expect(text).not.toContain(decodeURIComponent(user.client.cookie?.split('=')[1] ?? ''));
    } finally {
      await app.close();
    }
  });
});

describe('re-authentication', () => {
  it('a fresh sign-in may export and create a share at once', async () => {
    const user = await signedInUser(t.app);
    const member = await insertMember(t.database.db, user.id);
    expect((await user.client.get('/api/user/export')).statusCode).toBe(200);
    expect((await user.client.post(`/api/user/people/${member}/shares`, shareBody)).statusCode).toBe(201);
  });

  it('after 10 minutes, exporting and creating a share ask for the password again; other pages still work', async () => {
    const user = await signedInUser(t.app);
    const member = await insertMember(t.database.db, user.id);
    await ageAuthentication(user.client, 10);

    const exported = await user.client.get('/api/user/export');
    expect(exported.statusCode).toBe(401);
    expect(exported.json()).toMatchObject(REAUTH_REQUIRED);
    const shared = await user.client.post(`/api/user/people/${member}/shares`, shareBody);
    expect(shared.statusCode).toBe(401);
    expect(shared.json()).toMatchObject(REAUTH_REQUIRED);
    // A prompt, not a sign-out: the session and everything else go on.
    expect(exported.headers['set-cookie']).toBeUndefined();
    expect((await user.client.get('/api/auth/check-auth')).statusCode).toBe(200);
    expect((await user.client.get('/api/user/people')).statusCode).toBe(200);
    expect((await user.client.get(`/api/user/people/${member}/shares`)).json()).toEqual([]);
  });

  it('just under 10 minutes is still recent', async () => {
    const user = await signedInUser(t.app);
    await ageAuthentication(user.client, 9.5);
    expect((await user.client.get('/api/user/export')).statusCode).toBe(200);
  });

  it('confirming the password restores export and share creation for 10 minutes', async () => {
    const user = await signedInUser(t.app);
    const member = await insertMember(t.database.db, user.id);
    await ageAuthentication(user.client, 30);

    const wrong = await user.client.post('/api/auth/reauth', { password: 'not my password at all' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ message: 'Password is incorrect' });
    expect((await user.client.get('/api/user/export')).statusCode).toBe(401);

    const before = Date.now();
    const res = await user.client.post('/api/auth/reauth', { password: user.password });
    expect(res.statusCode).toBe(200);
    const body = reauthResponseSchema.parse(res.json());
    expect(body.message).toBe('Password confirmed');
    const until = Date.parse(body.authenticated_until);
    expect(until).toBeGreaterThanOrEqual(before + 10 * 60_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 10 * 60_000);

    expect((await user.client.get('/api/user/export')).statusCode).toBe(200);
    expect((await user.client.post(`/api/user/people/${member}/shares`, shareBody)).statusCode).toBe(201);
    const audit = await t.database.db
      .selectFrom('audit_events')
      .select('action')
      .where('user_id', '=', user.id)
      .where('action', '=', 'reauthenticate')
      .execute();
    expect(audit).toHaveLength(1);
  });

  it("re-authentication holds for the session that gave the password, not the user's other sessions", async () => {
    const user = await signedInUser(t.app);
    const phone = await signInAgain(user.email, user.password);
    await ageAuthentication(user.client, 11);
    await ageAuthentication(phone, 11);
    expect((await user.client.post('/api/auth/reauth', { password: user.password })).statusCode).toBe(200);
    expect((await user.client.get('/api/user/export')).statusCode).toBe(200);
    expect((await phone.get('/api/user/export')).json()).toMatchObject(REAUTH_REQUIRED);
  });

  it('an empty or missing password is refused without counting as an attempt', async () => {
    const user = await signedInUser(t.app);
    for (const body of [{ password: '' }, {}]) {
      const res = await user.client.post('/api/auth/reauth', body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: 'Password is required' });
    }
    const failures = await t.database.db.selectFrom('login_failures').select('id').where('email', '=', user.email).execute();
    expect(failures).toEqual([]);
  });

  it('a stolen session cannot guess the password by re-authenticating: after 10 wrong passwords the next answers 429 and the session ends', async () => {
    const user = await signedInUser(t.app);
    const remoteAddress = nextAddress();
    await ageAuthentication(user.client, 15);
    for (let i = 0; i < 10; i += 1) {
      expect((await user.client.post('/api/auth/reauth', { password: `wrong-${i}-password` }, { remoteAddress })).statusCode).toBe(400);
    }
    const cookie = user.client.cookie;
    const limited = await user.client.post('/api/auth/reauth', { password: user.password }, { remoteAddress });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/Too many incorrect passwords/);
    expect(limited.headers['retry-after']).toBe('900');
    expect(String(limited.headers['set-cookie'])).toMatch(/^sid=;/);
    // Over on the server, not only in this browser.
    const replay = new TestClient(t.app);
    replay.cookie = cookie;
    expect((await replay.get('/api/auth/check-auth')).statusCode).toBe(401);
    // The login budget it spent is the same: that address cannot sign in either.
    expect(
      (await new TestClient(t.app).post('/api/auth/login', { email: user.email, password: user.password }, { remoteAddress })).statusCode,
    ).toBe(429);
  });

  it('wrong re-authentications and wrong logins share one budget of 10', async () => {
    const user = await signedInUser(t.app);
    const remoteAddress = nextAddress();
    const c = new TestClient(t.app);
    for (let i = 0; i < 7; i += 1)
      expect((await c.post('/api/auth/login', { email: user.email, password: `wrong-${i}-password` }, { remoteAddress })).statusCode).toBe(
        401,
      );
    for (let i = 0; i < 3; i += 1)
      expect((await user.client.post('/api/auth/reauth', { password: `bad-${i}-password` }, { remoteAddress })).statusCode).toBe(400);
    expect((await user.client.post('/api/auth/reauth', { password: user.password }, { remoteAddress })).statusCode).toBe(429);
  });
});

describe('changing second factors', () => {
  it('setting up, confirming and turning off TOTP, and new recovery codes, ask for the password after 10 minutes', async () => {
    const user = await signedInUser(t.app);
    expect((await user.client.post('/api/auth/mfa/totp/setup')).statusCode).toBe(200);
    await ageAuthentication(user.client, 11);
    for (const res of [
      await user.client.post('/api/auth/mfa/totp/setup'),
      await user.client.post('/api/auth/mfa/totp/confirm', { code: '123456' }),
      await user.client.delete('/api/auth/mfa/totp'),
      await user.client.post('/api/auth/mfa/recovery-codes'),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject(REAUTH_REQUIRED);
    }
    // Reading the status needs no fresh password.
    expect((await user.client.get('/api/auth/mfa')).statusCode).toBe(200);
    expect((await user.client.post('/api/auth/reauth', { password: user.password })).statusCode).toBe(200);
    expect((await user.client.post('/api/auth/mfa/totp/setup')).statusCode).toBe(200);
  });
});

describe("the SPEC's account changes, which carry the password themselves", () => {
  it('changing the password after 10 minutes needs no separate prompt, and counts as re-authentication', async () => {
    const user = await signedInUser(t.app);
    await ageAuthentication(user.client, 20);
    const res = await user.client.put('/api/auth/changePassword', {
      currentPassword: user.password,
      newPassword: 'a brand new passphrase',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Password updated successfully' });
    expect((await user.client.get('/api/user/export')).statusCode).toBe(200);
  });

  it('a wrong current password answers as before and does not re-authenticate', async () => {
    const user = await signedInUser(t.app);
    await ageAuthentication(user.client, 20);
    const res = await user.client.put('/api/auth/changePassword', {
      currentPassword: 'wrong wrong wrong',
      newPassword: 'a brand new passphrase',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'Current password is incorrect' });
    expect((await user.client.get('/api/user/export')).json()).toMatchObject(REAUTH_REQUIRED);
  });

  it("changing the email after 10 minutes works with the SPEC's body, and counts as re-authentication", async () => {
    const user = await signedInUser(t.app);
    await ageAuthentication(user.client, 20);
    const newEmail = uniqueEmail('moved');
    const res = await user.client.put('/api/auth/change-email', { newEmail, password: user.password });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Email updated successfully' });
    expect((await user.client.get('/api/auth/check-auth')).json().user.email).toBe(newEmail.toLowerCase());
    expect((await user.client.get('/api/user/export')).statusCode).toBe(200);
  });

  it("deleting the account after 10 minutes works with the SPEC's body", async () => {
    const user = await signedInUser(t.app);
    await ageAuthentication(user.client, 20);
    const res = await user.client.delete('/api/auth/deleteAccount', { password: user.password });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Account deleted successfully' });
    expect(await t.database.db.selectFrom('users').select('id').where('id', '=', user.id).execute()).toEqual([]);
  });
});
