import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { TestClient, buildTestApp, signedInUser } from './helpers';

// DESIGN §5: 10 failures per account and address in 15 minutes, plus a ceiling per account across
// addresses (IPv6 counted by /64). Attempts are reserved before the hash is checked, and a success
// gives back only its own reservation.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const statusCounts = (codes: number[]) => codes.reduce<Record<number, number>>((acc, c) => ({ ...acc, [c]: (acc[c] ?? 0) + 1 }), {});
let addressCounter = 0;
const nextAddress = () => {
  addressCounter += 1;
  return `10.88.${Math.floor(addressCounter / 250)}.${addressCounter % 250}`;
};

describe('the per-account ceiling across addresses', () => {
  it('a guesser spread over 8 addresses gets 30 passwords checked for one account, not 80', async () => {
    const { email, password } = await signedInUser(t.app);
    const c = new TestClient(t.app);
    const statuses: number[] = [];
    for (let a = 0; a < 8; a += 1) {
      const remoteAddress = nextAddress();
      for (let i = 0; i < 10; i += 1)
        statuses.push((await c.post('/api/auth/login', { email, password: `wrong-${a}-${i}-password` }, { remoteAddress })).statusCode);
    }
    expect(statusCounts(statuses)).toEqual({ 401: 30, 429: 50 });
    // The password is not checked from a fresh address either, while the ceiling holds.
    const fresh = await c.post('/api/auth/login', { email, password }, { remoteAddress: nextAddress() });
    expect(fresh.statusCode).toBe(429);
    expect(fresh.headers['retry-after']).toBe('900');
  });

  it('parallel guesses from many addresses stop at the same ceiling', async () => {
    const { email } = await signedInUser(t.app);
    const c = new TestClient(t.app);
    const addresses = Array.from({ length: 10 }, nextAddress);
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        c.post('/api/auth/login', { email, password: `wrong-${i}-password` }, { remoteAddress: addresses[i % 10] }),
      ),
    );
    expect(statusCounts(results.map((r) => r.statusCode))).toEqual({ 401: 30, 429: 30 });
  });

  it('IPv6 addresses of one /64 are one address: the 11th wrong password from the same network answers 429', async () => {
    const { email, password } = await signedInUser(t.app);
    const c = new TestClient(t.app);
    for (let i = 0; i < 10; i += 1) {
      const res = await c.post(
        '/api/auth/login',
        { email, password: `wrong-${i}-password` },
        { remoteAddress: `2001:db8:7:42::${(i + 1).toString(16)}` },
      );
      expect(res.statusCode).toBe(401);
    }
    expect((await c.post('/api/auth/login', { email, password }, { remoteAddress: '2001:db8:7:42:ffff:1:2:3' })).statusCode).toBe(429);
    expect((await c.post('/api/auth/login', { email, password }, { remoteAddress: '2001:0db8:0007:0042::beef' })).statusCode).toBe(429);
    // Another /64 is another address.
    expect((await c.post('/api/auth/login', { email, password }, { remoteAddress: '2001:db8:7:43::1' })).statusCode).toBe(200);
  });
});

describe('a success gives back only its own reservation', () => {
  it('a right password after 9 wrong ones leaves those 9 counting: one more wrong password, then 429', async () => {
    const { email, password } = await signedInUser(t.app);
    const remoteAddress = nextAddress();
    const c = new TestClient(t.app);
    for (let i = 0; i < 9; i += 1)
      expect((await c.post('/api/auth/login', { email, password: `wrong-${i}-password` }, { remoteAddress })).statusCode).toBe(401);
    expect((await c.post('/api/auth/login', { email, password }, { remoteAddress })).statusCode).toBe(200);
    expect((await c.post('/api/auth/login', { email, password: 'tenth wrong password' }, { remoteAddress })).statusCode).toBe(401);
    expect((await c.post('/api/auth/login', { email, password: 'eleventh wrong password' }, { remoteAddress })).statusCode).toBe(429);
  });

  it('a right password racing 59 wrong ones does not let more than 10 wrong ones be checked', async () => {
    const { email, password } = await signedInUser(t.app);
    const remoteAddress = nextAddress();
    const c = new TestClient(t.app);
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        c.post('/api/auth/login', { email, password: i === 3 ? password : `wrong-${i}-password` }, { remoteAddress }),
      ),
    );
    const counts = statusCounts(results.map((r) => r.statusCode));
    expect(counts[401] ?? 0).toBeLessThanOrEqual(10);
    // Every wrong password that was checked still counts: the success cleared none of them.
    const failures = await t.database.db.selectFrom('login_failures').select('id').where('email', '=', email).execute();
    expect(failures).toHaveLength(counts[401] ?? 0);
  });
});

describe('signing in where a session is open', () => {
  it('a login in a browser that already holds a session ends that session', async () => {
    const first = await signedInUser(t.app);
    const oldCookie = first.client.cookie;
    const other = await signedInUser(t.app);
    // The same browser signs in as someone else: the first account's session is over on the server.
    const again = await first.client.post('/api/auth/login', { email: other.email, password: other.password });
    expect(again.statusCode).toBe(200);
    expect(first.client.cookie).not.toBe(oldCookie);
    const stale = new TestClient(t.app);
    stale.cookie = oldCookie;
    expect((await stale.get('/api/auth/check-auth')).statusCode).toBe(401);
    const rows = await t.database.db.selectFrom('sessions').select('id').where('user_id', '=', first.id).execute();
    expect(rows).toEqual([]);
  });

  it('a wrong password in a browser holding a session leaves that session alone', async () => {
    const user = await signedInUser(t.app);
    expect((await user.client.post('/api/auth/login', { email: user.email, password: 'not the password' })).statusCode).toBe(401);
    expect((await user.client.get('/api/auth/check-auth')).statusCode).toBe(200);
  });
});
