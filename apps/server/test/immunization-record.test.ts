// DESIGN §12: GET /api/user/people/{personId}/immunizations.pdf — the person's vaccination record
// to print: who may download it (a viewer and up, DESIGN §11), what it says, and that a long list
// runs onto more pages.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { TestClient, buildTestApp, signedInUser } from './helpers';
import { insertMember, selfProfileId } from './factories';
import { insertShare } from './share-factories';
import { vaccinationRecordFileName } from '../src/features/clinical/immunization-record';

let t: TestApp;
let tmp: string;
beforeAll(async () => {
  t = await buildTestApp();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kinchart-vaccination-'));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

let fileCounter = 0;
/** The document's text as poppler reads it, page by page (form feeds split pages), whitespace collapsed. */
function pdfPages(pdf: Buffer): string[] {
  fileCounter += 1;
  const file = path.join(tmp, `record-${fileCounter}.pdf`);
  fs.writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
    .split('\f')
    .map((page) => page.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
}

const record = (person: string) => `/api/user/people/${person}/immunizations.pdf`;
const today = () => new Date().toISOString().slice(0, 10);

/** An owner and their child, born 2015-04-02 (the factory's date). */
async function ownerWithChild(name = 'Mia Rivera') {
  const owner = await signedInUser(t.app, { username: 'Olivia Owner' });
  const child = await insertMember(t.database.db, owner.id, { name });
  return { owner, child };
}

function expectPdfDownload(
  res: { statusCode: number; headers: Record<string, unknown>; body: string; rawPayload: Buffer },
  fileName: string,
) {
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  expect(res.headers['content-disposition']).toBe(`attachment; filename="${fileName}"`);
  expect(res.headers['cache-control']).toBe('private, no-store');
  expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
}

describe('the vaccination record', () => {
  it("an owner downloads a child's record: title, name, date of birth, each immunization's vaccine, date, dose, lot, site and performer, and the printed line", async () => {
    const { owner, child } = await ownerWithChild();
    const base = `/api/user/people/${child}/immunizations`;
    for (const body of [
      { vaccine: 'MMR', date: '2019-05', dose_number: 1, lot_number: 'AB123', site: 'Left arm', performer: 'Dr Lee' },
      { vaccine: 'Tetanus, diphtheria', date: '2021', dose_number: 2, lot_number: 'TD-77', site: 'Right thigh', performer: 'City Clinic' },
      { vaccine: 'Influenza', date: '2024-10-12' },
    ]) {
      expect((await owner.client.post(base, body)).statusCode).toBe(201);
    }

    const res = await owner.client.get(record(child));
    expectPdfDownload(res, 'vaccination-record-mia-rivera.pdf');
    const doc = await PDFDocument.load(res.rawPayload);
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getTitle()).toBe('Vaccination record — Mia Rivera');
    const [text = ''] = pdfPages(res.rawPayload);
    expect(text).toContain('Vaccination record');
    expect(text).toMatch(/Name Mia Rivera/);
    expect(text).toMatch(/Date of birth 2015-04-02/);
    expect(text).toMatch(/Vaccine Date Dose Lot Site Performer/);
    // Newest first, partial dates as they were given, and a dash for what was not.
    expect(text).toMatch(
      /Influenza 2024-10-12 — — — —.*Tetanus, diphtheria 2021 2 TD-77 Right thigh City Clinic.*MMR 2019-05 1 AB123 Left arm Dr Lee/,
    );
    expect(text).toContain(`Printed ${today()} from Kinchart`);
    expect(text).toContain('Page 1 of 1');
  });

  it('a viewer of a shared person downloads it too, and the owner sees that in the access history', async () => {
    const { owner, child } = await ownerWithChild();
    await owner.client.post(`/api/user/people/${child}/immunizations`, { vaccine: 'Polio (IPV)', date: '2016-02' });
    const viewer = await signedInUser(t.app, { username: 'Vera Viewer' });
    await insertShare(t.database.db, { profileId: child, ownerId: owner.id, holderId: viewer.id, role: 'viewer' });

    const res = await viewer.client.get(record(child));
    expectPdfDownload(res, 'vaccination-record-mia-rivera.pdf');
    expect(pdfPages(res.rawPayload).join(' ')).toContain('Polio (IPV) 2016-02');
    const history = (await owner.client.get(`/api/user/people/${child}/access-history`)).body;
    expect(history).toContain('GET /api/user/people/:personId/immunizations.pdf');
  });

  it('a stranger gets the same 404 as for a person that does not exist, and nobody signed out gets anything', async () => {
    const { child } = await ownerWithChild();
    const stranger = await signedInUser(t.app);
    const res = await stranger.client.get(record(child));
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toMatchObject({ message: 'Person not found' });
    expect((await stranger.client.get(record('00000000-0000-4000-8000-000000000000'))).json()).toEqual(res.json());
    expect((await new TestClient(t.app).get(record(child))).statusCode).toBe(401);
  });

  it('a long list runs onto several pages, the table header and the printed line on each, and no immunization is lost', async () => {
    const { owner, child } = await ownerWithChild();
    const count = 90;
    for (let i = 1; i <= count; i += 1) {
      const month = String((i % 12) + 1).padStart(2, '0');
      const res = await owner.client.post(`/api/user/people/${child}/immunizations`, {
        vaccine: `Vaccine number ${i}`,
        date: `${1990 + i}-${month}`,
        dose_number: (i % 5) + 1,
        lot_number: `LOT-${i}`,
        site: 'Left deltoid',
        performer: 'Community vaccination centre, north building',
      });
      expect(res.statusCode).toBe(201);
    }

    const res = await owner.client.get(record(child));
    expectPdfDownload(res, 'vaccination-record-mia-rivera.pdf');
    const pages = pdfPages(res.rawPayload);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect((await PDFDocument.load(res.rawPayload)).getPageCount()).toBe(pages.length);
    pages.forEach((page, i) => {
      expect(page).toMatch(/Vaccine Date Dose Lot Site Performer/);
      expect(page).toContain(`Printed ${today()} from Kinchart`);
      expect(page).toContain(`Page ${i + 1} of ${pages.length}`);
    });
    // The heading is printed once, on the first page.
    expect(pages.filter((page) => page.includes('Date of birth'))).toHaveLength(1);
    for (const page of pages.slice(1)) expect(page).toContain('Vaccination record — Mia Rivera (continued)');
    const all = pages.join(' ');
    for (let i = 1; i <= count; i += 1) expect(all).toMatch(new RegExp(`Vaccine number ${i} \\d{4}-\\d{2} \\d LOT-${i} `));
  });

  it('a person without immunizations gets a record that says so; a name in another script prints as typed and the file name stays plain', async () => {
    const owner = await signedInUser(t.app);
    const self = await selfProfileId(t.database.db, owner.id);
    await t.database.db.updateTable('profiles').set({ name: 'Zoë Παπαδοπούλου', date_of_birth: null }).where('id', '=', self).execute();

    const res = await owner.client.get(record(self));
    expectPdfDownload(res, 'vaccination-record-zoe.pdf');
    const [text = ''] = pdfPages(res.rawPayload);
    expect(text).toContain('Zoë Παπαδοπούλου');
    expect(text).toMatch(/Date of birth Not provided/);
    expect(text).toContain('No immunizations recorded.');
    expect(text).not.toContain('Performer');
  });

  it('names the file after the person in plain letters only', () => {
    expect(vaccinationRecordFileName('Mia "Bobby" Rivera/../x')).toBe('vaccination-record-mia-bobby-rivera-x.pdf');
    expect(vaccinationRecordFileName(null)).toBe('vaccination-record.pdf');
    expect(vaccinationRecordFileName('李雷')).toBe('vaccination-record.pdf');
  });
});
