import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MedicalFile } from '@kinchart/shared/files';
import { createPersonAccess } from '../src/common/person-access';
import { createFileSuggestionService, NO_SUGGESTION } from '../src/features/files/file-suggestion.service';
import type { TestApp, TestClient } from './helpers';
import { buildTestApp, signedInUser } from './helpers';
import { fixture, uploadRecord } from './files-helpers';
import { insertMember } from './factories';
import { insertShare } from './share-factories';
import { PDFDocument, StandardFonts } from 'pdf-lib';

// Issue 33, docs/decisions/0049: a file's text suggests its visit date, provider and reason; the
// record changes only when an editor applies the suggestion.

const NOW = new Date('2026-11-27T12:00:00Z');
let t: TestApp;
let suggestions: ReturnType<typeof createFileSuggestionService>;
beforeAll(async () => {
  t = await buildTestApp({}, { now: () => NOW });
  suggestions = createFileSuggestionService({ db: t.database.db, access: createPersonAccess(t.database.db), now: () => NOW });
});
afterAll(async () => {
  await t.close();
});

const PDF = fixture('record.pdf');
const LETTER = [
  'City Clinic — Discharge letter\nPatient: Mia Rivera   DOB: 03/09/2015\nDate of service: 12 March 2026\n',
  'Attending: Dr. Ana Ruiz\nReason for visit: Persistent cough  \n',
];

async function setUp() {
  const owner = await signedInUser(t.app, { username: 'Olivia Owner' });
  const person = await insertMember(t.database.db, owner.id, { name: 'Mia Rivera' });
  return { owner, person };
}

async function upload(client: TestClient, person: string, fields: Record<string, string> = {}): Promise<MedicalFile> {
  const res = await uploadRecord(
    client,
    { filename: 'letter.pdf', content: PDF, contentType: 'application/pdf' },
    { personId: person, ...fields },
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** What the extraction runner does once it has stored the text: the hook, in a transaction. */
async function textRead(file: MedicalFile, ownerId: string, pages: readonly (string | { page: number; text: string })[] = LETTER) {
  await t.database.db
    .transaction()
    .execute((trx) => suggestions.afterRead(trx, { fileId: file.id, userId: ownerId, profileId: file.person_id, pages }));
}

const storedSuggestion = (fileId: string) =>
  t.database.db
    .selectFrom('file_suggestions')
    .select(['record_date', 'provider_name', 'visit_reason'])
    .where('file_id', '=', fileId)
    .executeTakeFirst();

const listed = async (client: TestClient, id: string) =>
  (await client.get('/api/user/files')).json<MedicalFile[]>().find((f) => f.id === id);

/** A letter with a text layer: read without OCR. */
async function letterPdf(lines: readonly string[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  lines.forEach((line, i) => page.drawText(line, { x: 60, y: 760 - i * 28, size: 14, font }));
  return Buffer.from(await doc.save());
}

describe('suggestions from a file’s text', () => {
  it('once the text runner has read an upload, the files list carries its suggestion', async () => {
    const { owner, person } = await setUp();
    const pdf = await letterPdf([
      'Outpatient letter',
      'Date of service: 12 March 2026',
      'Physician: Dr. Ana Ruiz',
      'Reason for visit: Persistent cough',
    ]);
    const res = await uploadRecord(
      owner.client,
      { filename: 'letter.pdf', content: pdf, contentType: 'application/pdf' },
      { personId: person },
    );
    expect(res.statusCode, res.body).toBe(201);
    const file = res.json<MedicalFile>();
    expect(file).toMatchObject({ text_status: 'pending', suggestion: null });
    await t.app.textJobs.drain();
    expect(await listed(owner.client, file.id)).toMatchObject({
      text_status: 'done',
      suggestion: { record_date: '2026-03-12', provider_name: 'Dr. Ana Ruiz', visit_reason: 'Persistent cough' },
      provider_name: null,
      visit_reason: null,
    });
    const applied = await owner.client.post(`/api/user/files/${file.id}/suggestion/apply`, { fields: ['record_date', 'visit_reason'] });
    expect(applied.json()).toMatchObject({
      record_date: '2026-03-12',
      visit_reason: 'Persistent cough',
      provider_name: null,
      text_status: 'done',
      suggestion: null,
    });
    expect(await listed(owner.client, file.id)).toMatchObject({ suggestion: null, record_date: '2026-03-12' });
  });

  it('suggests the visit date, one of the person’s providers and the reason, and changes nothing by itself', async () => {
    const { owner, person } = await setUp();
    const provider = await owner.client.post(`/api/user/family/members/${person}/healthcare-providers`, {
      name: 'Ana Ruiz',
      specialty: 'Paediatrics',
      phone_number: '+1 555 0100',
    });
    expect(provider.statusCode, provider.body).toBe(201);
    const file = await upload(owner.client, person);
    await textRead(
      file,
      owner.id,
      LETTER.map((text, i) => ({ page: i + 1, text })),
    );
    // The birth date is left out; the provider is named as the person's list spells it.
    expect(await storedSuggestion(file.id)).toEqual({
      record_date: '2026-03-12',
      provider_name: 'Ana Ruiz',
      visit_reason: 'Persistent cough',
    });
    const after = await listed(owner.client, file.id);
    expect(after).toMatchObject({ provider_name: null, visit_reason: null, record_date: file.record_date });
  });

  it('leaves out what the record already says, and keeps no suggestion when nothing is left', async () => {
    const { owner, person } = await setUp();
    const some = await upload(owner.client, person, { providerName: 'Dr. Lee', customDate: '2026-01-05' });
    await textRead(some, owner.id);
    expect(await storedSuggestion(some.id)).toEqual({ record_date: null, provider_name: null, visit_reason: 'Persistent cough' });

    // The upload form fills in today as the visit date: that is no date the user gave.
    const today = new Date().toISOString().slice(0, 10);
    const dated = await upload(owner.client, person, { customDate: today });
    await textRead(dated, owner.id);
    expect(await storedSuggestion(dated.id)).toMatchObject({ record_date: '2026-03-12' });

    const all = await upload(owner.client, person, { providerName: 'Dr. Lee', customDate: '2026-01-05', visitReason: 'Cough' });
    await textRead(all, owner.id);
    expect(await storedSuggestion(all.id)).toBeUndefined();

    // Read again (npm run reindex), a text that no longer suggests anything removes the old suggestion.
    await textRead(some, owner.id, ['Nothing to see here']);
    expect(await storedSuggestion(some.id)).toBeUndefined();
  });

  it('an editor applies the whole suggestion: the record takes it and the suggestion is gone', async () => {
    const { owner, person } = await setUp();
    const file = await upload(owner.client, person);
    await textRead(file, owner.id);
    const res = await owner.client.post(`/api/user/files/${file.id}/suggestion/apply`, {});
    expect(res.statusCode, res.body).toBe(200);
    const applied = res.json<MedicalFile>();
    expect(applied).toMatchObject({
      id: file.id,
      record_date: '2026-03-12',
      provider_name: 'Dr. Ana Ruiz',
      visit_reason: 'Persistent cough',
      record_details: { provider_name: 'Dr. Ana Ruiz', visit_reason: 'Persistent cough' },
      suggestion: null,
      person_id: person,
      person_name: 'Mia Rivera',
    });
    expect(applied.text_status).toBe('pending');
    expect(await listed(owner.client, file.id)).toMatchObject({ record_date: '2026-03-12', provider_name: 'Dr. Ana Ruiz' });
    expect(await storedSuggestion(file.id)).toBeUndefined();
    // Applied once: there is nothing left to apply or dismiss.
    const again = await owner.client.post(`/api/user/files/${file.id}/suggestion/apply`, {});
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ message: NO_SUGGESTION });
    expect((await owner.client.delete(`/api/user/files/${file.id}/suggestion`)).statusCode).toBe(404);
  });

  it('an editor of a shared person applies only the fields they choose', async () => {
    const { owner, person } = await setUp();
    const editor = await signedInUser(t.app, { username: 'Eddie Editor' });
    await insertShare(t.database.db, { profileId: person, ownerId: owner.id, holderId: editor.id, role: 'editor' });
    const file = await upload(owner.client, person);
    await textRead(file, owner.id);
    const res = await editor.client.post(`/api/user/files/${file.id}/suggestion/apply`, { fields: ['provider_name'] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ provider_name: 'Dr. Ana Ruiz', visit_reason: null, record_date: file.record_date });
    expect(await storedSuggestion(file.id)).toBeUndefined();
  });

  it('refuses fields it does not know, naming the field, and changes nothing', async () => {
    const { owner, person } = await setUp();
    const file = await upload(owner.client, person);
    await textRead(file, owner.id);
    for (const body of [{ fields: ['visit_location'] }, { fields: [] }, { fields: ['record_date'], extra: true }]) {
      const res = await owner.client.post(`/api/user/files/${file.id}/suggestion/apply`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(/fields|extra/);
    }
    expect(await storedSuggestion(file.id)).not.toBeUndefined();
    expect(await listed(owner.client, file.id)).toMatchObject({ provider_name: null, visit_reason: null });
  });

  it('dismissing keeps the record as it was', async () => {
    const { owner, person } = await setUp();
    const file = await upload(owner.client, person);
    await textRead(file, owner.id);
    const res = await owner.client.delete(`/api/user/files/${file.id}/suggestion`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await storedSuggestion(file.id)).toBeUndefined();
    expect(await listed(owner.client, file.id)).toMatchObject({ provider_name: null, visit_reason: null, record_date: file.record_date });
  });

  it('a viewer may not apply or dismiss, another account finds no file, and the suggestion goes with its file', async () => {
    const { owner, person } = await setUp();
    const viewer = await signedInUser(t.app, { username: 'Vera Viewer' });
    const stranger = await signedInUser(t.app, { username: 'Sam Stranger' });
    await insertShare(t.database.db, { profileId: person, ownerId: owner.id, holderId: viewer.id, role: 'viewer' });
    const file = await upload(owner.client, person);
    await textRead(file, owner.id);
    expect((await viewer.client.post(`/api/user/files/${file.id}/suggestion/apply`, {})).statusCode).toBe(403);
    expect((await viewer.client.delete(`/api/user/files/${file.id}/suggestion`)).statusCode).toBe(403);
    const strangers = await stranger.client.post(`/api/user/files/${file.id}/suggestion/apply`, {});
    expect(strangers.statusCode).toBe(404);
    expect(strangers.json()).toMatchObject({ message: 'File not found' });
    expect((await stranger.client.delete(`/api/user/files/${file.id}/suggestion`)).statusCode).toBe(404);
    expect(await storedSuggestion(file.id)).not.toBeUndefined();

    expect((await owner.client.delete(`/api/user/files/${file.id}`)).statusCode).toBe(200);
    expect(await storedSuggestion(file.id)).toBeUndefined();
  });
});
