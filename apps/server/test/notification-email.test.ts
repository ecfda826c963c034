import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { TestClient, appWithCapturedLog, buildTestApp, signedInUser } from './helpers';
import { fillProfile, insertMember, selfProfileId } from './factories';
import { composeEmergencyMail, createEmergencyMail } from '../src/features/notifications/emergency-mail';
import { sendAccessDigests } from '../src/features/emergency/access-alerts';
import { createMailer } from '../src/common/mailer';
import type { LoopbackSmtp, ReceivedMail } from './smtp-helpers';
import { startLoopbackSmtp } from './smtp-helpers';
import { VERIFY_SUBJECT } from '../src/features/auth/email-verification.service';

// DESIGN §1 and §7: with SMTP_URL set, emergency views, PIN locks and deactivations are emailed to
// the account's address — the person and the time, no medical data, no link, no share id. A real
// SMTP server on loopback receives them.

const MAIL_FROM = 'Kinchart Alerts <alerts@kinchart.test>';
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

let addressCounter = 0;
function stranger() {
  addressCounter += 1;
  const remoteAddress = `10.88.0.${addressCounter}`;
  const client = new TestClient(t.app);
  return { get: (url: string) => client.get(url, { remoteAddress }) };
}

// The sign-up's own confirmation link (docs/decisions/0030) is not an emergency email.
const messagesTo = (address: string, count: number) => smtp.messagesTo(address, count, (mail) => mail.headers.subject !== VERIFY_SUBJECT);

/** Minutes a message may name: those between `before` and now, as the email writes them. */
function minutesSince(before: Date): string[] {
  const out: string[] = [];
  for (let m = Math.floor(before.getTime() / 60_000); m <= Math.floor(Date.now() / 60_000); m += 1) {
    out.push(`${new Date(m * 60_000).toISOString().slice(0, 16).replace('T', ' ')} UTC`);
  }
  return out;
}

function expectNothingSecret(message: ReceivedMail, secrets: string[]) {
  for (const secret of secrets) expect(message.raw, secret).not.toContain(secret);
  expect(message.text).not.toMatch(/https?:|:\/\/|www\./i);
  expect(message.raw).not.toMatch(/https?:\/\//i);
  expect(message.headers['content-type']).toMatch(/^text\/plain/);
}

const MEDICAL = ['Penicillin', 'Malignant hyperthermia', 'Warfarin', 'O-', 'Sam Rivers', '555-01', '12 Secret Lane', 'Peanuts'];

describe('emergency notification emails', () => {
  it('a PIN view of one’s own code emails the account: to its address, from MAIL_FROM, with the time and nothing else', async () => {
    const owner = await signedInUser(t.app);
    await fillProfile(t.database.db, owner.id, await selfProfileId(t.database.db, owner.id));
    const setup = await owner.client.post('/api/user/wearable-qr', { pin: '4826' });
    const shareId = setup.json<{ share_id: string }>().share_id;
    const before = new Date();
    expect((await stranger().get(`/api/user/emergency/${shareId}?pin=4826`)).statusCode).toBe(200);

    const [message] = await messagesTo(owner.email, 1);
    expect(message!.to).toEqual([owner.email]);
    expect(message!.from).toBe('alerts@kinchart.test');
    expect(message!.headers.from).toContain('alerts@kinchart.test');
    expect(message!.headers.to).toContain(owner.email);
    expect(message!.text).toMatch(/opened your emergency information/);
    expect(minutesSince(before).some((minute) => message!.text.includes(minute))).toBe(true);
    expectNothingSecret(message!, [shareId, '4826', ...MEDICAL, 'Jordan Rivers']);
  });

  it("a member's code emails the lock after 5 wrong PINs and the deactivation after 10, naming the member", async () => {
    const owner = await signedInUser(t.app);
    const memberId = await insertMember(t.database.db, owner.id, { name: 'Robin Quill', has_allergies: 1, allergy_details: 'Peanuts' });
    const setup = await owner.client.post(`/api/user/family/members/${memberId}/qr`, { pin: '4826' });
    expect(setup.statusCode).toBe(201);
    const shareId = setup.json<{ share_id: string }>().share_id;
    const s = stranger();
    const wrong = ['1350', '1351', '1352', '1353', '1354', '2460', '2461', '2462', '2463', '2470'];
    const before = new Date();
    for (const pin of wrong.slice(0, 5)) expect((await s.get(`/api/user/family/emergency/${shareId}?pin=${pin}`)).statusCode).toBe(401);
    const [locked] = await messagesTo(owner.email, 1);
    expect(locked!.headers.subject).toMatch(/locked/i);
    expect(locked!.text).toContain("Robin Quill's emergency QR code");
    expect(minutesSince(before).some((minute) => locked!.text.includes(minute))).toBe(true);

    // That phone waits; five more wrong PINs from another make ten in all.
    const other = stranger();
    for (const pin of wrong.slice(5)) expect((await other.get(`/api/user/family/emergency/${shareId}?pin=${pin}`)).statusCode).toBe(401);
    const messages = await messagesTo(owner.email, 2);
    const disabled = messages.find((m) => /deactivated/i.test(m.headers.subject ?? ''));
    expect(disabled).toBeDefined();
    expect(disabled!.text).toContain("Robin Quill's emergency QR code");
    expect(disabled!.to).toEqual([owner.email]);
    for (const m of messages) {
      expect(m.from).toBe('alerts@kinchart.test');
      expectNothingSecret(m, [shareId, '4826', ...wrong, ...MEDICAL]);
    }
  });

  it('a flood of views emails the owner once at once, then once per 15 minutes with how many more views there were', async () => {
    const flood = await buildTestApp({ SMTP_URL: smtp.url, MAIL_FROM });
    const owner = await signedInUser(flood.app);
    await fillProfile(flood.database.db, owner.id, await selfProfileId(flood.database.db, owner.id));
    const shareId = (await owner.client.post('/api/user/wearable-qr', { pin: '4826' })).json<{ share_id: string }>().share_id;
    await owner.client.put('/api/user/wearable-qr/settings', { essentials_without_pin: true });
    const views = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        new TestClient(flood.app).get(`/api/user/emergency/${shareId}`, { remoteAddress: `10.89.${Math.floor(i / 200)}.${i % 200}` }),
      ),
    );
    expect(views.every((v) => v.statusCode === 200)).toBe(true);
    const [first] = await messagesTo(owner.email, 1);
    expect(first!.text).toContain('Someone viewed your emergency essentials');

    // Nothing more is due within the 15 minutes; after them, one email counts the other 99.
    const mailer = createMailer({ mail: flood.config.mail, log: flood.app.log });
    const mail = createEmergencyMail({ db: flood.database.db, mailer });
    expect(await sendAccessDigests({ db: flood.database.db, mail: mail! }, new Date(Date.now() + 5 * 60_000))).toBe(0);
    expect(await sendAccessDigests({ db: flood.database.db, mail: mail! }, new Date(Date.now() + 16 * 60_000))).toBe(1);
    expect(await sendAccessDigests({ db: flood.database.db, mail: mail! }, new Date(Date.now() + 17 * 60_000))).toBe(0);
    await mailer!.settled();
    mailer!.close();
    // Closing the app waits for every email it queued.
    await flood.close();
    const all = smtp.received.filter((m) => m.to.includes(owner.email) && m.headers.subject !== VERIFY_SUBJECT);
    expect(all).toHaveLength(2);
    const digest = all.find((m) => m !== first)!;
    expect(digest.headers.subject).toMatch(/opened 99 more times/);
    expect(digest.text).toContain('your emergency information was opened 99 more times');
    expectNothingSecret(digest, [shareId, '4826', ...MEDICAL, 'Jordan Rivers']);
  });

  it('an unreachable mail server neither delays nor fails the emergency answer, and its log names no address', async () => {
    const broken = await buildTestApp({ SMTP_URL: 'smtp://127.0.0.1:1', MAIL_FROM });
    try {
      const { app, log } = await appWithCapturedLog(broken, { level: 'info' });
      const owner = await signedInUser(app);
      await fillProfile(broken.database.db, owner.id, await selfProfileId(broken.database.db, owner.id));
      const shareId = (await owner.client.post('/api/user/wearable-qr', { pin: '4826' })).json<{ share_id: string }>().share_id;
      const view = await new TestClient(app).get(`/api/user/emergency/${shareId}?pin=4826`, { remoteAddress: '10.88.1.1' });
      expect(view.statusCode).toBe(200);
      // Closing the app waits for every email it queued, so the failure is logged by then.
      await app.close();
      const failure = log()
        .split('\n')
        .filter((line) => line.includes('email'));
      expect(failure.join('\n')).toContain('emergency notification email failed');
      for (const secret of [owner.email, shareId, 'Penicillin', 'Jordan Rivers', 'opened'])
        expect(failure.join('\n')).not.toContain(secret);
    } finally {
      await broken.close();
    }
  });

  it('never lets a link out, even one hidden in a family member’s name', () => {
    const at = new Date('2026-11-24T03:58:00Z');
    expect(composeEmergencyMail({ kind: 'family', personName: null, event: 'access' }, at).text).toContain(
      "Someone opened your family member's emergency information with the correct PIN on 2026-11-24 03:58 UTC.",
    );
    for (const personName of ['http://evil.example', 'see www.evil.example']) {
      expect(() => composeEmergencyMail({ kind: 'family', personName, event: 'locked' }, at)).toThrow();
    }
  });

  it('says once at start-up that email is off when SMTP_URL is unset, and sends nothing', async () => {
    const plain = await buildTestApp();
    try {
      const { app, log } = await appWithCapturedLog(plain, { level: 'info' });
      expect(log().match(/email is off/g)).toHaveLength(1);
      await app.close();
    } finally {
      await plain.close();
    }
  });
});
