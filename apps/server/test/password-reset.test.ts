// A way back in (docs/decisions/0025): "Forgot password?" emails a single-use link valid 30 minutes,
// whose token is kept only hashed; the answer is the same whether or not the account exists; the
// reset follows the sign-up password rules and ends every session. A real SMTP server on loopback
// receives the emails.
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORGOT_PASSWORD_ANSWER, PASSWORD_RESET_DONE } from '@kinchart/shared/auth';
import type { TestApp } from './helpers';
import { ORIGIN, TestClient, appWithCapturedLog, buildTestApp, signedInUser, uniqueEmail } from './helpers';
import type { LoopbackSmtp, ReceivedMail } from './smtp-helpers';
import { startLoopbackSmtp, withSubject } from './smtp-helpers';
import { sha256Hex } from '../src/lib/ids';
import { loggerOptions } from '../src/plugins/logging';
import { LINK_EXPIRED, LINK_UNKNOWN, LINK_USED, RESET_LIMITED } from '../src/features/auth/password-reset.service';

const RESET_SUBJECT = 'Kinchart: reset your password';
const MAIL_FROM = 'Kinchart <kinchart@kinchart.test>';
const NEW_PASSWORD = 'a brand new kestrel';
let smtp: LoopbackSmtp;
let t: TestApp;

beforeAll(async () => {
  smtp = await startLoopbackSmtp();
  t = await buildTestApp({ SMTP_URL: smtp.url, MAIL_FROM });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

// Each test asks from its own addresses, so the per-address limit is only met where it is tested.
let addressCounter = 0;
const nextAddress = () => `10.77.${Math.floor(addressCounter / 200)}.${(addressCounter++ % 200) + 1}`;
const anon = () => new TestClient(t.app);
const forgot = (email: string, remoteAddress = nextAddress()) => anon().post('/api/auth/forgot-password', { email }, { remoteAddress });
const reset = (token: string, newPassword = NEW_PASSWORD) => anon().post('/api/auth/reset-password', { token, newPassword });

/** The link of a reset email, and its token. */
function linkIn(mail: ReceivedMail): { link: string; token: string } {
  const link = /http:\/\/\S+\/reset-password\?token=[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no reset link in: ${mail.text}`);
  return { link, token: new URL(link).searchParams.get('token') ?? '' };
}

/** The reset emails `email` has received, once there are `count` (a sign-in from a new browser sends its own email). */
const resetMails = (email: string, count: number): Promise<ReceivedMail[]> => smtp.messagesTo(email, count, withSubject(RESET_SUBJECT));

async function requestLink(email: string, count = 1): Promise<string> {
  expect((await forgot(email)).statusCode).toBe(202);
  const mails = await resetMails(email, count);
  expect(mails.length).toBeGreaterThanOrEqual(count);
  return linkIn(mails[count - 1]!).token;
}

const login = (email: string, password: string) => anon().post('/api/auth/login', { email, password }, { remoteAddress: nextAddress() });

describe('POST /api/auth/forgot-password', () => {
  it('answers 202 and the same words for an account and for an address nobody uses, and emails only the account', async () => {
    const user = await signedInUser(t.app);
    const nobody = uniqueEmail('nobody');
    const unknown = await forgot(nobody);
    const known = await forgot(user.email.toUpperCase());
    expect(unknown.statusCode).toBe(202);
    expect(known.statusCode).toBe(202);
    expect(unknown.json()).toMatchObject({ message: FORGOT_PASSWORD_ANSWER });
    expect(known.body).toBe(unknown.body);
    expect(known.headers['content-type']).toBe(unknown.headers['content-type']);

    const [mail] = await smtp.messagesTo(user.email, 1, withSubject(RESET_SUBJECT));
    expect(mail!.to).toEqual([user.email]);
    expect(mail!.from).toBe('kinchart@kinchart.test');
    expect(mail!.headers.subject).toBe('Kinchart: reset your password');
    const { link, token } = linkIn(mail!);
    expect(link).toBe(`${ORIGIN}/reset-password?token=${token}`);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits
    expect(mail!.text).toMatch(/within 30 minutes/);
    expect(mail!.text).toMatch(/still asks for it/);
    // Everything the two requests queued has reached the SMTP server.
    await t.mailSettled();
    expect(smtp.received.filter((m) => m.to.includes(nobody))).toEqual([]);
  });

  it('keeps the token only as its SHA-256 hash, valid 30 minutes', async () => {
    const user = await signedInUser(t.app);
    const before = Date.now();
    const token = await requestLink(user.email);
    const rows = await t.database.db.selectFrom('password_resets').selectAll().where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).toBe(sha256Hex(token));
    expect(JSON.stringify(rows)).not.toContain(token);
    const lifetime = Date.parse(rows[0]!.expires_at) - before;
    expect(lifetime).toBeGreaterThan(29 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(30 * 60_000 + 5_000);
  });

  it('a new request replaces the earlier link', async () => {
    const user = await signedInUser(t.app);
    const first = await requestLink(user.email, 1);
    const second = await requestLink(user.email, 2);
    expect(second).not.toBe(first);
    expect((await reset(first)).json()).toMatchObject({ message: LINK_UNKNOWN });
    expect((await reset(second)).statusCode).toBe(200);
  });

  it('cannot fill an inbox: 3 requests per email an hour, from any addresses, known or not', async () => {
    const user = await signedInUser(t.app);
    const nobody = uniqueEmail('nobody');
    for (const email of [user.email, nobody]) {
      for (let i = 0; i < 3; i += 1) expect((await forgot(email)).statusCode).toBe(202);
      const refused = await forgot(email);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ message: RESET_LIMITED });
      expect(refused.headers['retry-after']).toBe('3600');
    }
    expect(await smtp.messagesTo(user.email, 3, withSubject(RESET_SUBJECT))).toHaveLength(3);
  });

  it('cannot be walked through many emails: 10 requests per address an hour', async () => {
    const address = '10.78.0.1';
    for (let i = 0; i < 10; i += 1) expect((await forgot(uniqueEmail('walk'), address)).statusCode).toBe(202);
    const refused = await forgot(uniqueEmail('walk'), address);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ message: RESET_LIMITED });
    expect((await forgot(uniqueEmail('walk'), '10.78.0.2')).statusCode).toBe(202);
  });

  it('refuses what is not an email address', async () => {
    const res = await forgot('not an address');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'Please enter a valid email address' });
  });

  it('records the request in the audit trail, without the token', async () => {
    const user = await signedInUser(t.app);
    const token = await requestLink(user.email);
    const events = await t.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('user_id', '=', user.id)
      .where('action', '=', 'password_reset_request')
      .execute();
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]!.detail ?? '{}')).toEqual({ via: 'email' });
    expect(JSON.stringify(events)).not.toContain(token);
  });
});

describe('POST /api/auth/reset-password', () => {
  it('sets the new password once, ends every session, and the old password no longer works', async () => {
    const user = await signedInUser(t.app);
    const elsewhere = new TestClient(t.app);
    expect((await elsewhere.post('/api/auth/login', { email: user.email, password: user.password })).statusCode).toBe(200);
    const token = await requestLink(user.email);

    const done = await reset(token);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ message: PASSWORD_RESET_DONE });

    for (const client of [user.client, elsewhere]) {
      const check = await client.get('/api/auth/check-auth');
      expect(check.statusCode).toBe(401);
    }
    expect(await t.database.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    expect((await login(user.email, user.password)).statusCode).toBe(401);
    expect((await login(user.email, NEW_PASSWORD)).statusCode).toBe(200);

    const again = await reset(token, 'yet another kestrel');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ message: LINK_USED });
    expect((await login(user.email, NEW_PASSWORD)).statusCode).toBe(200);

    const events = await t.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('user_id', '=', user.id)
      .where('action', '=', 'password_reset')
      .execute();
    expect(events).toHaveLength(1);
    expect(JSON.stringify(events)).not.toContain(token);
  });

  it('keeps the second factor: after a reset, the new password still asks for the code (ASVS 6.4.3)', async () => {
    const user = await signedInUser(t.app);
    const { secret } = (await user.client.post('/api/auth/mfa/totp/setup')).json<{ secret: string }>();
    const code = (at: number) =>
      TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: at });
    expect((await user.client.post('/api/auth/mfa/totp/confirm', { code: code(Date.now()) })).statusCode).toBe(200);

    expect((await reset(await requestLink(user.email))).statusCode).toBe(200);
    const answer = await login(user.email, NEW_PASSWORD);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ mfa_required: true, methods: ['totp', 'recovery_code'] });
    // No session yet: the password alone does not sign in.
    expect(answer.headers['set-cookie']?.toString() ?? '').not.toMatch(/(^|[ ,])(__Host-)?sid=/);
    const status = await t.database.db.selectFrom('totp_factors').select('enabled_at').where('user_id', '=', user.id).executeTakeFirst();
    expect(status?.enabled_at).toEqual(expect.any(String));
  });

  it('refuses a link past its 30 minutes', async () => {
    const user = await signedInUser(t.app);
    const token = await requestLink(user.email);
    await t.database.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', user.id)
      .execute();
    const res = await reset(token);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: LINK_EXPIRED });
    expect((await login(user.email, user.password)).statusCode).toBe(200);
  });

  it('refuses a token it never made, of any shape', async () => {
    for (const token of ['A'.repeat(43), 'short', '', '../../etc/passwd']) {
      const res = await reset(token);
      expect(res.statusCode, token).toBe(404);
      expect(res.json()).toMatchObject({ message: LINK_UNKNOWN });
    }
  });

  it('holds the new password to the sign-up rules, and a refused password leaves the link usable', async () => {
    const user = await signedInUser(t.app);
    const token = await requestLink(user.email);
    const short = await reset(token, 'short');
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ message: 'Password must be at least 8 characters' });
    const long = await reset(token, 'x'.repeat(257));
    expect(long.json()).toMatchObject({ message: 'Password must be at most 256 characters' });
    const common = await reset(token, 'password123');
    expect(common.statusCode).toBe(400);
    expect(common.json()).toMatchObject({ message: 'This password is too common. Please choose a less predictable one.' });
    expect((await login(user.email, user.password)).statusCode).toBe(200);
    expect((await reset(token)).statusCode).toBe(200);
  });

  it('two resets racing with one link: exactly one sets its password', async () => {
    const user = await signedInUser(t.app);
    const token = await requestLink(user.email);
    const [a, b] = await Promise.all([reset(token, 'first racing kestrel'), reset(token, 'second racing kestrel')]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 400]);
    const winner = a.statusCode === 200 ? 'first racing kestrel' : 'second racing kestrel';
    expect((await login(user.email, winner)).statusCode).toBe(200);
  });
});

describe('GET /api/auth/reset-password (the reset page, as it opens)', () => {
  const check = (token: string) => anon().get(`/api/auth/reset-password?${new URLSearchParams({ token }).toString()}`);

  it('a person opening a used or expired link is told so before typing a new password', async () => {
    const user = await signedInUser(t.app);
    const token = await requestLink(user.email);
    const open = await check(token);
    expect(open.statusCode, open.body).toBe(200);
    expect(open.json()).toEqual({ valid: true, expires_at: expect.any(String) });
    expect(Date.parse(open.json<{ expires_at: string }>().expires_at)).toBeGreaterThan(Date.now());
    expect(open.headers['cache-control']).toContain('no-store');
    // Looking does not spend it.
    expect((await reset(token)).statusCode).toBe(200);
    const used = await check(token);
    expect(used.statusCode).toBe(400);
    expect(used.json()).toMatchObject({ message: LINK_USED });

    const other = await signedInUser(t.app);
    const late = await requestLink(other.email);
    await t.database.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', other.id)
      .execute();
    const expired = await check(late);
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toMatchObject({ message: LINK_EXPIRED });
  });

  it('a link it never made answers 404, and a missing token 400', async () => {
    for (const token of ['A'.repeat(43), 'short']) {
      const res = await check(token);
      expect(res.statusCode, token).toBe(404);
      expect(res.json()).toMatchObject({ message: LINK_UNKNOWN });
    }
    const missing = await anon().get('/api/auth/reset-password');
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ message: string }>().message).toContain('token');
  });
});

describe('the token stays out of the log', () => {
  it('neither the reset page address nor the calls write it, with the production log settings', async () => {
    const { app, log } = await appWithCapturedLog(t, loggerOptions('trace') as object);
    try {
      const user = await signedInUser(app);
      const client = new TestClient(app);
      expect((await client.post('/api/auth/forgot-password', { email: user.email }, { remoteAddress: nextAddress() })).statusCode).toBe(
        202,
      );
      const [mail] = await smtp.messagesTo(user.email, 1, withSubject(RESET_SUBJECT));
      const { token } = linkIn(mail!);
      await client.get(`/reset-password?token=${token}`);
      expect((await client.post('/api/auth/reset-password', { token, newPassword: NEW_PASSWORD })).statusCode).toBe(200);
      expect(log()).toContain('/reset-password?token=[redacted]');
      expect(log()).toContain('/api/auth/reset-password');
      expect(log()).not.toContain(token);
      expect(log()).not.toContain(sha256Hex(token));
      expect(log()).not.toContain(NEW_PASSWORD);
    } finally {
      await app.close();
    }
  });
});

describe('without SMTP_URL', () => {
  it('answers the same 202 and issues no link (the operator prints one instead)', async () => {
    const plain = await buildTestApp();
    try {
      const user = await signedInUser(plain.app);
      const res = await new TestClient(plain.app).post('/api/auth/forgot-password', { email: user.email });
      expect(res.statusCode).toBe(202);
      expect(res.json()).toMatchObject({ message: FORGOT_PASSWORD_ANSWER });
      expect(await plain.database.db.selectFrom('password_resets').select('id').execute()).toEqual([]);
    } finally {
      await plain.close();
    }
  });
});
