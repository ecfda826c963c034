// Issue 33, docs/decisions/0047: every file's text is read in the background — a PDF's text layer,
// OCR (real Tesseract) for scans and photos in the account's languages, DOCX and plain text — and
// handed to whoever may read the file. Jobs live in the database: a crashed worker's job is taken
// again, two runners never read one file twice, and a bad file fails alone with its reason.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileText } from '@kinchart/shared/search';
import { fileTextPath } from '@kinchart/shared/search';
import type { MedicalFile } from '@kinchart/shared/files';
import type { Preferences } from '@kinchart/shared/care';
import { buildApp } from '../src/app';
import { TEXT_REASONS } from '../src/features/text/text-reasons';
import type { TestApp, TestClient } from './helpers';
import { buildTestApp, signedInUser, TEST_REMINDERS, TEST_TEXT } from './helpers';
import { uploadRecord } from './files-helpers';
import { insertMember } from './factories';
import { insertShare } from './share-factories';
import {
  FIXTURE_WORDS,
  bombPng,
  corruptPdf,
  docx,
  germanPage,
  phonePhoto,
  plainText,
  scannedPdf,
  spanishPage,
  textPdf,
} from './text-fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

async function uploaded(client: TestClient, filename: string, content: Buffer, fields: Record<string, string> = {}): Promise<MedicalFile> {
  const res = await uploadRecord(client, { filename, content }, fields);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<MedicalFile>();
}

async function listed(client: TestClient, id: string): Promise<MedicalFile> {
  const res = await client.get('/api/user/files');
  expect(res.statusCode).toBe(200);
  const file = res.json<MedicalFile[]>().find((f) => f.id === id);
  if (!file) throw new Error(`file ${id} not listed`);
  return file;
}

async function textOf(client: TestClient, id: string): Promise<FileText> {
  const res = await client.get(fileTextPath(id));
  expect(res.statusCode, res.body).toBe(200);
  return res.json<FileText>();
}

const job = (fileId: string) => t.database.db.selectFrom('file_text_jobs').selectAll().where('file_id', '=', fileId).executeTakeFirst();

describe('reading files in the background', () => {
  it('moves each file from pending to done: a text PDF page by page, a DOCX and plain text', async () => {
    const { client } = await signedInUser(t.app);
    const pdf = await uploaded(client, 'lab.pdf', await textPdf());
    const letter = await uploaded(client, 'letter.docx', await docx());
    const notes = await uploaded(client, 'notes.txt', plainText());
    expect(pdf).toMatchObject({ text_status: 'pending', text_pages: null, text_reason: null, suggestion: null });
    expect(await listed(client, pdf.id)).toMatchObject({ text_status: 'pending', text_pages: null });
    expect(await textOf(client, pdf.id)).toEqual({ text_status: 'pending', pages: [] });

    expect(await t.app.textJobs.drain()).toBeGreaterThanOrEqual(3);

    expect(await listed(client, pdf.id)).toMatchObject({ text_status: 'done', text_pages: 2, text_reason: null, suggestion: null });
    const pages = (await textOf(client, pdf.id)).pages;
    expect(pages.map((p) => p.page)).toEqual([1, 2]);
    expect(pages[0]?.text).toContain(FIXTURE_WORDS.textPdf[0]);
    expect(pages[0]?.text).not.toContain(FIXTURE_WORDS.textPdf[1]);
    expect(pages[1]?.text).toContain(FIXTURE_WORDS.textPdf[1]);

    expect(await listed(client, letter.id)).toMatchObject({ text_status: 'done', text_pages: 1 });
    expect((await textOf(client, letter.id)).pages[0]?.text).toContain(FIXTURE_WORDS.docx);
    const plain = await textOf(client, notes.id);
    expect(plain.pages).toHaveLength(1);
    expect(plain.pages[0]?.text.startsWith('Blood count')).toBe(true); // the byte order mark is gone
    expect(plain.pages[0]?.text).toContain(FIXTURE_WORDS.plain);
  });

  it('reads a scanned PDF page and a phone photo rotated 3° with OCR', async () => {
    const { client } = await signedInUser(t.app);
    const scan = await uploaded(client, 'scan.pdf', await scannedPdf());
    const photo = await uploaded(client, 'photo.jpg', await phonePhoto());
    await t.app.textJobs.drain();
    expect(await listed(client, scan.id)).toMatchObject({ text_status: 'done', text_pages: 1 });
    expect((await textOf(client, scan.id)).pages[0]?.text).toContain(FIXTURE_WORDS.scannedPdf);
    expect(await listed(client, photo.id)).toMatchObject({ text_status: 'done', text_pages: 1 });
    expect((await textOf(client, photo.id)).pages[0]?.text).toContain(FIXTURE_WORDS.photo);
  });

  it("reads Spanish and German pages in the account's document languages", async () => {
    const { client } = await signedInUser(t.app);
    const before = (await client.get('/api/user/preferences')).json<Preferences>();
    expect(before).toMatchObject({ document_languages: ['en'], document_languages_set: false });
    const put = await client.put('/api/user/preferences', { document_languages: ['de', 'es'] });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json<Preferences>()).toMatchObject({ document_languages: ['de', 'es'], document_languages_set: true });

    const spanish = await uploaded(client, 'alergias.png', await spanishPage());
    const german = await uploaded(client, 'allergiepass.png', await germanPage());
    await t.app.textJobs.drain();
    expect((await textOf(client, spanish.id)).pages[0]?.text).toContain(FIXTURE_WORDS.spanish);
    expect((await textOf(client, german.id)).pages[0]?.text).toContain(FIXTURE_WORDS.german);
  });

  it('refuses document languages it does not read, naming the field', async () => {
    const { client } = await signedInUser(t.app);
    for (const body of [{ document_languages: ['xx'] }, { document_languages: [] }, { document_languages: ['en', 'en'] }]) {
      const res = await client.put('/api/user/preferences', body);
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toContain('document_languages');
    }
    expect((await client.get('/api/user/preferences')).json<Preferences>().document_languages_set).toBe(false);
  });

  it('fails a corrupt PDF and a decompression bomb with their reasons, and reads the next file all the same', async () => {
    const { client } = await signedInUser(t.app);
    const corrupt = await uploaded(client, 'broken.pdf', corruptPdf());
    const bomb = await uploaded(client, 'bomb.png', bombPng());
    const after = await uploaded(client, 'notes.txt', plainText());
    await t.app.textJobs.drain();
    expect(await listed(client, corrupt.id)).toMatchObject({ text_status: 'failed', text_pages: null, text_reason: TEXT_REASONS.pdf });
    expect(await listed(client, bomb.id)).toMatchObject({ text_status: 'failed', text_reason: TEXT_REASONS.imageTooLarge });
    expect(await listed(client, after.id)).toMatchObject({ text_status: 'done', text_pages: 1 });
    expect(await textOf(client, corrupt.id)).toEqual({ text_status: 'failed', pages: [] });
    // A file that cannot be read is not tried again.
    expect((await job(corrupt.id))?.attempts).toBe(1);
  });

  it('marks a type it does not read as unsupported, with the reason', async () => {
    const { client } = await signedInUser(t.app);
    const dicom = Buffer.concat([Buffer.alloc(128), Buffer.from('DICM'), Buffer.alloc(300, 1)]);
    const file = await uploaded(client, 'scan.dcm', dicom);
    expect(file.file_type).toBe('application/dicom');
    await t.app.textJobs.drain();
    expect(await listed(client, file.id)).toMatchObject({
      text_status: 'unsupported',
      text_pages: null,
      text_reason: TEXT_REASONS.unsupported,
    });
  });

  it('deletes the text with its file', async () => {
    const { client } = await signedInUser(t.app);
    const file = await uploaded(client, 'lab.pdf', await textPdf());
    await t.app.textJobs.drain();
    const pages = () => t.database.db.selectFrom('file_text_pages').select('page').where('file_id', '=', file.id).execute();
    expect(await pages()).toHaveLength(2);
    expect((await client.delete(`/api/user/files/${file.id}`)).statusCode).toBe(200);
    expect(await pages()).toHaveLength(0);
    expect(await job(file.id)).toBeUndefined();
  });

  it('takes again a job whose worker died (its lease ran out), and gives up after three tries', async () => {
    const { client } = await signedInUser(t.app);
    const revived = await uploaded(client, 'notes.txt', plainText());
    const exhausted = await uploaded(client, 'more.txt', plainText());
    const held = await uploaded(client, 'held.txt', plainText());
    const past = new Date(Date.now() - 60_000).toISOString();
    const future = new Date(Date.now() + 600_000).toISOString();
    const hold = (fileId: string, leaseUntil: string, attempts: number) =>
      t.database.db
        .updateTable('file_text_jobs')
        .set({ status: 'processing', worker_id: 'a-process-that-died', lease_until: leaseUntil, attempts })
        .where('file_id', '=', fileId)
        .execute();
    await hold(revived.id, past, 1);
    await hold(exhausted.id, past, 3);
    await hold(held.id, future, 1);
    await t.app.textJobs.drain();
    expect(await listed(client, revived.id)).toMatchObject({ text_status: 'done', text_pages: 1 });
    expect((await job(revived.id))?.attempts).toBe(2);
    expect(await listed(client, exhausted.id)).toMatchObject({ text_status: 'failed', text_reason: TEXT_REASONS.tooManyTries });
    // A live lease is left alone.
    expect(await listed(client, held.id)).toMatchObject({ text_status: 'processing' });
  });

  it("answers 404 to another account and the text to a viewer of the file's person", async () => {
    const owner = await signedInUser(t.app);
    const viewer = await signedInUser(t.app);
    const stranger = await signedInUser(t.app);
    const person = await insertMember(t.database.db, owner.id, { name: 'Mia Rivera' });
    await insertShare(t.database.db, { profileId: person, ownerId: owner.id, holderId: viewer.id, role: 'viewer' });
    const file = await uploaded(owner.client, 'lab.pdf', await textPdf(), { personId: person });
    await t.app.textJobs.drain();
    expect((await textOf(viewer.client, file.id)).pages[0]?.text).toContain(FIXTURE_WORDS.textPdf[0]);
    const res = await stranger.client.get(fileTextPath(file.id));
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain(FIXTURE_WORDS.textPdf[0]);
    expect((await stranger.client.get(fileTextPath('00000000-0000-4000-8000-000000000000'))).statusCode).toBe(404);
  });

  it('hands a job back, its try not counted, when the runner stops while reading (npm run worker on SIGTERM)', async () => {
    const { client } = await signedInUser(t.app);
    const file = await uploaded(client, 'scan.pdf', await scannedPdf());
    const other = await buildApp({ config: t.config, database: t.database, webRoot: null, reminders: TEST_REMINDERS, text: TEST_TEXT });
    await other.ready();
    const reading = other.textJobs.runOnce();
    const stopping = other.textJobs.stop();
    expect(await reading).toBe(true);
    await stopping;
    await other.close();
    expect(await job(file.id)).toMatchObject({ status: 'pending', attempts: 0, worker_id: null, lease_until: null });
    expect(await textOf(client, file.id)).toEqual({ text_status: 'pending', pages: [] });
    // Another runner (here the first app's) reads it.
    expect(await t.app.textJobs.drain()).toBe(1);
    expect((await textOf(client, file.id)).pages[0]?.text).toContain(FIXTURE_WORDS.scannedPdf);
  });

  it('never lets two runners on one database read the same file', async () => {
    const { client } = await signedInUser(t.app);
    const ids: string[] = [];
    for (let i = 0; i < 12; i += 1) ids.push((await uploaded(client, `n${i}.txt`, plainText())).id);
    const second = await buildApp({ config: t.config, database: t.database, webRoot: null, reminders: TEST_REMINDERS, text: TEST_TEXT });
    await second.ready();
    try {
      const [a, b] = await Promise.all([t.app.textJobs.drain(), second.textJobs.drain()]);
      expect(a + b).toBe(ids.length);
    } finally {
      await second.close();
    }
    const jobs = await t.database.db.selectFrom('file_text_jobs').select(['status', 'attempts']).where('file_id', 'in', ids).execute();
    expect(jobs.map((j) => [j.status, Number(j.attempts)])).toEqual(ids.map(() => ['done', 1]));
  });
});
