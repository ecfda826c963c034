// An email on every sign-in from a new browser (DESIGN §5, issue: "An email on every sign-in from
// a new browser when SMTP_URL is set"; docs/decisions/0028), through a real SMTP server on loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { ORIGIN, TestClient, buildTestApp, signedInUser } from './helpers';
import type { LoopbackSmtp } from './smtp-helpers';
import { startLoopbackSmtp, withSubject } from './smtp-helpers';
import { createSoftAuthenticator } from './soft-authenticator';

const SUBJECT = 'New sign-in to your Kinchart account';
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0';

let smtp: LoopbackSmtp;
let t: TestApp;
beforeAll(async () => {
  smtp = await startLoopbackSmtp();
  t = await buildTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Kinchart <kinchart@example.org>' });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

/** Every email sent so far to `address` with the new sign-in subject, once the mailer has settled. */
async function signInEmails(address: string) {
  // Everything the app queued so far has reached the SMTP server (which keeps a message before it answers).
  await t.mailSettled();
  return smtp.received.filter((mail) => mail.to.includes(address) && mail.headers.subject === SUBJECT);
}

async function logIn(
  client: TestClient,
  user: { email: string; password: string },
  headers: Record<string, string> = {},
  remoteAddress?: string,
) {
  const res = await client.post(
    '/api/auth/login',
    { email: user.email, password: user.password },
    { headers, ...(remoteAddress ? { remoteAddress } : {}) },
  );
  expect(res.statusCode).toBe(200);
  return res;
}

describe('sign-in from a new browser', () => {
  it('the account’s first browser sends nothing, nor does signing in there again; another browser sends one email, once', async () => {
    const user = await signedInUser(t.app);
    expect(user.client.browserCookie).toMatch(/^browser=[A-Za-z0-9_-]{43}$/);
    await logIn(user.client, user);
    expect(await signInEmails(user.email)).toEqual([]);

    const other = new TestClient(t.app);
    await logIn(other, user, { 'user-agent': FIREFOX }, '203.0.113.40');
    const [mail, ...more] = await smtp.messagesTo(user.email, 1, withSubject(SUBJECT));
    expect(more).toEqual([]);
    expect(mail?.headers.subject).toBe(SUBJECT);
    expect(mail?.text).toContain('signed in from a browser it has not been used in before');
    // In words a person reads, not the raw header.
    expect(mail?.text).toContain('Browser: Firefox on Windows');
    expect(mail?.text).not.toContain(FIREFOX);
    expect(mail?.text).toContain('Address: 203.0.113.40');
    expect(mail?.text).toContain(`${ORIGIN}/settings?tab=account`);
    // Nothing of the account's health data, and never a token.
    expect(mail?.text).not.toContain(other.browserCookie?.split('=')[1] ?? 'none');
    expect(mail?.text).not.toContain(other.cookie?.split('=')[1] ?? 'none');

    await logIn(other, user, { 'user-agent': FIREFOX });
    expect(await signInEmails(user.email)).toHaveLength(1);
  });

  it('the browser cookie is HttpOnly, Lax and kept 400 days; a malformed one is replaced by a fresh token', async () => {
    const user = await signedInUser(t.app);
    const client = new TestClient(t.app);
    client.browserCookie = 'browser=not-a-token';
    const res = await logIn(client, user);
    const header = [res.headers['set-cookie']].flat().find((c) => c?.startsWith('browser='));
    expect(header).toMatch(/^browser=[A-Za-z0-9_-]{43};/);
    expect(header).toContain('HttpOnly');
    expect(header).toContain('SameSite=Lax');
    expect(header).toContain(`Max-Age=${400 * 24 * 3600}`);
    expect(await smtp.messagesTo(user.email, 1, withSubject(SUBJECT))).toHaveLength(1);
  });

  it('one browser shared by two accounts is new to each account on its own', async () => {
    const first = await signedInUser(t.app);
    const second = await signedInUser(t.app);
    // The second person signs in on the first person's browser: new to the second account.
    const shared = new TestClient(t.app);
    shared.browserCookie = first.client.browserCookie;
    await logIn(shared, second);
    expect(await smtp.messagesTo(second.email, 1, withSubject(SUBJECT))).toHaveLength(1);
    expect(await signInEmails(first.email)).toEqual([]);
  });

  it('a passkey sign-in and a two-step login from a new browser tell the owner too, after the last step only', async () => {
    const user = await signedInUser(t.app);
    const authenticator = createSoftAuthenticator(ORIGIN);
    const options = (await user.client.post('/api/auth/mfa/passkeys/options')).json<{
      challenge: string;
      rp: { id: string };
      user: { id: string };
    }>();
    expect(
      (await user.client.post('/api/auth/mfa/passkeys', { name: 'Key', response: authenticator.register(options).response })).statusCode,
    ).toBe(201);

    const phone = new TestClient(t.app);
    const loginOptions = (await phone.post('/api/auth/login/passkey/options')).json<{ challenge: string }>();
    expect((await phone.post('/api/auth/login/passkey', { response: authenticator.assert(loginOptions) })).statusCode).toBe(200);
    expect(await smtp.messagesTo(user.email, 1, withSubject(SUBJECT))).toHaveLength(1);

    const tablet = new TestClient(t.app);
    expect((await tablet.post('/api/auth/login', { email: user.email, password: user.password })).json()).toMatchObject({
      mfa_required: true,
    });
    expect(await signInEmails(user.email)).toHaveLength(1);
    const stepOptions = (await tablet.post('/api/auth/login/mfa/options')).json<{ challenge: string }>();
    expect((await tablet.post('/api/auth/login/mfa', { passkey: authenticator.assert(stepOptions) })).statusCode).toBe(200);
    expect(await smtp.messagesTo(user.email, 2, withSubject(SUBJECT))).toHaveLength(2);
  });

  it('the caller’s own user agent text never reaches the email: an unknown one reads as an unknown browser', async () => {
    const user = await signedInUser(t.app);
    await logIn(new TestClient(t.app), user, { 'user-agent': 'Evil\u0007Browser\tSubject: x' });
    const [mail] = await smtp.messagesTo(user.email, 1, withSubject(SUBJECT));
    expect(mail?.text).toContain('Browser: Unknown browser');
    expect(mail?.text).not.toContain('Evil');
    const other = await signedInUser(t.app);
    await logIn(new TestClient(t.app), other, {
      'user-agent':
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
    });
    const [phone] = await smtp.messagesTo(other.email, 1, withSubject(SUBJECT));
    expect(phone?.text).toContain('Browser: Safari on iPhone');
  });
});

describe('without SMTP_URL', () => {
  it('signing in from a new browser works and sets the cookie; nothing is sent', async () => {
    const quiet = await buildTestApp();
    try {
      const user = await signedInUser(quiet.app);
      const client = new TestClient(quiet.app);
      await logIn(client, user);
      expect(client.browserCookie).toMatch(/^browser=/);
      expect(await quiet.database.db.selectFrom('known_browsers').select('id').where('user_id', '=', user.id).execute()).toHaveLength(2);
    } finally {
      await quiet.close();
    }
  });
});
