// Issue 35, docs/decisions/0055: what the server writes to a person reaches each recipient in their
// own language (users.language) — emails through a real SMTP server on loopback, Web Push through a
// loopback TLS push service that decrypts the payload, in-app notices, and the calendar feed in its
// owner's language — each recipient separately, on SQLite and PostgreSQL.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ICAL from 'ical.js';
import sharp from 'sharp';
import nodeIcal from 'node-ical';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { buildTestApp, signedInUser, TestClient, uniqueEmail, GOOD_PASSWORD } from './helpers';
import { insertMember } from './factories';
import { setScriptFontPaths } from '../src/lib/print-fonts';
import { insertShare } from './share-factories';
import type { LoopbackSmtp, ReceivedMail } from './smtp-helpers';
import { startLoopbackSmtp } from './smtp-helpers';
import type { LoopbackPush } from './push-helpers';
import { startLoopbackPush } from './push-helpers';
import { insertScheduledMedication, setPersonZone } from './reminder-helpers';
import type { ReminderScheduler } from '../src/features/reminders/scheduler';

const MAIL_FROM = 'Kinchart <kinchart@example.com>';
let smtp: LoopbackSmtp;
let push: LoopbackPush;
beforeAll(async () => {
  smtp = await startLoopbackSmtp();
  push = await startLoopbackPush();
});
afterAll(async () => {
  await smtp.close();
  await push.close();
});

const opened: TestApp[] = [];
afterEach(async () => {
  while (opened.length > 0) await opened.pop()?.close();
});

/** A fresh app with email, push to the loopback service, and a clock the test moves. */
async function world() {
  const clock = { now: new Date('2026-01-01T00:00:00Z') };
  let scheduler: ReminderScheduler | undefined;
  const t = await buildTestApp(
    { SMTP_URL: smtp.url, MAIL_FROM, PUSH_ALLOWED_HOSTS: push.host },
    { now: () => clock.now, reminders: { pushAgent: push.agent, onScheduler: (s) => (scheduler = s) } },
  );
  opened.push(t);
  if (!scheduler) throw new Error('no scheduler');
  const s = scheduler;
  return {
    t,
    tick: async (iso: string) => {
      clock.now = new Date(iso);
      const report = await s.tick(clock.now);
      await t.mailSettled();
      return report;
    },
  };
}

type User = Awaited<ReturnType<typeof signedInUser>>;

async function speaks(user: User, language: string) {
  const res = await user.client.put('/api/user/preferences', { language });
  expect(res.statusCode, res.body).toBe(200);
}

async function subscribe(user: User) {
  const sub = push.subscription();
  expect((await user.client.post('/api/user/push-subscriptions', sub.json)).statusCode).toBe(201);
  return sub;
}

async function notes(client: TestClient): Promise<{ title: string; data: { message: string } }[]> {
  return (await client.get('/api/user/notifications')).json();
}

/** A header's RFC 2047 encoded words ("=?UTF-8?Q?…?=", "=?UTF-8?B?…?=") as text. */
function decodeHeader(value: string | undefined): string {
  return (value ?? '').replace(/\?=\s+=\?/g, '?==?').replace(/=\?utf-8\?([qb])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
    kind.toLowerCase() === 'b'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(
          text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (__, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          'latin1',
        ).toString('utf8'),
  );
}
const subjectOf = (mail: ReceivedMail | undefined) => decodeHeader(mail?.headers.subject);

describe('reminders reach each recipient in their own language', () => {
  it('a dose: English for the owner, Polish for a sister, Arabic for a brother — in-app, email and push', async () => {
    const w = await world();
    const owner = await signedInUser(w.t.app, { username: 'Olivia' });
    const sister = await signedInUser(w.t.app, { username: 'Ola' });
    const brother = await signedInUser(w.t.app, { username: 'Karim' });
    await speaks(sister, 'pl');
    await speaks(brother, 'ar');
    const mother = await insertMember(w.t.database.db, owner.id, { name: 'Rosa Rivera' });
    await setPersonZone(w.t, mother, 'Europe/Warsaw');
    await insertShare(w.t.database.db, { profileId: mother, ownerId: owner.id, holderId: sister.id, role: 'editor' });
    await insertShare(w.t.database.db, { profileId: mother, ownerId: owner.id, holderId: brother.id, role: 'viewer' });
    await sister.client.put(`/api/user/people/${mother}/reminder-settings`, { dose_reminders: true });
    await brother.client.put(`/api/user/people/${mother}/reminder-settings`, { dose_reminders: true });
    await insertScheduledMedication(w.t, { ownerId: owner.id, profileId: mother, name: 'Warfarin', times: ['08:00'] });
    const [ownerPush, sisterPush, brotherPush] = [await subscribe(owner), await subscribe(sister), await subscribe(brother)];

    // 08:00 in Warsaw in January is 07:00 UTC.
    await w.tick('2026-01-05T06:59:00Z');
    expect(await w.tick('2026-01-05T07:00:00Z')).toMatchObject({ sent: 1 });

    const expected = {
      owner: { title: 'Medication reminder', body: 'Rosa Rivera: time for Warfarin (08:00).', open: 'Open Kinchart:' },
      sister: { title: 'Przypomnienie o leku', body: 'Rosa Rivera: czas na Warfarin (8:00).', open: 'Otwórz Kinchart:' },
      brother: { title: 'تذكير بالدواء', body: 'Rosa Rivera: حان وقت Warfarin (8:00 ص).', open: 'افتح Kinchart:' },
    };
    const who = { owner, sister, brother };
    const pushes = { owner: ownerPush, sister: sisterPush, brother: brotherPush };
    for (const name of ['owner', 'sister', 'brother'] as const) {
      const words = expected[name];
      const [note] = await notes(who[name].client);
      expect(note, name).toMatchObject({ title: words.title, data: { message: words.body } });

      const [mail] = await smtp.messagesTo(who[name].email, 1, (m) => subjectOf(m).includes(words.title));
      expect(subjectOf(mail)).toBe(`Kinchart: ${words.title}`);
      expect(mail?.text).toContain(words.body);
      expect(mail?.text).toContain(words.open);

      const [pushed] = await push.pushesTo(pushes[name].id, 1);
      expect(pushed?.payload, name).toMatchObject({ title: words.title, body: words.body });
    }
    // The notification's buttons read in the recipient's language too (the service worker shows these
    // words); the brother, a viewer, has none.
    expect((await push.pushesTo(ownerPush.id, 1))[0]?.payload.action_titles).toEqual({ taken: 'Taken', snooze: 'Snooze 10 min' });
    expect((await push.pushesTo(sisterPush.id, 1))[0]?.payload.action_titles).toEqual({ taken: 'Przyjęto', snooze: 'Odłóż o 10 min' });
    expect((await push.pushesTo(sisterPush.id, 1))[0]?.payload.action_failed).toBe(
      'Nie udało się zapisać. Otwórz Kinchart, aby zapisać dawkę.',
    );
    expect((await push.pushesTo(brotherPush.id, 1))[0]?.payload.action_titles).toBeUndefined();
    expect(push.refused).toEqual([]);
  });

  it('an appointment: "in 2 hours" and "tomorrow at 9:30" in each language, in the person’s zone', async () => {
    const w = await world();
    const owner = await signedInUser(w.t.app);
    const sister = await signedInUser(w.t.app);
    await speaks(sister, 'pl');
    const son = await insertMember(w.t.database.db, owner.id, { name: 'Leo Rivera' });
    await setPersonZone(w.t, son, 'Europe/Madrid');
    await insertShare(w.t.database.db, { profileId: son, ownerId: owner.id, holderId: sister.id, role: 'viewer' });
    await sister.client.put(`/api/user/people/${son}/reminder-settings`, { appointment_reminders: true });
    const made = await owner.client.post('/api/user/appointments', {
      appointment_date: '2026-12-03',
      start_time: '2026-12-03T09:30',
      provider_name: 'Dr Lee',
      person_id: son,
    });
    expect(made.statusCode, made.body).toBe(201);
    const sisterPush = await subscribe(sister);

    // 09:30 in Madrid in December is 08:30 UTC: a day before, then two hours before.
    await w.tick('2026-12-02T08:29:00Z');
    await w.tick('2026-12-02T08:30:00Z');
    await w.tick('2026-12-03T06:29:00Z');
    await w.tick('2026-12-03T06:30:00Z');
    expect((await notes(owner.client)).map((n) => [n.title, n.data.message])).toEqual(
      expect.arrayContaining([
        ['Appointment tomorrow', "Reminder: Leo Rivera's appointment with Dr Lee is tomorrow at 9:30."],
        ['Appointment reminder', "Reminder: Leo Rivera's appointment with Dr Lee is in 2 hours."],
      ]),
    );
    expect((await notes(sister.client)).map((n) => [n.title, n.data.message])).toEqual(
      expect.arrayContaining([
        ['Wizyta jutro', 'Przypomnienie: Leo Rivera – wizyta u Dr Lee jest jutro o 9:30.'],
        ['Przypomnienie o wizycie', 'Przypomnienie: Leo Rivera – wizyta u Dr Lee jest za 2 godziny.'],
      ]),
    );
    const pushed = await push.pushesTo(sisterPush.id, 2);
    expect(pushed.map((p) => p.payload.body)).toEqual([
      'Przypomnienie: Leo Rivera – wizyta u Dr Lee jest jutro o 9:30.',
      'Przypomnienie: Leo Rivera – wizyta u Dr Lee jest za 2 godziny.',
    ]);
  });
});

describe('account emails in the account’s language', () => {
  it('a password reset link: English for one account, Polish for another, Arabic for a third', async () => {
    const w = await world();
    const en = await signedInUser(w.t.app);
    const pl = await signedInUser(w.t.app);
    const ar = await signedInUser(w.t.app);
    await speaks(pl, 'pl');
    await speaks(ar, 'ar');
    const cases: [User, string, string][] = [
      [en, 'Kinchart: reset your password', 'To choose a new password, open this link within'],
      [pl, 'Kinchart: zresetuj hasło', 'Aby wybrać nowe hasło, otwórz ten link w ciągu'],
      [ar, 'Kinchart: أعِد تعيين كلمة المرور', 'لاختيار كلمة مرور جديدة، افتح هذا الرابط خلال'],
    ];
    for (const [user, subject, words] of cases) {
      const asked = await new TestClient(w.t.app).post('/api/auth/forgot-password', { email: user.email });
      expect(asked.statusCode).toBe(202);
      await w.t.mailSettled();
      const [mail] = await smtp.messagesTo(user.email, 1, (m) => subjectOf(m) === subject);
      expect(mail?.text).toContain(words);
      expect(mail?.text).toMatch(/\/reset-password\?token=[\w-]{43}/);
    }
  });

  it('a new account takes its language from Accept-Language, and its confirmation email is in it', async () => {
    const w = await world();
    const email = uniqueEmail('warsaw');
    const signup = await new TestClient(w.t.app).post(
      '/api/auth/signup',
      { email, password: GOOD_PASSWORD, username: 'Ola' },
      { headers: { 'accept-language': 'pl-PL,pl;q=0.9,en;q=0.8' } },
    );
    expect(signup.statusCode).toBe(201);
    await w.t.mailSettled();
    const [mail] = await smtp.messagesTo(email, 1, (m) => subjectOf(m) === 'Kinchart: potwierdź swój adres e-mail');
    expect(mail?.text).toContain('Potwierdź, że ten adres e-mail należy do Twojego konta Kinchart.');
  });
});

describe('the calendar feed in its owner’s language', () => {
  const read = async (t: TestApp, url: string) => {
    const res = await new TestClient(t.app).get(new URL(url).pathname);
    expect(res.statusCode).toBe(200);
    return res.body;
  };

  it('titles of a family member without a name and of a minimal feed, as ical.js and node-ical read them', async () => {
    const t = await buildTestApp();
    opened.push(t);
    const owner = await signedInUser(t.app);
    await speaks(owner, 'pl');
    const member = await insertMember(t.database.db, owner.id, { name: '' });
    const made = await owner.client.post('/api/user/appointments', {
      appointment_date: '2026-12-03',
      start_time: '2026-12-03T09:30',
      provider_name: 'Dr Lee',
      person_id: member,
    });
    expect(made.statusCode, made.body).toBe(201);

    const full = (await owner.client.post('/api/user/calendar-feeds', { person_id: member })).json<{ url: string }>();
    const fullText = await read(t, full.url);
    const calendar = new ICAL.Component(ICAL.parse(fullText));
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Kinchart: Członek rodziny');
    expect(calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v).summary)).toEqual(['Członek rodziny: Dr Lee']);

    const minimal = (await owner.client.post('/api/user/calendar-feeds', { minimal: true })).json<{ url: string }>();
    const minimalText = await read(t, minimal.url);
    const summaries = Object.values(nodeIcal.sync.parseICS(minimalText))
      .filter((c) => c?.type === 'VEVENT')
      .map((c) => String((c as { summary?: unknown }).summary));
    expect(summaries).toEqual(['Wizyta']);

    // The owner's language decides, read by read: back to English, the same feed says it in English.
    await speaks(owner, 'en');
    const english = new ICAL.Component(ICAL.parse(await read(t, full.url)));
    expect(english.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v).summary)).toEqual(['Family member: Dr Lee']);
  });
});

/** White (title) pixels in the lock screen's red band, in its left and right fifths (LOCKSCREEN: 1170 wide, band at 820–930). */
async function whiteInBand(png: Buffer): Promise<{ left: number; right: number }> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const count = (x0: number, x1: number) => {
    let n = 0;
    for (let y = 830; y < 920; y += 1)
      for (let x = x0; x < x1; x += 1) {
        const i = (y * info.width + x) * 3;
        if ((data[i] ?? 0) > 220 && (data[i + 1] ?? 0) > 220 && (data[i + 2] ?? 0) > 220) n += 1;
      }
    return n;
  };
  return { left: count(80, 300), right: count(870, 1090) };
}

describe('the wallet card and the vaccination record in the requester’s language', () => {
  /** The PDF's text as poppler reads it, whitespace collapsed. */
  const pdfText = (pdf: Buffer) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kinchart-lang-pdf-'));
    try {
      fs.writeFileSync(path.join(dir, 'f.pdf'), pdf);
      return execFileSync('pdftotext', [path.join(dir, 'f.pdf'), '-'], { encoding: 'utf8' })
        .replace(/[\u202a-\u202e\u2066-\u2069]/g, '') // the direction marks poppler puts around right-to-left text
        .replace(/\s+/g, ' ');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };

  it('Polish and Ukrainian labels print as such, and so do Arabic, Hindi, Japanese and Chinese with the Noto fonts', async () => {
    const t = await buildTestApp();
    opened.push(t);
    const owner = await signedInUser(t.app);
    expect((await owner.client.post('/api/user/wearable-qr', { pin: '4826' })).statusCode).toBe(201);
    const cases: [string, string[]][] = [
      ['pl', ['MEDYCZNE INFORMACJE ALARMOWE', 'Informacje medyczne — zeskanuj aparatem telefonu', 'Aby zobaczyć informacje medyczne']],
      ['uk', ['ЕКСТРЕНА МЕДИЧНА ІНФОРМАЦІЯ', 'Медична інформація — скануйте камерою телефона']],
      // Poppler gives the words in logical order; shaped Arabic, drawn right to left, reads back as typed.
      ['ar', ['معلومات طبية للطوارئ', 'امسح الرمز بكاميرا', 'PIN']],
      // Words without a vowel sign drawn before its consonant (poppler gives those in visual order).
      ['hi', ['आपातकालीन', 'जानकारी', 'फ़ोन कैमरे से स्कैन करें']],
      ['ja', ['緊急医療情報', 'スマートフォンのカメラで読み取って', 'PIN']],
      ['zh-Hans', ['紧急医疗信息', '请用手机相机扫描']],
      ['en', ['EMERGENCY MEDICAL INFORMATION', 'Print at 100 %']],
    ];
    for (const [language, words] of cases) {
      await speaks(owner, language);
      const res = await owner.client.get('/api/user/wearable-qr/card.pdf');
      expect(res.statusCode, language).toBe(200);
      const text = pdfText(res.rawPayload);
      for (const w of words) expect(text, language).toContain(w);
      if (language !== 'en') expect(text, language).not.toContain('EMERGENCY MEDICAL INFORMATION');
    }
    // The lock-screen image: the Arabic title sits at the right end of the red band, the English one starts at the left.
    const band = async (language: string) => {
      await speaks(owner, language);
      const res = await owner.client.get('/api/user/wearable-qr/lockscreen.png');
      expect(res.statusCode, language).toBe(200);
      return whiteInBand(res.rawPayload);
    };
    const [arabic, english] = [await band('ar'), await band('en')];
    expect(arabic.right).toBeGreaterThan(0);
    expect(arabic.left).toBe(0);
    expect(english.left).toBeGreaterThan(0);
  });

  it('a vaccination record for an Arabic, a Hindi and a Japanese account: their labels, and the Latin name as typed', async () => {
    const t = await buildTestApp();
    opened.push(t);
    const owner = await signedInUser(t.app);
    const child = await insertMember(t.database.db, owner.id, { name: 'Mia Rivera' });
    expect(
      (await owner.client.post(`/api/user/people/${child}/immunizations`, { vaccine: 'MMR', date: '2019-05', dose_number: 1 })).statusCode,
    ).toBe(201);
    const cases: [string, string[]][] = [
      ['ar', ['سجل التطعيمات', 'اللقاح', 'التاريخ']],
      ['hi', ['टीकाकरण', 'जन्म', 'टीका', 'तारीख']],
      ['ja', ['予防接種記録', '生年月日', 'ワクチン']],
      ['zh-Hans', ['疫苗接种记录', '出生日期', '疫苗']],
    ];
    for (const [language, words] of cases) {
      await speaks(owner, language);
      const res = await owner.client.get(`/api/user/people/${child}/immunizations.pdf`);
      expect(res.statusCode, language).toBe(200);
      const text = pdfText(res.rawPayload);
      for (const w of [...words, 'Mia Rivera', 'MMR', '2019-05']) expect(text, language).toContain(w);
      expect(text, language).not.toContain('Vaccination record');
    }
  });

  it('without the Noto fonts on the machine, an Arabic, Hindi or Japanese account gets English labels — never boxes', async () => {
    const t = await buildTestApp();
    opened.push(t);
    const owner = await signedInUser(t.app);
    expect((await owner.client.post('/api/user/wearable-qr', { pin: '4826' })).statusCode).toBe(201);
    const child = await insertMember(t.database.db, owner.id, { name: 'Mia Rivera' });
    const missing = { regular: '/nonexistent/NotoSans-Regular.ttf', bold: '/nonexistent/NotoSans-Bold.ttf' };
    setScriptFontPaths({ arabic: missing, devanagari: missing, cjk: missing });
    try {
      for (const language of ['ar', 'hi', 'ja']) {
        await speaks(owner, language);
        const card = pdfText((await owner.client.get('/api/user/wearable-qr/card.pdf')).rawPayload);
        expect(card, language).toContain('EMERGENCY MEDICAL INFORMATION');
        expect(card, language).toContain('Medical information — scan with a phone camera');
        const record = pdfText((await owner.client.get(`/api/user/people/${child}/immunizations.pdf`)).rawPayload);
        expect(record, language).toContain('Vaccination record');
        expect(record, language).toContain('Mia Rivera');
        // The lock screen too: its English title starts at the left end of the band.
        const image = await whiteInBand((await owner.client.get('/api/user/wearable-qr/lockscreen.png')).rawPayload);
        expect(image.left, language).toBeGreaterThan(0);
      }
    } finally {
      setScriptFontPaths(null);
    }
  });

  it('a vaccination record in German: title, labels, column headings, the printed line and page numbers', async () => {
    const t = await buildTestApp();
    opened.push(t);
    const owner = await signedInUser(t.app);
    await speaks(owner, 'de');
    const child = await insertMember(t.database.db, owner.id, { name: 'Mia Rivera' });
    expect(
      (await owner.client.post(`/api/user/people/${child}/immunizations`, { vaccine: 'MMR', date: '2019-05', dose_number: 1 })).statusCode,
    ).toBe(201);
    const res = await owner.client.get(`/api/user/people/${child}/immunizations.pdf`);
    expect(res.statusCode).toBe(200);
    const text = pdfText(res.rawPayload);
    for (const w of ['Impfnachweis', 'Geburtsdatum', 'Impfstoff', 'Charge', 'Gedruckt am', 'aus Kinchart', 'Seite 1 von 1', 'MMR'])
      expect(text).toContain(w);
    expect(text).not.toContain('Vaccination record');
  });
});
