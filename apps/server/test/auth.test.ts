import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { loadConfig } from '../src/config';
import { securityHeaders } from '../src/plugins/security';
import { createSessionRepository } from '../src/common/session.repository';
import type { TestApp } from './helpers';
import { GOOD_PASSWORD, ORIGIN, TestClient, buildTestApp, signedInUser, uniqueEmail } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('health', () => {
  it('answers ok once the database answers', async () => {
    const res = await new TestClient(t.app).get('/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });
});

describe('sign-up', () => {
  it('creates an account and answers 201 with a message', async () => {
    const client = new TestClient(t.app);
    const res = await client.post('/api/auth/signup', { email: uniqueEmail(), password: GOOD_PASSWORD, username: 'Sam' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ message: 'Account created successfully!' });
  });

  it('stores the email lower-cased and refuses a duplicate with 409', async () => {
    const email = uniqueEmail('Mixed.Case');
    const client = new TestClient(t.app);
    expect((await client.post('/api/auth/signup', { email, password: GOOD_PASSWORD, username: 'A' })).statusCode).toBe(201);
    const dup = await client.post('/api/auth/signup', { email: email.toUpperCase(), password: GOOD_PASSWORD, username: 'B' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toMatch(/already exists/);
    const row = await t.database.db
      .selectFrom('users')
      .select(['email', 'password_hash'])
      .where('email', '=', email.toLowerCase())
      .executeTakeFirst();
    expect(row?.email).toBe(email.toLowerCase());
    expect(row?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('requires a username after trimming', async () => {
    const res = await new TestClient(t.app).post('/api/auth/signup', { email: uniqueEmail(), password: GOOD_PASSWORD, username: '   ' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'Username is required' });
  });

  it('refuses short, over-long and common passwords and a malformed email', async () => {
    const c = new TestClient(t.app);
    const short = await c.post('/api/auth/signup', { email: uniqueEmail(), password: 'short', username: 'A' });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toMatch(/at least 8/);
    const long = await c.post('/api/auth/signup', { email: uniqueEmail(), password: 'x'.repeat(257), username: 'A' });
    expect(long.statusCode).toBe(400);
    const common = await c.post('/api/auth/signup', { email: uniqueEmail(), password: 'password123', username: 'A' });
    expect(common.statusCode).toBe(400);
    expect(common.json().message).toMatch(/too common/);
    const badEmail = await c.post('/api/auth/signup', { email: 'not-an-email', password: GOOD_PASSWORD, username: 'A' });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().message).toMatch(/email/i);
  });

  it('answers 400 with a message for malformed JSON, and 415 for a non-JSON body', async () => {
    const c = new TestClient(t.app);
    const bad = await c.post('/api/auth/signup', '{"email": ', { headers: { 'content-type': 'application/json' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ message: 'Malformed JSON in request body' });
    const form = await c.post('/api/auth/signup', 'email=a', { headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.statusCode).toBe(415);
    expect(typeof form.json().message).toBe('string');
    const wrongType = await c.post('/api/auth/signup', { email: 5, password: [], username: {} });
    expect(wrongType.statusCode).toBe(400);
  });
});

describe('login', () => {
  it('signs in, sets an HttpOnly SameSite=Lax session cookie, and check-auth then answers', async () => {
    const email = uniqueEmail();
    const c = new TestClient(t.app);
    await c.post('/api/auth/signup', { email, password: GOOD_PASSWORD, username: 'Robin' });
    const res = await c.post('/api/auth/login', { email: email.toUpperCase(), password: GOOD_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Login successful.', user: { email, username: 'Robin' } });
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^sid=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
    const check = await c.get('/api/auth/check-auth');
    expect(check.statusCode).toBe(200);
    expect(check.json()).toMatchObject({ authenticated: true, user: { email, username: 'Robin' } });
    expect(check.json().user).not.toHaveProperty('password_hash');
  });

  it('stores only a hash of the session token', async () => {
    const { client } = await signedInUser(t.app);
    const token = client.cookie?.split('=')[1];
    const rows = await t.database.db.selectFrom('sessions').select('id').execute();
    expect(token).toBeTruthy();
    expect(rows.some((r) => r.id === token)).toBe(false);
  });

  it('answers an unknown email and a wrong password identically', async () => {
    const { email } = await signedInUser(t.app);
    const c = new TestClient(t.app);
    const wrong = await c.post('/api/auth/login', { email, password: 'wrong password!' });
    const unknown = await c.post('/api/auth/login', { email: uniqueEmail('nobody'), password: 'wrong password!' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toMatchObject({ message: 'Invalid email or password' });
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  it('throttles an account after 10 failures in 15 minutes with 429, even for the right password', async () => {
    const { email, password } = await signedInUser(t.app);
    const c = new TestClient(t.app);
    for (let i = 0; i < 10; i += 1) {
      expect((await c.post('/api/auth/login', { email, password: `wrong-${i}-password` })).statusCode).toBe(401);
    }
    const locked = await c.post('/api/auth/login', { email, password });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toMatch(/Too many failed login attempts/);
    expect(locked.headers['retry-after']).toBe('900');
    // Per account and address (DESIGN §5): the owner elsewhere still gets in, the guesser does not.
    const elsewhere = await c.post('/api/auth/login', { email, password }, { remoteAddress: '10.9.8.7' });
    expect(elsewhere.statusCode).toBe(200);
    expect((await c.post('/api/auth/login', { email, password })).statusCode).toBe(429);
  });

  it('check-auth without a session answers 401', async () => {
    const res = await new TestClient(t.app).get('/api/auth/check-auth');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ message: 'Not authenticated' });
  });
});

describe('sessions', () => {
  it('logout ends the session on the server', async () => {
    const { client } = await signedInUser(t.app);
    const stolen = client.cookie;
    const out = await client.post('/api/auth/logout');
    expect(out.statusCode).toBe(200);
    expect(out.json()).toMatchObject({ message: 'Logged out successfully' });
    const replay = new TestClient(t.app);
    replay.cookie = stolen;
    expect((await replay.get('/api/auth/check-auth')).statusCode).toBe(401);
  });

  it('requests arriving together, whose session checks share one query, each get their own account', async () => {
    const users = await Promise.all(Array.from({ length: 6 }, () => signedInUser(t.app)));
    const [gone] = users;
    const goneCookie = gone?.client.cookie;
    await gone?.client.post('/api/auth/logout');
    // All in one turn of the event loop: one batched session lookup answers them all.
    const answers = await Promise.all([
      ...users.slice(1).map((u) => u.client.get('/api/user/getPatientProfile')),
      ...users.slice(1).map((u) => u.client.get('/api/auth/check-auth')),
      new TestClient(t.app).get('/api/user/getPatientProfile', { headers: { cookie: goneCookie ?? '' } }),
      new TestClient(t.app).get('/api/user/getPatientProfile', { headers: { cookie: 'sid=not-a-session' } }),
    ]);
    const profiles = answers.slice(0, 5);
    expect(profiles.map((r) => [r.statusCode, r.json<{ account_email: string }>().account_email])).toEqual(
      users.slice(1).map((u) => [200, u.email]),
    );
    expect(answers.slice(5, 10).map((r) => r.json<{ user: { id: string } }>().user.id)).toEqual(users.slice(1).map((u) => u.id));
    expect(answers.slice(10).map((r) => r.statusCode)).toEqual([401, 401]);
  });

  it('a session idle past its limit, or past its absolute lifetime, is refused', async () => {
    const { client, id } = await signedInUser(t.app);
    const old = new Date(Date.now() - 31 * 60_000).toISOString();
    await t.database.db.updateTable('sessions').set({ last_seen_at: old }).where('user_id', '=', id).execute();
    expect((await client.get('/api/auth/check-auth')).statusCode).toBe(401);

    const second = await signedInUser(t.app);
    await t.database.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', second.id)
      .execute();
    expect((await second.client.get('/api/auth/check-auth')).statusCode).toBe(401);
  });

  it('the idle limit slides with use, also when it is short: a session used every 20 s of a 1-minute limit lives on', async () => {
    const sessions = createSessionRepository(t.database.db, { idleMs: 60_000, maxMs: 12 * 3_600_000 });
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const start = Date.now();
      const { id } = await signedInUser(t.app);
      const token = await sessions.create(id, { ip: null, userAgent: null });
      for (let step = 1; step <= 6; step += 1) {
        vi.setSystemTime(start + step * 20_000);
        expect(await sessions.findUser(token), `after ${step * 20} s`).not.toBeNull();
      }
      // Then left alone for the whole minute: it ends.
      vi.setSystemTime(start + 6 * 20_000 + 60_000);
      expect(await sessions.findUser(token)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a forged cookie is refused', async () => {
    const c = new TestClient(t.app);
    c.cookie = 'sid=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    expect((await c.get('/api/auth/check-auth')).statusCode).toBe(401);
  });
});

describe('CSRF and headers', () => {
  it('refuses a cross-origin or origin-less write with 403', async () => {
    const cross = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { origin: 'https://evil.example' },
      payload: { email: 'a@b.co', password: 'whatever1' },
    });
    expect(cross.statusCode).toBe(403);
    expect(cross.json()).toMatchObject({ message: 'Cross-origin request refused' });
    const none = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'a@b.co', password: 'x' } });
    expect(none.statusCode).toBe(403);
    const referer = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { referer: `${ORIGIN}/dashboard` },
    });
    expect(referer.statusCode).toBe(200);
  });

  it('sends the security headers and no-store on API answers', async () => {
    const res = await new TestClient(t.app).get('/api/health');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it("sends helmet's whole set on pages and the answer-protecting part on API answers, errors included", async () => {
    const page = await t.app.inject({ method: 'GET', url: '/dashboard' });
    for (const name of [
      'cross-origin-opener-policy',
      'origin-agent-cluster',
      'x-dns-prefetch-control',
      'x-frame-options',
      'x-content-type-options',
    ]) {
      expect(page.headers[name], name).toBeDefined();
    }
    expect(page.headers['cache-control']).not.toBe('no-store');
    const missing = await new TestClient(t.app).get('/api/user/nope');
    const refused = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { origin: 'https://evil.example' } });
    // A URL the router cannot decode is refused before any hook runs; it gets the same headers.
    const undecodable = await t.app.inject({ method: 'GET', url: '/api/user/%zz' });
    expect(undecodable.statusCode).toBe(400);
    expect(undecodable.json()).toMatchObject({ message: 'Malformed URL' });
    const undecodablePage = await t.app.inject({ method: 'GET', url: '/%E0%A4%A' });
    expect(undecodablePage.statusCode).toBe(400);
    expect(undecodablePage.headers['content-security-policy']).toBe(page.headers['content-security-policy']);
    expect(undecodablePage.headers['x-dns-prefetch-control']).toBeDefined();
    for (const res of [missing, refused, undecodable]) {
      expect(res.headers['content-security-policy']).toBe(page.headers['content-security-policy']);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['cross-origin-opener-policy']).toBeUndefined();
    }
    expect([missing.statusCode, refused.statusCode]).toEqual([404, 403]);
  });

  it('adds HSTS and upgrade-insecure-requests when PUBLIC_URL is https', () => {
    const https = securityHeaders(loadConfig({ PUBLIC_URL: 'https://kinchart.example', DATA_DIR: t.dataDir }));
    for (const set of [https.document, https.api]) {
      expect(set['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(set['content-security-policy']).toContain('upgrade-insecure-requests');
    }
  });

  it('unknown API paths answer 404 JSON', async () => {
    const res = await new TestClient(t.app).get('/api/nope');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ message: 'Not found' });
  });
});

describe('account changes', () => {
  it('changing the password needs the current one and ends every other session', async () => {
    const user = await signedInUser(t.app);
    const other = new TestClient(t.app);
    await other.post('/api/auth/login', { email: user.email, password: user.password });
    expect((await other.get('/api/auth/check-auth')).statusCode).toBe(200);

    const wrong = await user.client.put('/api/auth/changePassword', {
      currentPassword: 'not it at all',
      newPassword: 'a new good passphrase',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ message: 'Current password is incorrect' });
    const short = await user.client.put('/api/auth/changePassword', { currentPassword: user.password, newPassword: 'short' });
    expect(short.statusCode).toBe(400);

    const ok = await user.client.put('/api/auth/changePassword', { currentPassword: user.password, newPassword: 'a new good passphrase' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ message: 'Password updated successfully' });
    expect((await user.client.get('/api/auth/check-auth')).statusCode).toBe(200);
    expect((await other.get('/api/auth/check-auth')).statusCode).toBe(401);

    const c = new TestClient(t.app);
    expect((await c.post('/api/auth/login', { email: user.email, password: user.password })).statusCode).toBe(401);
    expect((await c.post('/api/auth/login', { email: user.email, password: 'a new good passphrase' })).statusCode).toBe(200);
  });

  it('changing the email needs the password, refuses a taken email and ends other sessions', async () => {
    const user = await signedInUser(t.app);
    const taken = await signedInUser(t.app);
    const other = new TestClient(t.app);
    await other.post('/api/auth/login', { email: user.email, password: user.password });

    const wrong = await user.client.put('/api/auth/change-email', { newEmail: uniqueEmail(), password: 'nope nope nope' });
    expect(wrong.statusCode).toBe(400);
    const dup = await user.client.put('/api/auth/change-email', { newEmail: taken.email, password: user.password });
    expect(dup.statusCode).toBe(409);
    const invalid = await user.client.put('/api/auth/change-email', { newEmail: 'nope', password: user.password });
    expect(invalid.statusCode).toBe(400);

    const newEmail = uniqueEmail('Renamed');
    const ok = await user.client.put('/api/auth/change-email', { newEmail, password: user.password });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ message: 'Email updated successfully' });
    expect((await user.client.get('/api/auth/check-auth')).json().user.email).toBe(newEmail.toLowerCase());
    expect((await other.get('/api/auth/check-auth')).statusCode).toBe(401);
  });

  it('account routes need a session', async () => {
    const c = new TestClient(t.app);
    expect((await c.put('/api/auth/changePassword', { currentPassword: 'a', newPassword: 'bbbbbbbbbb' })).statusCode).toBe(401);
    expect((await c.put('/api/auth/change-email', { newEmail: 'a@b.co', password: 'x' })).statusCode).toBe(401);
    expect((await c.delete('/api/auth/deleteAccount', { password: 'x' })).statusCode).toBe(401);
  });

  it('deleting the account needs the password and removes every row the user owns', async () => {
    const user = await signedInUser(t.app);
    const keeper = await signedInUser(t.app);
    const wrong = await user.client.delete('/api/auth/deleteAccount', { password: 'definitely wrong' });
    expect(wrong.statusCode).toBe(400);
    const missing = await user.client.delete('/api/auth/deleteAccount', {});
    expect(missing.statusCode).toBe(400);

    const ok = await user.client.delete('/api/auth/deleteAccount', { password: user.password });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ message: 'Account deleted successfully' });
    const db = t.database.db;
    const owned = [
      'sessions',
      'profiles',
      'emergency_contacts',
      'healthcare_providers',
      'medications',
      'medical_files',
      'appointments',
      'notifications',
    ] as const;
    for (const table of owned) {
      const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)} where user_id = ${user.id}`.execute(db);
      expect(Number(rows[0]?.n), table).toBe(0);
    }
    expect(await db.selectFrom('users').select('id').where('id', '=', user.id).executeTakeFirst()).toBeUndefined();
    expect(await db.selectFrom('users').select('id').where('id', '=', keeper.id).executeTakeFirst()).toBeDefined();
    const audit = await db
      .selectFrom('audit_events')
      .select('action')
      .where('user_id', '=', user.id)
      .where('action', '=', 'account_delete')
      .execute();
    expect(audit).toHaveLength(1);
    expect((await new TestClient(t.app).post('/api/auth/login', { email: user.email, password: user.password })).statusCode).toBe(401);
  });
});

/** A distinct client address per call, so the per-address ceilings stay per test. */
let addressCounter = 0;
function nextAddress(): string {
  addressCounter += 1;
  return `10.77.${Math.floor(addressCounter / 250)}.${addressCounter % 250}`;
}

const statusCounts = (codes: number[]) => codes.reduce<Record<number, number>>((acc, c) => ({ ...acc, [c]: (acc[c] ?? 0) + 1 }), {});

describe('login limits under concurrency', () => {
  it('100 simultaneous wrong passwords for one account from one address get at most 10 answers of 401, the rest 429', async () => {
    const { email, password } = await signedInUser(t.app);
    const remoteAddress = nextAddress();
    const c = new TestClient(t.app);
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => c.post('/api/auth/login', { email, password: `wrong-${i}-password` }, { remoteAddress })),
    );
    expect(statusCounts(results.map((r) => r.statusCode))).toEqual({ 401: 10, 429: 90 });
    expect((await c.post('/api/auth/login', { email, password }, { remoteAddress })).statusCode).toBe(429);
  });

  it('a guesser racing the right password among 99 wrong ones gets at most 10 passwords checked', async () => {
    const { email, password } = await signedInUser(t.app);
    const remoteAddress = nextAddress();
    const c = new TestClient(t.app);
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        c.post('/api/auth/login', { email, password: i === 57 ? password : `wrong-${i}-password` }, { remoteAddress }),
      ),
    );
    const counts = statusCounts(results.map((r) => r.statusCode));
    expect((counts[401] ?? 0) + (counts[200] ?? 0)).toBeLessThanOrEqual(10);
    expect(counts[429]).toBeGreaterThanOrEqual(90);
  });

  it('100 simultaneous wrong logins across accounts from one address stop at the per-address ceiling of 50', async () => {
    const remoteAddress = nextAddress();
    const c = new TestClient(t.app);
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        c.post('/api/auth/login', { email: uniqueEmail(`nobody${i}-`), password: 'wrong password!' }, { remoteAddress }),
      ),
    );
    expect(statusCounts(results.map((r) => r.statusCode))).toEqual({ 401: 50, 429: 50 });
  });

  it('an unknown email uses up attempts like a known one: 10 answers of 401, then 429', async () => {
    const remoteAddress = nextAddress();
    const c = new TestClient(t.app);
    const email = uniqueEmail('ghost');
    const results = await Promise.all(
      Array.from({ length: 30 }, () => c.post('/api/auth/login', { email, password: 'wrong password!' }, { remoteAddress })),
    );
    expect(statusCounts(results.map((r) => r.statusCode))).toEqual({ 401: 10, 429: 20 });
  });

  it('a right password does not count as a failure', async () => {
    const { email, password } = await signedInUser(t.app);
    const remoteAddress = nextAddress();
    const c = new TestClient(t.app);
    for (let i = 0; i < 9; i += 1)
      expect((await c.post('/api/auth/login', { email, password: `wrong-${i}-password` }, { remoteAddress })).statusCode).toBe(401);
    expect((await c.post('/api/auth/login', { email, password }, { remoteAddress })).statusCode).toBe(200);
    expect((await c.post('/api/auth/login', { email, password: 'one more wrong one' }, { remoteAddress })).statusCode).toBe(401);
  });
});

describe('password re-confirmation limits', () => {
  const routes = [
    {
      name: 'changing the password',
      method: 'put',
      url: '/api/auth/changePassword',
      body: (pw: string) => ({ currentPassword: pw, newPassword: 'another good passphrase' }),
      wrongStatus: 400,
    },
    {
      name: 'changing the email',
      method: 'put',
      url: '/api/auth/change-email',
      body: (pw: string) => ({ newEmail: uniqueEmail('moved'), password: pw }),
      wrongStatus: 400,
    },
    {
      name: 'deleting the account',
      method: 'delete',
      url: '/api/auth/deleteAccount',
      body: (pw: string) => ({ password: pw }),
      wrongStatus: 400,
    },
  ] as const;

  for (const route of routes) {
    it(`a stolen session cannot guess the password by ${route.name}: after 10 wrong passwords the next answers 429 and the session ends`, async () => {
      const user = await signedInUser(t.app);
      const remoteAddress = nextAddress();
      const send = (pw: string) => user.client[route.method](route.url, route.body(pw), { remoteAddress });
      for (let i = 0; i < 10; i += 1) expect((await send(`wrong-${i}-password`)).statusCode).toBe(route.wrongStatus);
      const cookie = user.client.cookie;
      const limited = await send(user.password);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().message).toMatch(/Too many/);
      expect(limited.headers['retry-after']).toBe('900');
      expect(String(limited.headers['set-cookie'])).toMatch(/^sid=;/);
      // The session is over on the server, not just in this browser.
      user.client.cookie = cookie;
      expect((await user.client.get('/api/auth/check-auth')).statusCode).toBe(401);
      // The same budget as login's: the guesser's address cannot sign in either; the owner elsewhere can.
      const c = new TestClient(t.app);
      expect((await c.post('/api/auth/login', { email: user.email, password: user.password }, { remoteAddress })).statusCode).toBe(429);
      expect(
        (await c.post('/api/auth/login', { email: user.email, password: user.password }, { remoteAddress: nextAddress() })).statusCode,
      ).toBe(200);
    });
  }

  it('40 simultaneous wrong re-confirmations get at most 10 answers of 400, the rest 429', async () => {
    const user = await signedInUser(t.app);
    const remoteAddress = nextAddress();
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        user.client.put(
          '/api/auth/changePassword',
          { currentPassword: `wrong-${i}-password`, newPassword: 'another good passphrase' },
          { remoteAddress },
        ),
      ),
    );
    expect(statusCounts(results.map((r) => r.statusCode))).toEqual({ 400: 10, 429: 30 });
  });

  it('wrong logins and wrong re-confirmations share one budget of 10', async () => {
    const user = await signedInUser(t.app);
    const remoteAddress = nextAddress();
    const c = new TestClient(t.app);
    for (let i = 0; i < 6; i += 1)
      expect((await c.post('/api/auth/login', { email: user.email, password: `wrong-${i}-password` }, { remoteAddress })).statusCode).toBe(
        401,
      );
    for (let i = 0; i < 4; i += 1) {
      expect(
        (await user.client.put('/api/auth/change-email', { newEmail: uniqueEmail(), password: `wrong-${i}-password` }, { remoteAddress }))
          .statusCode,
      ).toBe(400);
    }
    expect(
      (await user.client.put('/api/auth/change-email', { newEmail: uniqueEmail(), password: user.password }, { remoteAddress })).statusCode,
    ).toBe(429);
  });

  it('a right re-confirmation does not count as a failure', async () => {
    const user = await signedInUser(t.app);
    const remoteAddress = nextAddress();
    for (let i = 0; i < 9; i += 1) {
      expect(
        (await user.client.put('/api/auth/change-email', { newEmail: uniqueEmail(), password: `wrong-${i}-password` }, { remoteAddress }))
          .statusCode,
      ).toBe(400);
    }
    // Confirmed with the right password, keeping the same email (the budget is per account email).
    for (let i = 0; i < 3; i += 1) {
      expect(
        (await user.client.put('/api/auth/change-email', { newEmail: user.email, password: user.password }, { remoteAddress })).statusCode,
      ).toBe(200);
    }
    expect(
      (await user.client.put('/api/auth/change-email', { newEmail: uniqueEmail(), password: 'tenth wrong one' }, { remoteAddress }))
        .statusCode,
    ).toBe(400);
    expect(
      (await user.client.put('/api/auth/change-email', { newEmail: uniqueEmail(), password: user.password }, { remoteAddress })).statusCode,
    ).toBe(429);
  });
});

describe('sign-up limit', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await buildTestApp({ SIGNUP_LIMIT_PER_HOUR: '10' });
  });
  afterAll(async () => {
    await limited.close();
  });

  it('one address can create 10 accounts an hour; the 11th answers 429 with Retry-After, and another address still can', async () => {
    const remoteAddress = nextAddress();
    const c = new TestClient(limited.app);
    for (let i = 0; i < 10; i += 1) {
      expect(
        (await c.post('/api/auth/signup', { email: uniqueEmail(), password: GOOD_PASSWORD, username: 'Sam' }, { remoteAddress }))
          .statusCode,
      ).toBe(201);
    }
    const over = await c.post('/api/auth/signup', { email: uniqueEmail(), password: GOOD_PASSWORD, username: 'Sam' }, { remoteAddress });
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ message: 'Too many sign-ups from this address. Please try again later.' });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    const elsewhere = await c.post(
      '/api/auth/signup',
      { email: uniqueEmail(), password: GOOD_PASSWORD, username: 'Sam' },
      { remoteAddress: nextAddress() },
    );
    expect(elsewhere.statusCode).toBe(201);
  });

  it('30 simultaneous sign-ups from one address create at most 10 accounts', async () => {
    const remoteAddress = nextAddress();
    const c = new TestClient(limited.app);
    const results = await Promise.all(
      Array.from({ length: 30 }, () =>
        c.post('/api/auth/signup', { email: uniqueEmail(), password: GOOD_PASSWORD, username: 'Sam' }, { remoteAddress }),
      ),
    );
    expect(statusCounts(results.map((r) => r.statusCode))).toEqual({ 201: 10, 429: 20 });
  });
});
