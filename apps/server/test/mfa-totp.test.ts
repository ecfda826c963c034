// TOTP second factor and recovery codes (DESIGN §5, docs/decisions/0026): enrolment, the second
// login step, no replay, single-use recovery codes, the shared attempt limit and the pending
// login's 5 minutes. Codes are computed here from the secret the API hands out, as an app would.
import { randomBytes } from 'node:crypto';
import { Secret, TOTP, URI } from 'otpauth';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { rotateMasterKey } from '../src/ops/rotate-master-key';
import type { TestApp } from './helpers';
import { ORIGIN, TestClient, buildTestApp, signedInUser, TEST_REMINDERS, TEST_TEXT } from './helpers';
import { TOTP_CODE_USED } from '@kinchart/shared/auth-texts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  vi.useRealTimers();
});

const STEP_MS = 30_000;

/**
 * The clock, stopped one second into a time step so the test alone decides when codes change.
 * Only Date is faked: database drivers keep their own timers.
 */
function stopClock(): { now: () => number; advance: (ms: number) => void } {
  vi.useFakeTimers({ toFake: ['Date'] });
  let now = (Math.floor(Date.now() / STEP_MS) + 1) * STEP_MS + 1_000;
  vi.setSystemTime(now);
  return {
    now: () => now,
    advance: (ms) => {
      now += ms;
      vi.setSystemTime(now);
    },
  };
}

const codeAt = (secret: string, timestamp: number) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp });

/** A code that is none of the ones valid around `timestamp`. */
function wrongCodeAt(secret: string, timestamp: number, n = 0): string {
  const valid = new Set([-1, 0, 1].map((d) => codeAt(secret, timestamp + d * STEP_MS)));
  for (let i = n; ; i += 1) {
    const code = String((123_456 + i * 7_919) % 1_000_000).padStart(6, '0');
    if (!valid.has(code)) return code;
  }
}

/** A signed-in user who has turned TOTP on; their secret and recovery codes come back. */
async function userWithTotp() {
  const user = await signedInUser(t.app);
  const setup = await user.client.post('/api/auth/mfa/totp/setup');
  expect(setup.statusCode).toBe(200);
  const { secret } = setup.json<{ secret: string }>();
  const confirm = await user.client.post('/api/auth/mfa/totp/confirm', { code: codeAt(secret, Date.now()) });
  expect(confirm.statusCode).toBe(200);
  return { ...user, secret, recoveryCodes: confirm.json<{ recovery_codes: string[] }>().recovery_codes };
}

/** Password step from a fresh browser: the pending-login marker is the client's only cookie. */
async function passwordStep(email: string, password: string, extra: { remoteAddress?: string } = {}) {
  const client = new TestClient(t.app);
  const res = await client.post('/api/auth/login', { email, password }, extra);
  return { client, res };
}

const audits = async (userId: string, action: string) =>
  t.database.db
    .selectFrom('audit_events')
    .select(['action', 'detail'])
    .where('user_id', '=', userId)
    .where('action', '=', action)
    .execute();

describe('enrolment', () => {
  it('a user sets up TOTP: a base32 secret and an otpauth URL for Kinchart and their email, stored sealed, on only after a right code', async () => {
    stopClock();
    const user = await signedInUser(t.app);
    expect((await user.client.get('/api/auth/mfa')).json()).toEqual({ totp: false, passkeys: [], recovery_codes_left: 0 });

    const setup = await user.client.post('/api/auth/mfa/totp/setup');
    expect(setup.statusCode).toBe(200);
    const { secret, otpauth_url } = setup.json<{ secret: string; otpauth_url: string }>();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const parsed = URI.parse(otpauth_url);
    expect(parsed).toBeInstanceOf(TOTP);
    expect(parsed).toMatchObject({ issuer: 'Kinchart', label: user.email, algorithm: 'SHA1', digits: 6, period: 30 });
    expect(parsed.secret.base32).toBe(secret);

    // At rest the secret is sealed: neither its base32 nor its bytes appear in the row.
    const row = await t.database.db.selectFrom('totp_factors').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.enabled_at).toBeNull();
    const raw = Buffer.from(Secret.fromBase32(secret).buffer);
    for (const column of [row.secret_sealed, row.wrapped_key]) {
      expect(column).not.toContain(secret);
      expect(Buffer.from(column, 'base64').includes(raw)).toBe(false);
    }
    // Still off until confirmed.
    expect((await user.client.get('/api/auth/mfa')).json()).toMatchObject({ totp: false });

    const wrong = await user.client.post('/api/auth/mfa/totp/confirm', { code: wrongCodeAt(secret, Date.now()) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toMatch(/did not match/);
    const malformed = await user.client.post('/api/auth/mfa/totp/confirm', { code: '12ab56' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ message: 'Enter the 6-digit code from your authenticator app' });

    const confirm = await user.client.post('/api/auth/mfa/totp/confirm', { code: codeAt(secret, Date.now()) });
    expect(confirm.statusCode).toBe(200);
    const codes = confirm.json<{ recovery_codes: string[] }>().recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    expect((await user.client.get('/api/auth/mfa')).json()).toEqual({ totp: true, passkeys: [], recovery_codes_left: 10 });

    // Codes are stored hashed only, and the audit trail says what happened without any secret.
    const stored = await t.database.db.selectFrom('recovery_codes').select('code_hash').where('user_id', '=', user.id).execute();
    expect(stored).toHaveLength(10);
    for (const { code_hash } of stored) {
      expect(code_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(codes.some((code) => code_hash.includes(code.replace(/-/g, '')))).toBe(false);
    }
    const enabled = await audits(user.id, 'mfa_totp_enable');
    expect(enabled).toHaveLength(1);
    expect(JSON.stringify(enabled)).not.toContain(secret);

    // Set-up again while on: refused, the factor in use stays.
    const again = await user.client.post('/api/auth/mfa/totp/setup');
    expect(again.statusCode).toBe(409);
    expect((await user.client.get('/api/auth/mfa')).json()).toMatchObject({ totp: true });
  });

  it('a new set-up replaces one still waiting for its code', async () => {
    stopClock();
    const user = await signedInUser(t.app);
    const first = (await user.client.post('/api/auth/mfa/totp/setup')).json<{ secret: string }>().secret;
    const second = (await user.client.post('/api/auth/mfa/totp/setup')).json<{ secret: string }>().secret;
    expect(second).not.toBe(first);
    expect(await t.database.db.selectFrom('totp_factors').select('id').where('user_id', '=', user.id).execute()).toHaveLength(1);
    expect((await user.client.post('/api/auth/mfa/totp/confirm', { code: codeAt(first, Date.now()) })).statusCode).toBe(400);
    expect((await user.client.post('/api/auth/mfa/totp/confirm', { code: codeAt(second, Date.now()) })).statusCode).toBe(200);
  });

  it('confirming without a set-up, or asking for recovery codes with TOTP off, is refused', async () => {
    const user = await signedInUser(t.app);
    const confirm = await user.client.post('/api/auth/mfa/totp/confirm', { code: '123456' });
    expect(confirm.statusCode).toBe(400);
    expect(confirm.json().message).toMatch(/Start the set-up again/);
    const codes = await user.client.post('/api/auth/mfa/recovery-codes');
    expect(codes.statusCode).toBe(409);
    expect((await user.client.get('/api/auth/mfa')).json()).toEqual({ totp: false, passkeys: [], recovery_codes_left: 0 });
  });
});

describe('login with TOTP on', () => {
  it('the right password sets no session, only a pending-login marker; the code then signs in like a normal login', async () => {
    const clock = stopClock();
    const user = await userWithTotp();
    clock.advance(STEP_MS);
    const sessionsBefore = await t.database.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute();

    const { client, res } = await passwordStep(user.email, user.password);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ mfa_required: true, methods: ['totp', 'recovery_code'] });
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/^mfa=/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/Max-Age=300/);
    expect(setCookie).not.toMatch(/sid=/);
    // The marker is no session.
    expect((await client.get('/api/auth/check-auth')).statusCode).toBe(401);
    expect(await t.database.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).toHaveLength(
      sessionsBefore.length,
    );
    // Stored by hash only, bound to the user.
    const token = client.cookie?.split('=')[1] ?? '';
    const pending = await t.database.db.selectFrom('pending_logins').selectAll().where('user_id', '=', user.id).execute();
    expect(pending).toHaveLength(1);
    expect(pending[0]!.id).not.toBe(token);

    const done = await client.post('/api/auth/login/mfa', { code: codeAt(user.secret, clock.now()) });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ message: 'Login successful.', user: { id: user.id, username: user.username, email: user.email } });
    const cookies = ([] as string[]).concat(done.headers['set-cookie'] ?? []);
    expect(cookies.some((c) => /^mfa=;/.test(c))).toBe(true);
    expect(cookies.some((c) => /^sid=[^;]+; Max-Age=43200; Path=\/; HttpOnly; SameSite=Lax/.test(c))).toBe(true);
    expect((await client.get('/api/auth/check-auth')).json()).toMatchObject({ authenticated: true, user: { id: user.id } });
    expect(await t.database.db.selectFrom('pending_logins').select('id').where('user_id', '=', user.id).execute()).toHaveLength(0);
    const logins = await audits(user.id, 'login');
    expect(logins.at(-1)?.detail).toBe(JSON.stringify({ second_factor: 'totp' }));
  });

  it('a code is accepted once: the same code, or an older one, is refused at the next login with words saying to wait for the next; a newer one works', async () => {
    const clock = stopClock();
    const user = await userWithTotp();
    // The code that confirmed the set-up was spent turning TOTP on: it cannot sign in.
    const early = await passwordStep(user.email, user.password);
    expect((await early.client.post('/api/auth/login/mfa', { code: codeAt(user.secret, clock.now()) })).statusCode).toBe(401);

    clock.advance(STEP_MS);
    const code = codeAt(user.secret, clock.now());
    const first = await passwordStep(user.email, user.password);
    expect((await first.client.post('/api/auth/login/mfa', { code })).statusCode).toBe(200);

    const replay = await passwordStep(user.email, user.password);
    const replayed = await replay.client.post('/api/auth/login/mfa', { code });
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json()).toMatchObject({ message: TOTP_CODE_USED });
    expect((await replay.client.get('/api/auth/check-auth')).statusCode).toBe(401);
    // Still inside the window, the previous step's code is older than the one used: refused too.
    const older = await replay.client.post('/api/auth/login/mfa', { code: codeAt(user.secret, clock.now() - STEP_MS) });
    expect(older.statusCode).toBe(401);
    expect(older.json()).toMatchObject({ message: TOTP_CODE_USED });
    // A code that matches no step is still just wrong.
    const wrong = await replay.client.post('/api/auth/login/mfa', { code: codeAt(user.secret, clock.now() + 10 * STEP_MS) });
    expect(wrong.json()).toMatchObject({ message: 'Invalid authentication code' });

    clock.advance(STEP_MS);
    const newer = await replay.client.post('/api/auth/login/mfa', { code: codeAt(user.secret, clock.now()) });
    expect(newer.statusCode).toBe(200);
  });

  it('two logins racing with one code get one session', async () => {
    const clock = stopClock();
    const user = await userWithTotp();
    clock.advance(STEP_MS);
    const code = codeAt(user.secret, clock.now());
    const a = await passwordStep(user.email, user.password);
    const b = await passwordStep(user.email, user.password);
    const answers = await Promise.all([a.client.post('/api/auth/login/mfa', { code }), b.client.post('/api/auth/login/mfa', { code })]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  });

  it('a recovery code signs in once, however it is typed, and the count goes down', async () => {
    stopClock();
    const user = await userWithTotp();
    const [code] = user.recoveryCodes;
    const typed = ` ${code!.toUpperCase().replace(/-/g, ' ')} `;

    const first = await passwordStep(user.email, user.password);
    const done = await first.client.post('/api/auth/login/mfa', { recovery_code: typed });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ message: 'Login successful.', user: { id: user.id } });
    expect((await first.client.get('/api/auth/mfa')).json()).toEqual({ totp: true, passkeys: [], recovery_codes_left: 9 });
    const used = await audits(user.id, 'mfa_recovery_code_use');
    expect(used.map((a) => a.detail)).toEqual([JSON.stringify({ left: 9 })]);
    expect((await audits(user.id, 'login')).at(-1)?.detail).toBe(JSON.stringify({ second_factor: 'recovery_code' }));

    const again = await passwordStep(user.email, user.password);
    const reused = await again.client.post('/api/auth/login/mfa', { recovery_code: code });
    expect(reused.statusCode).toBe(401);
    expect(reused.json()).toMatchObject({ message: 'Invalid recovery code' });
    const nonsense = await again.client.post('/api/auth/login/mfa', { recovery_code: 'not-a-real-code' });
    expect(nonsense.statusCode).toBe(401);
    expect((await again.client.post('/api/auth/login/mfa', { recovery_code: user.recoveryCodes[1] })).statusCode).toBe(200);
    expect((await again.client.get('/api/auth/mfa')).json()).toMatchObject({ recovery_codes_left: 8 });
  });

  it('a new set of recovery codes ends the old set', async () => {
    stopClock();
    const user = await userWithTotp();
    const res = await user.client.post('/api/auth/mfa/recovery-codes');
    expect(res.statusCode).toBe(200);
    const fresh = res.json<{ recovery_codes: string[] }>().recovery_codes;
    expect(fresh).toHaveLength(10);
    expect(fresh.some((code) => user.recoveryCodes.includes(code))).toBe(false);
    expect((await user.client.get('/api/auth/mfa')).json()).toMatchObject({ recovery_codes_left: 10 });
    expect(await audits(user.id, 'mfa_recovery_codes_new')).toHaveLength(1);

    const login = await passwordStep(user.email, user.password);
    expect((await login.client.post('/api/auth/login/mfa', { recovery_code: user.recoveryCodes[0] })).statusCode).toBe(401);
    expect((await login.client.post('/api/auth/login/mfa', { recovery_code: fresh[0] })).statusCode).toBe(200);
  });

  it('wrong codes count with wrong passwords: 10 failures in all, and the next try answers 429 even with the right code; a right password resets nothing', async () => {
    const clock = stopClock();
    const user = await userWithTotp();
    clock.advance(STEP_MS);
    const address = { remoteAddress: '10.20.30.40' };

    // Two wrong passwords, then wrong codes around a second right password.
    const c = new TestClient(t.app);
    for (let i = 0; i < 2; i += 1)
      expect((await c.post('/api/auth/login', { email: user.email, password: `wrong-${i}-password` }, address)).statusCode).toBe(401);
    let step = await passwordStep(user.email, user.password, address);
    for (let i = 0; i < 4; i += 1) {
      expect((await step.client.post('/api/auth/login/mfa', { code: wrongCodeAt(user.secret, clock.now(), i) }, address)).statusCode).toBe(
        401,
      );
    }
    step = await passwordStep(user.email, user.password, address);
    expect(step.res.statusCode).toBe(200);
    for (let i = 4; i < 7; i += 1) {
      expect((await step.client.post('/api/auth/login/mfa', { code: wrongCodeAt(user.secret, clock.now(), i) }, address)).statusCode).toBe(
        401,
      );
    }
    expect((await step.client.post('/api/auth/login/mfa', { recovery_code: 'aaaa-bbbb-cccc' }, address)).statusCode).toBe(401);

    const limited = await step.client.post('/api/auth/login/mfa', { code: codeAt(user.secret, clock.now()) }, address);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/Too many failed login attempts/);
    expect(limited.headers['retry-after']).toBe('900');
    expect((await passwordStep(user.email, user.password, address)).res.statusCode).toBe(429);
    // Per account and address, as for passwords: the owner elsewhere still gets in.
    const elsewhere = await passwordStep(user.email, user.password, { remoteAddress: '10.9.8.7' });
    expect(
      (await elsewhere.client.post('/api/auth/login/mfa', { code: codeAt(user.secret, clock.now()) }, { remoteAddress: '10.9.8.7' }))
        .statusCode,
    ).toBe(200);
  });

  it('a successful second step gives back only its own reservation: the wrong codes before it keep counting', async () => {
    const clock = stopClock();
    const user = await userWithTotp();
    clock.advance(STEP_MS);
    const address = { remoteAddress: '10.20.30.41' };
    const step = await passwordStep(user.email, user.password, address);
    for (let i = 0; i < 9; i += 1)
      await step.client.post('/api/auth/login/mfa', { code: wrongCodeAt(user.secret, clock.now(), i) }, address);
    expect((await step.client.post('/api/auth/login/mfa', { code: codeAt(user.secret, clock.now()) }, address)).statusCode).toBe(200);
    const failures = await t.database.db
      .selectFrom('login_failures')
      .select('id')
      .where('email', '=', user.email)
      .where('ip', '=', address.remoteAddress)
      .execute();
    expect(failures).toHaveLength(9);
  });

  it('wrong codes from 20 addresses in one pending login stop at 10 for the account: the sign-in starts over at the password and the owner is told', async () => {
    const clock = stopClock();
    const user = await userWithTotp();
    clock.advance(STEP_MS);
    const step = await passwordStep(user.email, user.password, { remoteAddress: '10.21.0.1' });
    const answers: { status: number; body: { message: string; error?: string } }[] = [];
    for (let a = 0; a < 20; a += 1) {
      for (let i = 0; i < 10; i += 1) {
        const res = await step.client.post(
          '/api/auth/login/mfa',
          { code: wrongCodeAt(user.secret, clock.now(), a * 10 + i) },
          { remoteAddress: `10.21.${a}.2` },
        );
        answers.push({ status: res.statusCode, body: res.json() });
      }
    }
    expect(answers.slice(0, 9).every((a) => a.status === 401 && a.body.message === 'Invalid authentication code')).toBe(true);
    expect(answers[9]).toMatchObject({
      status: 429,
      body: { message: 'Too many wrong codes. For your safety, sign in again with your password in 15 minutes.' },
    });
    // The pending login is over: every later try is told to start again, and no code is checked.
    expect(answers.slice(10).every((a) => a.status === 401 && a.body.error === 'login_expired')).toBe(true);
    const checked = await t.database.db.selectFrom('login_failures').select('id').where('email', '=', user.email).execute();
    expect(checked).toHaveLength(10);

    // A new password step from yet another address gets no more code checks, not even for the right code.
    const again = await passwordStep(user.email, user.password, { remoteAddress: '10.22.0.1' });
    expect(again.res.statusCode).toBe(200);
    const right = await again.client.post(
      '/api/auth/login/mfa',
      { code: codeAt(user.secret, clock.now()) },
      { remoteAddress: '10.22.0.1' },
    );
    expect(right.statusCode).toBe(429);
    expect(String(right.headers['set-cookie'])).toMatch(/^mfa=;/);

    // The owner hears of it, once.
    const notes = (await user.client.get('/api/user/notifications')).json<{ title: string; level: string; data: { message: string } }[]>();
    const told = notes.filter((n) => n.title === 'Sign-in stopped');
    expect(told).toHaveLength(1);
    expect(told[0]?.level).toBe('warning');
    expect(told[0]?.data.message).toMatch(/right password/);
  });

  it('the pending login lasts 5 minutes: later, even the right code answers 401 and the marker is cleared', async () => {
    const clock = stopClock();
    const user = await userWithTotp();
    const { client } = await passwordStep(user.email, user.password);
    clock.advance(5 * 60_000 + 1_000);
    const late = await client.post('/api/auth/login/mfa', { code: codeAt(user.secret, clock.now()) });
    expect(late.statusCode).toBe(401);
    expect(late.json()).toMatchObject({ message: 'Your sign-in has expired. Please log in again.', error: 'login_expired' });
    expect(String(late.headers['set-cookie'])).toMatch(/^mfa=;/);
    expect(await t.database.db.selectFrom('pending_logins').select('id').where('user_id', '=', user.id).execute()).toHaveLength(0);

    // Within 5 minutes it works.
    const onTime = await passwordStep(user.email, user.password);
    clock.advance(4 * 60_000 + 50_000);
    expect((await onTime.client.post('/api/auth/login/mfa', { code: codeAt(user.secret, clock.now()) })).statusCode).toBe(200);
  });

  it('the second step without a marker, with a made-up one, or with a malformed body is refused', async () => {
    const anon = new TestClient(t.app);
    const none = await anon.post('/api/auth/login/mfa', { code: '123456' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ message: 'Your sign-in has expired. Please log in again.', error: 'login_expired' });
    anon.cookie = `mfa=${randomBytes(32).toString('base64url')}`;
    expect((await anon.post('/api/auth/login/mfa', { code: '123456' })).statusCode).toBe(401);
    const both = await anon.post('/api/auth/login/mfa', { code: '123456', recovery_code: 'abcd-efgh-ijkm' });
    expect(both.statusCode).toBe(400);
    expect(both.json()).toMatchObject({ message: 'Enter a code from your authenticator app or a recovery code' });
    expect((await anon.post('/api/auth/login/mfa', {})).statusCode).toBe(400);
    expect((await anon.post('/api/auth/login/mfa', { code: '12345' })).statusCode).toBe(400);
  });

  it('a CSRF-less second step is refused like any write', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login/mfa',
      payload: { code: '123456' },
      headers: { origin: 'https://evil.example' },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('turning TOTP off', () => {
  it('a user turns TOTP off: the factor and recovery codes go, and the password alone signs in again', async () => {
    stopClock();
    const user = await userWithTotp();
    const off = await user.client.delete('/api/auth/mfa/totp');
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ message: 'Two-factor authentication is off' });
    expect((await user.client.get('/api/auth/mfa')).json()).toEqual({ totp: false, passkeys: [], recovery_codes_left: 0 });
    expect(await t.database.db.selectFrom('recovery_codes').select('id').where('user_id', '=', user.id).execute()).toHaveLength(0);
    expect(await t.database.db.selectFrom('totp_factors').select('id').where('user_id', '=', user.id).execute()).toHaveLength(0);
    expect(await audits(user.id, 'mfa_totp_disable')).toHaveLength(1);

    const login = await passwordStep(user.email, user.password);
    expect(login.res.json()).toMatchObject({ message: 'Login successful.', user: { id: user.id } });
    expect(String(login.res.headers['set-cookie'])).toMatch(/^sid=/);
    // Off twice is still off, and records nothing new.
    expect((await user.client.delete('/api/auth/mfa/totp')).statusCode).toBe(200);
    expect(await audits(user.id, 'mfa_totp_disable')).toHaveLength(1);
  });
});

describe('accounts without TOTP', () => {
  it('log in exactly as before, also with a set-up that was never confirmed', async () => {
    const user = await signedInUser(t.app);
    expect((await user.client.post('/api/auth/mfa/totp/setup')).statusCode).toBe(200);
    const login = await passwordStep(user.email, user.password);
    expect(login.res.statusCode).toBe(200);
    expect(login.res.json()).toMatchObject({
      message: 'Login successful.',
      user: { id: user.id, username: user.username, email: user.email },
    });
    expect(String(login.res.headers['set-cookie'])).toMatch(/^sid=/);
    expect(await t.database.db.selectFrom('pending_logins').select('id').where('user_id', '=', user.id).execute()).toHaveLength(0);
    expect((await audits(user.id, 'login')).at(-1)?.detail).toBeNull();
  });
});

describe('the TOTP secret at rest', () => {
  it('is re-wrapped by a master key rotation and still checks codes under the new key', async () => {
    const own = await buildTestApp();
    try {
      const clock = stopClock();
      const user = await signedInUser(own.app);
      const { secret } = (await user.client.post('/api/auth/mfa/totp/setup')).json<{ secret: string }>();
      expect((await user.client.post('/api/auth/mfa/totp/confirm', { code: codeAt(secret, clock.now()) })).statusCode).toBe(200);
      const before = await own.database.db.selectFrom('totp_factors').select(['wrapped_key', 'secret_sealed']).executeTakeFirstOrThrow();

      const newKey = randomBytes(32);
      expect(await rotateMasterKey({ db: own.database.db, oldKey: Buffer.alloc(32, 7), newKey })).toEqual({ rewrapped: 1, alreadyNew: 0 });
      const after = await own.database.db.selectFrom('totp_factors').select(['wrapped_key', 'secret_sealed']).executeTakeFirstOrThrow();
      expect(after.wrapped_key).not.toBe(before.wrapped_key);
      expect(after.secret_sealed).toBe(before.secret_sealed);

      const config = loadConfig({
        DATA_DIR: own.dataDir,
        PUBLIC_URL: ORIGIN,
        RATE_LIMIT_PER_MIN: '0',
        LOG_LEVEL: 'silent',
        MASTER_KEY: newKey.toString('base64'),
      });
      const rotated = await buildApp({ config, database: own.database, webRoot: null, reminders: TEST_REMINDERS, text: TEST_TEXT });
      try {
        const client = new TestClient(rotated);
        expect((await client.post('/api/auth/login', { email: user.email, password: user.password })).json()).toMatchObject({
          mfa_required: true,
        });
        clock.advance(STEP_MS);
        expect((await client.post('/api/auth/login/mfa', { code: codeAt(secret, clock.now()) })).statusCode).toBe(200);
      } finally {
        await rotated.close();
      }
    } finally {
      await own.close();
    }
  });
});
