import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { TestClient, appWithCapturedLog, buildTestApp, signedInUser } from './helpers';
import { fillProfile, insertMember, selfProfileId } from './factories';
import { composeEmergencyMail } from '../src/features/notifications/emergency-mail';

// DESIGN §1 and §7: with SMTP_URL set, emergency views, PIN locks and deactivations are emailed to
// the account's address — the person and the time, no medical data, no link, no share id. A real
// SMTP server on loopback receives them.

interface Received {
  from: string;
  to: string[];
  raw: string;
  headers: Record<string, string>;
  text: string;
}

const MAIL_FROM = 'Kinchart Alerts <alerts@kinchart.test>';
const received: Received[] = [];
let smtp: SMTPServer;
let t: TestApp;

function parse(raw: string, from: string, to: string[]): Received {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.slice(split + 4);
  if (/quoted-printable/i.test(headers['content-transfer-encoding'] ?? '')) {
    body = Buffer.from(
      body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8');
  } else if (/base64/i.test(headers['content-transfer-encoding'] ?? '')) {
    body = Buffer.from(body, 'base64').toString('utf8');
  }
  return { from, to, raw, headers, text: body };
}

beforeAll(async () => {
  smtp = new SMTPServer({
    secure: false,
    hideSTARTTLS: true,
    allowInsecureAuth: true,
    onAuth: (auth, _session, callback) => callback(null, { user: auth.username }),
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        received.push(parse(Buffer.concat(chunks).toString('utf8'), from, session.envelope.rcptTo.map((r) => r.address)));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  t = await buildTestApp({ SMTP_URL: `smtp://kinchart:secret@127.0.0.1:${port}`, MAIL_FROM });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

let addressCounter = 0;
function stranger() {
  addressCounter += 1;
  const remoteAddress = `10.88.0.${addressCounter}`;
  const client = new TestClient(t.app);
  return { get: (url: string) => client.get(url, { remoteAddress }) };
}

async function messagesTo(address: string, count: number): Promise<Received[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mine = received.filter((m) => m.to.includes(address));
    if (mine.length >= count) return mine;
    if (Date.now() > deadline) throw new Error(`expected ${count} emails, got ${mine.length}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Minutes a message may name: those between `before` and now, as the email writes them. */
function minutesSince(before: Date): string[] {
  const out: string[] = [];
  for (let m = Math.floor(before.getTime() / 60_000); m <= Math.floor(Date.now() / 60_000); m += 1) {
    out.push(`${new Date(m * 60_000).toISOString().slice(0, 16).replace('T', ' ')} UTC`);
  }
  return out;
}

function expectNothingSecret(message: Received, secrets: string[]) {
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

    await t.database.db
      .updateTable('emergency_shares')
      .set({ locked_until: new Date(Date.now() - 1000).toISOString() })
      .where('share_id', '=', shareId)
      .execute();
    for (const pin of wrong.slice(5)) expect((await s.get(`/api/user/family/emergency/${shareId}?pin=${pin}`)).statusCode).toBe(401);
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

  it('an unreachable mail server neither delays nor fails the emergency answer, and its log names no address', async () => {
    const broken = await buildTestApp({ SMTP_URL: 'smtp://127.0.0.1:1', MAIL_FROM });
    try {
      const { app, log } = await appWithCapturedLog(broken, { level: 'info' });
      const owner = await signedInUser(app);
      await fillProfile(broken.database.db, owner.id, await selfProfileId(broken.database.db, owner.id));
      const shareId = (await owner.client.post('/api/user/wearable-qr', { pin: '4826' })).json<{ share_id: string }>().share_id;
      const view = await new TestClient(app).get(`/api/user/emergency/${shareId}?pin=4826`, { remoteAddress: '10.88.1.1' });
      expect(view.statusCode).toBe(200);
      const deadline = Date.now() + 10_000;
      while (!log().includes('emergency notification email failed') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      const failure = log()
        .split('\n')
        .filter((line) => line.includes('email'));
      expect(failure.join('\n')).toContain('emergency notification email failed');
      for (const secret of [owner.email, shareId, 'Penicillin', 'Jordan Rivers', 'opened']) expect(failure.join('\n')).not.toContain(secret);
      await app.close();
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
