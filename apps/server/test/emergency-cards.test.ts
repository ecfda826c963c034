import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { TestClient, appWithCapturedLog, buildTestApp, signedInUser } from './helpers';
import { insertMember, selfProfileId } from './factories';
import { loggerOptions } from '../src/plugins/logging';
import { walletCardPdf } from '../src/features/emergency-cards/wallet-card-pdf';
import { lockscreenPng } from '../src/features/emergency-cards/emergency-images';

// DESIGN §7: the owner's printable wallet card, QR image and lock-screen image per code.
let t: TestApp;
let tmp: string;
beforeAll(async () => {
  t = await buildTestApp();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kinchart-cards-'));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

type Owner = Awaited<ReturnType<typeof signedInUser>>;
const PIN = '4826';
const OWN_NAME = 'Zoë Ångström-Παπαδοπούλου';
const CAPTION = 'Medical information — scan with a phone camera';
const OWN = '/api/user/wearable-qr';
const member = (id: string) => `/api/user/family/members/${id}/qr`;

async function ownerWithCodes(): Promise<{ owner: Owner; memberId: string; ownQr: string; memberQr: string; ownShareId: string }> {
  const owner = await signedInUser(t.app);
  await t.database.db
    .updateTable('profiles')
    .set({ name: OWN_NAME })
    .where('id', '=', await selfProfileId(t.database.db, owner.id))
    .execute();
  const own = await owner.client.post(OWN, { pin: PIN });
  expect(own.statusCode).toBe(201);
  const memberId = await insertMember(t.database.db, owner.id, { name: 'Alex Kim' });
  const mem = await owner.client.post(member(memberId), { pin: '5937' });
  expect(mem.statusCode).toBe(201);
  return {
    owner,
    memberId,
    ownQr: own.json().qr_data as string,
    memberQr: mem.json().qr_data as string,
    ownShareId: own.json().share_id as string,
  };
}

let fileCounter = 0;
function tempFile(ext: string, body?: Buffer): string {
  fileCounter += 1;
  const file = path.join(tmp, `f${fileCounter}.${ext}`);
  if (body) fs.writeFileSync(file, body);
  return file;
}

/** The page's text as poppler reads it, whitespace (line breaks of wrapped text) collapsed. */
const pdfText = (pdf: Buffer) => execFileSync('pdftotext', [tempFile('pdf', pdf), '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');

/** Renders the page at 300 dpi as a phone camera would see it printed, and reads its QR code. */
function pdfQr(pdf: Buffer): string | null {
  const out = tempFile('page');
  execFileSync('pdftoppm', ['-r', '300', '-png', '-singlefile', tempFile('pdf', pdf), out]);
  return pngQr(fs.readFileSync(`${out}.png`));
}

function pngQr(png: Buffer): string | null {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length), image.width, image.height)?.data ?? null;
}

function expectDownload(res: { statusCode: number; headers: Record<string, unknown>; body: string }, type: string, shareId: string) {
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  expect(res.headers['content-type']).toBe(type);
  expect(res.headers['cache-control']).toBe('no-store');
  const disposition = String(res.headers['content-disposition']);
  expect(disposition).toMatch(/^attachment; filename="[a-z0-9-]+\.(pdf|png)"$/);
  expect(disposition).not.toContain(shareId);
}

describe('Emergency card downloads', () => {
  it('need a session: every download route answers 401 signed out', async () => {
    const { memberId } = await ownerWithCodes();
    const anon = new TestClient(t.app);
    for (const file of ['card.pdf', 'qr.png', 'lockscreen.png']) {
      expect((await anon.get(`${OWN}/${file}`)).statusCode).toBe(401);
      expect((await anon.get(`${member(memberId)}/${file}`)).statusCode).toBe(401);
    }
  });

  it("answer 404 for a code not set up, an inactive code, and another user's member (the same 404 as a missing one)", async () => {
    const fresh = await signedInUser(t.app);
    const freshMember = await insertMember(t.database.db, fresh.id);
    const { owner, memberId } = await ownerWithCodes();
    const missing = await fresh.client.get(`${OWN}/card.pdf`);
    for (const file of ['card.pdf', 'qr.png', 'lockscreen.png']) {
      for (const url of [
        `${OWN}/${file}`,
        `${member(freshMember)}/${file}`,
        `${member(memberId)}/${file}`,
        `${member('no-such-member')}/${file}`,
      ]) {
        const res = await fresh.client.get(url);
        expect(res.statusCode, url).toBe(404);
        expect(res.json()).toEqual(missing.json());
      }
    }
    expect((await owner.client.put(`${member(memberId)}/toggle`, { is_active: false })).statusCode).toBe(200);
    for (const file of ['card.pdf', 'qr.png', 'lockscreen.png']) {
      const res = await owner.client.get(`${member(memberId)}/${file}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(missing.json());
    }
  });

  it("card.pdf is one A4 page (US Letter with ?paper=letter) with the name, the caption and a QR code that reads as the code's qr_data", async () => {
    const { owner, ownQr, ownShareId } = await ownerWithCodes();
    const res = await owner.client.get(`${OWN}/card.pdf`);
    expectDownload(res, 'application/pdf', ownShareId);
    const pdf = res.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const doc = await PDFDocument.load(pdf);
    expect(doc.getPageCount()).toBe(1);
    const { width, height } = doc.getPage(0).getSize();
    expect(width).toBeCloseTo(595.28, 1);
    expect(height).toBeCloseTo(841.89, 1);
    const text = pdfText(pdf);
    expect(text).toContain(OWN_NAME);
    expect(text).toContain(CAPTION);
    expect(pdfQr(pdf)).toBe(ownQr);

    const letter = await owner.client.get(`${OWN}/card.pdf?paper=letter`);
    expect(letter.statusCode).toBe(200);
    const letterPage = (await PDFDocument.load(letter.rawPayload)).getPage(0).getSize();
    expect(letterPage.width).toBeCloseTo(612, 1);
    expect(letterPage.height).toBeCloseTo(792, 1);
    expect((await owner.client.get(`${OWN}/card.pdf?paper=a3`)).statusCode).toBe(400);
  });

  it('prints the essentials only once the owner opted in to show them without the PIN, on the card and the lock screen', async () => {
    const { owner, ownQr } = await ownerWithCodes();
    await owner.client.put('/api/user/updateProfile', { name: OWN_NAME, blood_type: 'AB-', has_allergies: true, allergy_details: 'Latex' });
    const before = pdfText((await owner.client.get(`${OWN}/card.pdf`)).rawPayload);
    expect(before).not.toContain('Latex');
    expect(before).not.toContain('AB-');
    expect((await owner.client.put(`${OWN}/settings`, { essentials_without_pin: true })).statusCode).toBe(200);
    const card = (await owner.client.get(`${OWN}/card.pdf`)).rawPayload;
    const after = pdfText(card);
    expect(after).toContain('Latex');
    expect(after).toContain('Blood type: AB');
    expect(pdfQr(card)).toBe(ownQr);
    const lock = await owner.client.get(`${OWN}/lockscreen.png`);
    expect(lock.statusCode).toBe(200);
    expect(pngQr(lock.rawPayload)).toBe(ownQr);
  });

  it('card.pdf draws the card at true size, 85.6 × 54 mm, between its cut marks', async () => {
    const { owner } = await ownerWithCodes();
    const pdf = (await owner.client.get(`${OWN}/card.pdf`)).rawPayload;
    // Cut marks are the page's only gray lines: their ends on the card's edges give its size.
    const out = tempFile('marks');
    execFileSync('pdftoppm', ['-r', '300', '-png', '-singlefile', '-gray', tempFile('pdf', pdf), out]);
    const image = PNG.sync.read(fs.readFileSync(`${out}.png`));
    const gray = (x: number, y: number) => image.data[(y * image.width + x) * 4] ?? 255;
    // Vertical marks above the card (it starts 30 mm down; marks run from 2 to 7 mm above it).
    const topBand = Math.round((25 / 25.4) * 300);
    const columns: number[] = [];
    for (let x = 0; x < image.width; x += 1) if (gray(x, topBand) < 200) columns.push(x);
    expect(columns.length).toBeGreaterThan(0);
    const left = Math.min(...columns);
    const right = Math.max(...columns);
    const widthMm = ((right - left) / 300) * 25.4;
    expect(Math.abs(widthMm - 85.6)).toBeLessThan(0.5);
    // Horizontal marks left of the card: rows with gray pixels 4 mm left of its edge (above the
    // printing note, which starts 12 mm under the card).
    const markX = left - Math.round((4 / 25.4) * 300);
    const rows: number[] = [];
    const above = Math.round(((30 + 54 + 6) / 25.4) * 300);
    for (let y = 0; y < above; y += 1) if (gray(markX, y) < 200) rows.push(y);
    const heightMm = ((Math.max(...rows) - Math.min(...rows)) / 300) * 25.4;
    expect(Math.abs(heightMm - 54)).toBeLessThan(0.5);
  });

  it("prints the PIN only when ?pin= is the code's PIN; a wrong one is 400 and counts nowhere", async () => {
    const { owner, ownShareId } = await ownerWithCodes();
    const plain = pdfText((await owner.client.get(`${OWN}/card.pdf`)).rawPayload);
    expect(plain).not.toContain(PIN);
    expect(plain).not.toMatch(/\b\d{4}\b/);

    for (const wrong of ['5937', '12', 'abcd']) {
      const res = await owner.client.get(`${OWN}/card.pdf?pin=${wrong}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: expect.any(String) });
    }
    const counters = await t.database.db
      .selectFrom('emergency_shares')
      .select(['failed_streak', 'failed_total'])
      .where('share_id', '=', ownShareId)
      .executeTakeFirstOrThrow();
    expect(Number(counters.failed_streak)).toBe(0);
    expect(Number(counters.failed_total)).toBe(0);

    const res = await owner.client.get(`${OWN}/card.pdf?pin=${PIN}`);
    expect(res.statusCode).toBe(200);
    expect(pdfText(res.rawPayload)).toContain(PIN);
  });

  it("member card.pdf, qr.png and lockscreen.png read as the member code's qr_data", async () => {
    const { owner, memberId, memberQr, ownQr, ownShareId } = await ownerWithCodes();
    const card = await owner.client.get(`${member(memberId)}/card.pdf`);
    expect(card.statusCode).toBe(200);
    expect(pdfText(card.rawPayload)).toContain('Alex Kim');
    expect(pdfQr(card.rawPayload)).toBe(memberQr);

    for (const [url, qr] of [
      [`${OWN}/qr.png`, ownQr],
      [`${member(memberId)}/qr.png`, memberQr],
      [`${OWN}/lockscreen.png`, ownQr],
      [`${member(memberId)}/lockscreen.png`, memberQr],
    ] as const) {
      const res = await owner.client.get(url);
      expectDownload(res, 'image/png', ownShareId);
      const image = PNG.sync.read(res.rawPayload);
      if (url.endsWith('qr.png')) expect(image.width).toBeGreaterThanOrEqual(1200);
      else expect([image.width, image.height]).toEqual([1170, 2532]);
      expect(pngQr(res.rawPayload), url).toBe(qr);
    }
  });

  it('audits each download, and the log never carries the PIN', async () => {
    const { owner } = await ownerWithCodes();
    const { app, log } = await appWithCapturedLog(t, loggerOptions('info') as object);
    try {
      const client = new TestClient(app);
      client.cookie = owner.client.cookie;
      expect((await client.get(`${OWN}/card.pdf?pin=${PIN}`)).statusCode).toBe(200);
      expect((await client.get(`${OWN}/qr.png`)).statusCode).toBe(200);
      expect(log()).not.toContain(PIN);
    } finally {
      await app.close();
    }
    const audits = await t.database.db
      .selectFrom('audit_events')
      .select(['detail'])
      .where('user_id', '=', owner.id)
      .where('action', '=', 'emergency_card_download')
      .execute();
    expect(audits.map((a) => JSON.parse(a.detail ?? '{}') as Record<string, unknown>)).toEqual([
      { kind: 'self', format: 'card_pdf', pin_printed: true },
      { kind: 'self', format: 'qr_png', pin_printed: false },
    ]);
  });
});

describe('Emergency card drawings with the essentials (DESIGN §7, essentials_without_pin)', () => {
  const qrData = `http://localhost:3000/family/emergency/${'Ab9_-'.repeat(8)}xyz`;
  const essentials = {
    name: 'Sofía Núñez',
    age: 34,
    is_pet: false,
    species: null,
    blood_type: 'A+',
    allergies: 'Penicillin (hives)',
    allergy_entries: [],
    conditions: 'Type 1 diabetes',
    bleeding_disorder: null,
    medications: ['Insulin glargine', 'Salbutamol'],
    primary_contact: { name: 'Pedro Núñez', phone_number: '+34 600 123 456' },
    updated_at: null,
  };

  it('the wallet card prints the opted-in essentials beside a QR code that still reads', async () => {
    const pdf = await walletCardPdf({ name: 'Sofía Núñez', qrData, essentials, pin: null, paper: 'a4' });
    const text = pdfText(pdf);
    for (const expected of [
      'Sofía Núñez',
      'Age: 34',
      'Blood type: A+',
      'Allergies: Penicillin (hives)',
      'Conditions: Type 1 diabetes',
      'Insulin glargine',
      'Pedro Núñez',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('Bleeding disorder');
    expect(pdfQr(pdf)).toBe(qrData);
  });

  it('a very long name shrinks and is cut with an ellipsis, and the card stays one page with a readable code', async () => {
    const name = 'Maximiliane Friederike Wilhelmina von Hohenzollern-Sigmaringen-Württemberg zu Baden';
    const pdf = await walletCardPdf({ name, qrData, essentials: null, pin: null, paper: 'letter' });
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(1);
    expect(pdfText(pdf)).toContain('Maximiliane');
    expect(pdfQr(pdf)).toBe(qrData);
  });

  it('a long allergy list is cut between words with an ellipsis, never in the middle of a word', async () => {
    const words = [
      'Penicillin',
      'amoxicillin',
      'cephalexin',
      'sulfamethoxazole',
      'trimethoprim',
      'ibuprofen',
      'naproxen',
      'aspirin',
      'codeine',
      'morphine',
      'latex',
      'peanuts',
      'shellfish',
    ];
    // Lists of slightly different lengths, so that the ellipsis falls at different places on the line.
    for (const lead of ['', 'Pol', 'Quinine', 'Sulfa', 'Egg', 'Soy', 'Kiwi', 'Mango', 'Nuts']) {
      const list = lead ? [lead, ...words] : words;
      const pdf = await walletCardPdf({
        name: 'Sofía Núñez',
        qrData,
        essentials: { ...essentials, allergies: list.join(', ') },
        pin: null,
        paper: 'a4',
      });
      const printed = /Allergies: (.*?) Conditions:/.exec(pdfText(pdf))?.[1] ?? '';
      expect(printed.endsWith('…'), printed).toBe(true);
      const shown = printed
        .slice(0, -1)
        .split(/[\s,]+/)
        .filter(Boolean);
      expect(shown.length).toBeGreaterThan(1);
      expect(shown, printed).toEqual(list.slice(0, shown.length));
    }
  });

  it('with the essentials off, the card tells whoever finds it to scan the code and enter the PIN', async () => {
    const pdf = await walletCardPdf({ name: 'Sofía Núñez', qrData, essentials: null, pin: null, paper: 'a4' });
    expect(pdfText(pdf)).toContain('To see the medical information, scan the code and enter the PIN.');
    const printedPin = pdfText(await walletCardPdf({ name: 'Sofía Núñez', qrData, essentials: null, pin: '4826', paper: 'a4' }));
    expect(printedPin).toContain('To see the medical information, scan the code and enter the PIN.');
    expect(printedPin).toContain('4826');
    const opted = pdfText(await walletCardPdf({ name: 'Sofía Núñez', qrData, essentials, pin: null, paper: 'a4' }));
    expect(opted).not.toContain('enter the PIN');
  });

  it('a pet’s wallet card prints its species and no blood type, and its lock-screen image still reads', async () => {
    const pet = { ...essentials, name: 'Rex', age: 7, is_pet: true, species: 'Dog', blood_type: 'A+', conditions: null, medications: [] };
    const text = pdfText(await walletCardPdf({ name: 'Rex', qrData, essentials: pet, pin: null, paper: 'a4' }));
    expect(text).toContain('Species: Dog');
    expect(text).not.toContain('Blood type');
    expect(pngQr(await lockscreenPng({ name: 'Rex', qrData, essentials: pet }))).toBe(qrData);
  });

  it('the lock-screen image with the essentials is 1170 × 2532 and its QR code reads', async () => {
    const png = await lockscreenPng({ name: 'Sofía Núñez', qrData, essentials });
    const image = PNG.sync.read(png);
    expect([image.width, image.height]).toEqual([1170, 2532]);
    expect(pngQr(png)).toBe(qrData);
  });
});
