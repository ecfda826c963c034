// An email is proven by a link (DESIGN §5, docs/decisions/0030): a password sign-up gets a
// single-use link by email (never in the way of signing in), a changed email is unproven again and
// the old address is told, and a taken address on change-email spends the re-confirmation budget.
// A real SMTP server on loopback receives the emails.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_VERIFIED } from '@kinchart/shared/auth';
import type { TestApp } from './helpers';
import { GOOD_PASSWORD, TestClient, buildTestApp, signedInUser, uniqueEmail } from './helpers';
import type { LoopbackSmtp, ReceivedMail } from './smtp-helpers';
import { startLoopbackSmtp, withSubject } from './smtp-helpers';
import { sha256Hex } from '../src/lib/ids';
import {
  EMAIL_CHANGED_SUBJECT,
  VERIFY_EMAIL_OFF,
  VERIFY_LIMITED,
  VERIFY_LINK_EXPIRED,
  VERIFY_LINK_STALE,
  VERIFY_LINK_UNKNOWN,
  VERIFY_LINK_USED,
  VERIFY_SUBJECT,
} from '../src/features/auth/email-verification.service';

let smtp: LoopbackSmtp;
let t: TestApp;

beforeAll(async () => {
  smtp = await startLoopbackSmtp();
  t = await buildTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Kinchart <kinchart@kinchart.test>' });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

let addressCounter = 0;
const nextAddress = () => `10.88.${Math.floor(addressCounter / 200)}.${(addressCounter++ % 200) + 1}`;

/** The emails with `subject` that `email` has received, once there are `count`. */
const mailsTo = (email: string, subject: string, count: number): Promise<ReceivedMail[]> =>
  smtp.messagesTo(email, count, withSubject(subject));

/** The token of the `count`-th confirmation email `email` received. */
async function verifyToken(email: string, count = 1): Promise<string> {
  const mails = await mailsTo(email, VERIFY_SUBJECT, count);
  expect(mails.length).toBeGreaterThanOrEqual(count);
  const link = /http:\/\/\S+\/verify-email\?token=[A-Za-z0-9_-]+/.exec(mails[count - 1]!.text)?.[0];
  if (!link) throw new Error(`no confirmation link in: ${mails[count - 1]!.text}`);
  return new URL(link).searchParams.get('token') ?? '';
}

const verify = (token: unknown) => new TestClient(t.app).post('/api/auth/verify-email', { token });
const status = (client: TestClient) => client.get('/api/auth/email-verification');
const verifiedAt = async (id: string) =>
  (await t.database.db.selectFrom('users').select('email_verified_at').where('id', '=', id).executeTakeFirstOrThrow()).email_verified_at;

describe('confirming the email of a password sign-up', () => {
  it('a new account gets a link by email; following it proves the email, once', async () => {
    const user = await signedInUser(t.app);
    // Signing in does not wait for the confirmation.
    expect((await status(user.client)).json()).toEqual({ email: user.email, verified: false, can_send: true });
    const token = await verifyToken(user.email);
    // Only its SHA-256 is kept, and it ends in a day.
    const row = await t.database.db.selectFrom('email_verifications').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(sha256Hex(token));
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(24 * 3_600_000);
    expect(JSON.stringify(row)).not.toContain(token);

    const res = await verify(token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: EMAIL_VERIFIED });
    expect(await verifiedAt(user.id)).not.toBeNull();
    expect((await status(user.client)).json()).toMatchObject({ verified: true });
    const again = await verify(token);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ message: VERIFY_LINK_USED });
  });

  it('a link nobody made answers 404, an expired one 400, and a malformed body 400 naming the field', async () => {
    expect((await verify('x'.repeat(43))).json()).toMatchObject({ message: VERIFY_LINK_UNKNOWN });
    expect((await verify('x'.repeat(43))).statusCode).toBe(404);
    expect((await verify('short')).statusCode).toBe(404);
    const bad = await verify(42);
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain('token');

    const user = await signedInUser(t.app);
    const token = await verifyToken(user.email);
    await t.database.db
      .updateTable('email_verifications')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('token_hash', '=', sha256Hex(token))
      .execute();
    const expired = await verify(token);
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toMatchObject({ message: VERIFY_LINK_EXPIRED });
    expect(await verifiedAt(user.id)).toBeNull();
  });

  it('a user asks for a new link: 3 links an hour per account, then 429; a confirmed email is not sent another', async () => {
    const user = await signedInUser(t.app);
    await verifyToken(user.email);
    for (const n of [2, 3]) {
      const res = await user.client.post('/api/auth/email-verification');
      expect(res.statusCode).toBe(202);
      await verifyToken(user.email, n);
    }
    const limited = await user.client.post('/api/auth/email-verification');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ message: VERIFY_LIMITED });
    // Every link sent still works (each for this address), and one is enough.
    expect((await verify(await verifyToken(user.email, 2))).statusCode).toBe(200);
    const done = await user.client.post('/api/auth/email-verification');
    expect(done.statusCode).toBe(409);
  });

  it('without a session, the status and a new link answer 401', async () => {
    const anon = new TestClient(t.app);
    expect((await anon.get('/api/auth/email-verification')).statusCode).toBe(401);
    expect((await anon.post('/api/auth/email-verification')).statusCode).toBe(401);
  });

  it('following a password reset link proves the email too', async () => {
    const user = await signedInUser(t.app);
    expect(
      (await new TestClient(t.app).post('/api/auth/forgot-password', { email: user.email }, { remoteAddress: nextAddress() })).statusCode,
    ).toBe(202);
    const [mail] = await mailsTo(user.email, 'Kinchart: reset your password', 1);
    const token = new URL(/http:\/\/\S+\/reset-password\?token=[A-Za-z0-9_-]+/.exec(mail!.text)![0]).searchParams.get('token');
    expect((await new TestClient(t.app).post('/api/auth/reset-password', { token, newPassword: 'a brand new kestrel' })).statusCode).toBe(
      200,
    );
    expect(await verifiedAt(user.id)).not.toBeNull();
  });
});

describe('changing the email', () => {
  it('the new email is unproven until its own link is followed; the old address is told, and an older link does not prove the new address', async () => {
    const user = await signedInUser(t.app);
    const oldToken = await verifyToken(user.email);
    expect((await verify(oldToken)).statusCode).toBe(200);
    expect((await user.client.post('/api/auth/email-verification')).statusCode).toBe(409);

    const newEmail = uniqueEmail('moved');
    const res = await user.client.put('/api/auth/change-email', { newEmail, password: user.password });
    expect(res.statusCode, res.body).toBe(200);
    expect(await verifiedAt(user.id)).toBeNull();
    expect((await status(user.client)).json()).toEqual({ email: newEmail, verified: false, can_send: true });

    const [told] = await mailsTo(user.email, EMAIL_CHANGED_SUBJECT, 1);
    expect(told?.text).toContain('changed');
    // Enough to recognise it, not the whole new address.
    expect(told?.text).not.toContain(newEmail);
    expect(told?.text).toContain(newEmail.slice(newEmail.indexOf('@')));

    const newToken = await verifyToken(newEmail);
    expect((await verify(newToken)).statusCode).toBe(200);
    expect(await verifiedAt(user.id)).not.toBeNull();
  });

  it('a link sent to the old address does not prove the new one', async () => {
    const user = await signedInUser(t.app);
    const oldToken = await verifyToken(user.email);
    const newEmail = uniqueEmail('moved');
    expect((await user.client.put('/api/auth/change-email', { newEmail, password: user.password })).statusCode).toBe(200);
    const stale = await verify(oldToken);
    expect(stale.statusCode).toBe(400);
    expect(stale.json()).toMatchObject({ message: VERIFY_LINK_STALE });
    expect(await verifiedAt(user.id)).toBeNull();
  });

  it('a taken address counts against the re-confirmation budget: 10 in 15 minutes, then 429 and the session ends', async () => {
    const user = await signedInUser(t.app);
    const taken = await signedInUser(t.app);
    const remoteAddress = nextAddress();
    for (let i = 0; i < 10; i += 1) {
      const res = await user.client.put('/api/auth/change-email', { newEmail: taken.email, password: user.password }, { remoteAddress });
      expect(res.statusCode).toBe(409);
    }
    const refused = await user.client.put(
      '/api/auth/change-email',
      { newEmail: uniqueEmail('free'), password: user.password },
      { remoteAddress },
    );
    expect(refused.statusCode).toBe(429);
    expect((await user.client.get('/api/auth/check-auth')).statusCode).toBe(401);
  });

  it('the same address again leaves the email proven and makes no new link', async () => {
    const user = await signedInUser(t.app);
    expect((await verify(await verifyToken(user.email))).statusCode).toBe(200);
    expect((await user.client.put('/api/auth/change-email', { newEmail: user.email, password: GOOD_PASSWORD })).statusCode).toBe(200);
    expect(await verifiedAt(user.id)).not.toBeNull();
    expect(await t.database.db.selectFrom('email_verifications').select('id').where('user_id', '=', user.id).execute()).toHaveLength(1);
  });
});

describe('without SMTP_URL', () => {
  it('signing up makes no link, and asking for one says the server cannot send email', async () => {
    const quiet = await buildTestApp();
    try {
      const user = await signedInUser(quiet.app);
      expect((await status(user.client)).json()).toEqual({ email: user.email, verified: false, can_send: false });
      expect(await quiet.database.db.selectFrom('email_verifications').select('id').execute()).toEqual([]);
      const res = await user.client.post('/api/auth/email-verification');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ message: VERIFY_EMAIL_OFF });
    } finally {
      await quiet.close();
    }
  });
});
