// Issue 33, docs/decisions/0048: GET /api/user/search — one search over the files' text and names
// and every structured list of every person the reader may see, on SQLite FTS5 and PostgreSQL
// full-text search alike. File text is written as rows of file_text_pages (as the extraction
// worker writes them); every other source row goes through its route or straight into its table,
// and the index follows through the triggers of migration 0026.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_EMPTY_MESSAGE, SEARCH_PATH, SEARCH_TOO_LONG_MESSAGE, searchResponseSchema } from '@kinchart/shared/search';
import type { SearchResponse, SearchResult } from '@kinchart/shared/search';
import { migrateTo, migrateToLatest } from '../src/db/database';
import { rebuildSearchIndex } from '../src/features/search/search.repository';
import { newId, nowIso } from '../src/lib/ids';
import type { TestApp } from './helpers';
import { buildTestApp, signedInUser } from './helpers';
import { insertMember, selfProfileId } from './factories';
import { insertShare } from './share-factories';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

type User = Awaited<ReturnType<typeof signedInUser>>;
const db = () => t.database.db;

async function search(user: User, params: Record<string, string | number>) {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]));
  return user.client.get(`${SEARCH_PATH}?${query.toString()}`);
}

async function found(user: User, q: string, extra: Record<string, string | number> = {}): Promise<SearchResult[]> {
  const res = await search(user, { q, ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return searchResponseSchema.parse(res.json()).results;
}

/** A file row as the upload writes it (the blob is not needed to search), with its pages' text. */
async function insertFile(
  user: User,
  profileId: string | null,
  values: { display_name: string; pages?: string[]; file_type?: string; provider_name?: string; record_date?: string },
): Promise<string> {
  const id = newId();
  const now = nowIso();
  await db()
    .insertInto('medical_files')
    .values({
      id,
      user_id: user.id,
      profile_id: profileId,
      display_name: values.display_name,
      original_name: `${values.display_name}.pdf`,
      file_type: values.file_type ?? 'application/pdf',
      size: 100,
      storage_key: `test/${id}`,
      wrapped_key: 'unused',
      record_date: values.record_date ?? null,
      provider_name: values.provider_name ?? null,
      visit_location: null,
      visit_reason: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  if (values.pages) await writePages(id, values.pages);
  return id;
}

/** The worker's write: the pages in order, in one transaction. */
async function writePages(fileId: string, pages: string[]) {
  await db()
    .transaction()
    .execute(async (trx) => {
      await trx.deleteFrom('file_text_pages').where('file_id', '=', fileId).execute();
      for (const [i, text] of pages.entries())
        await trx
          .insertInto('file_text_pages')
          .values({ file_id: fileId, page: i + 1, text })
          .execute();
    });
}

const clinical = (user: User, profileId: string) => {
  const now = nowIso();
  return { id: newId(), user_id: user.id, profile_id: profileId, notes: null, created_at: now, updated_at: now };
};

/** An owner with a daughter, and a ferritin lab report in each of their files. */
async function family() {
  const owner = await signedInUser(t.app, { username: 'Olivia Owner' });
  const self = await selfProfileId(db(), owner.id);
  const daughter = await insertMember(db(), owner.id, { name: 'Mia Rivera' });
  return { owner, self, daughter };
}

describe('GET /api/user/search finds every kind and opens it', () => {
  it('finds each kind by a word of its own and gives the url the web app opens', async () => {
    const { owner, self, daughter } = await family();
    const now = nowIso();
    const med = await owner.client.post('/api/user/medications', {
      medication_name: 'Quetiapine',
      dosage: '25 mg',
      frequency: 'Nightly',
      purpose: 'Sleep',
      is_current: true,
      start_date: '2024-01-15',
    });
    expect(med.statusCode).toBe(201);
    const medId = med.json().id as string;
    const condition = clinical(owner, daughter);
    await db()
      .insertInto('conditions')
      .values({ ...condition, name: 'Bronchiolitis', status: 'active', onset_date: '2023-02-01', abatement_date: null })
      .execute();
    const immunization = clinical(owner, daughter);
    await db()
      .insertInto('immunizations')
      .values({ ...immunization, vaccine: 'Rotavirus', date: '2016-01-01', dose_number: 1, lot_number: 'LX9', site: null, performer: null })
      .execute();
    const lab = clinical(owner, self);
    await db()
      .insertInto('lab_results')
      .values({
        ...lab,
        name: 'Hemoglobin',
        category: 'laboratory',
        loinc_code: null,
        value: 13.5,
        value_text: null,
        unit: 'g/dL',
        reference_low: null,
        reference_high: null,
        reference_range: null,
        interpretation: null,
        date: '2024-05-02',
      })
      .execute();
    const procedure = clinical(owner, self);
    await db()
      .insertInto('procedures')
      .values({ ...procedure, name: 'Appendectomy', status: 'completed', performed_date: '2010-06-01', performer: 'Dr Cutter' })
      .execute();
    const appointment = newId();
    await db()
      .insertInto('appointments')
      .values({
        id: appointment,
        user_id: owner.id,
        uid: `${appointment}@kinchart`,
        profile_id: daughter,
        appointment_date: '2027-03-04',
        start_time: '2027-03-04T10:00',
        end_time: null,
        provider_name: 'Dr Okonkwo',
        reason_for_visit: 'Orthodontics review',
        location: 'Harbour clinic',
        created_at: now,
        reminder_minutes: null,
      })
      .execute();
    const contact = newId();
    await db()
      .insertInto('emergency_contacts')
      .values({
        id: contact,
        user_id: owner.id,
        profile_id: self,
        name: 'Sam Thistlewood',
        created_at: now,
        relationship: 'brother',
        phone_number: null,
        email: null,
      })
      .execute();
    const provider = newId();
    await db()
      .insertInto('healthcare_providers')
      .values({
        id: provider,
        user_id: owner.id,
        profile_id: daughter,
        provider_name: 'Dr Abernathy',
        specialty: 'Paediatrics',
        facility: null,
        phone_number: null,
        email: null,
        address: null,
        notes: null,
        created_at: now,
      })
      .execute();
    await db().updateTable('profiles').set({ has_allergies: 1, allergy_details: 'Peanuts, severe' }).where('id', '=', daughter).execute();
    const file = await insertFile(owner, null, { display_name: 'Lab report', pages: ['Serum ferritin 12 ng/mL'] });

    const expectOne = async (q: string, kind: string, id: string, personId: string, url: string) => {
      const results = await found(owner, q);
      expect(results.map((r) => [r.kind, r.id, r.person_id, r.url])).toEqual([[kind, id, personId, url]]);
      return results[0]!;
    };
    await expectOne('quetiapine', 'medication', medId, self, `/prescriptions#medication-${medId}`);
    await expectOne('bronchiolitis', 'condition', condition.id, daughter, `/health-records/${daughter}#condition-${condition.id}`);
    await expectOne('rotavirus', 'immunization', immunization.id, daughter, `/health-records/${daughter}#immunization-${immunization.id}`);
    await expectOne('hemoglobin', 'lab-result', lab.id, self, `/health-records/${self}#lab-result-${lab.id}`);
    await expectOne('appendectomy', 'procedure', procedure.id, self, `/health-records/${self}#procedure-${procedure.id}`);
    await expectOne('orthodontics', 'appointment', appointment, daughter, `/appointments#appointment-${appointment}`);
    await expectOne('thistlewood', 'contact', contact, self, `/profile#contact-${contact}`);
    await expectOne('abernathy', 'provider', provider, daughter, `/edit-family-member/${daughter}#provider-${provider}`);
    const allergy = await expectOne('peanuts', 'allergy', daughter, daughter, `/edit-family-member/${daughter}#allergies`);
    expect(allergy).toMatchObject({ title: 'Allergies', person_name: 'Mia Rivera', snippet: 'Peanuts, severe', highlights: [[0, 7]] });
    // A file without a person is its owner's own; it opens at the page of the match.
    const hit = await expectOne('ferritin', 'file', file, self, `/api/user/files/${file}/content#page=1`);
    expect(hit).toMatchObject({ title: 'Lab report', page: 1, snippet: 'Serum ferritin 12 ng/mL', highlights: [[6, 14]] });
    // `kind` narrows to one kind.
    expect(await found(owner, 'ferritin', { kind: 'medication' })).toEqual([]);
    expect((await found(owner, 'ferritin', { kind: 'file' })).map((r) => r.id)).toEqual([file]);
  });
});

describe('the query language', () => {
  it('matches prefixes, quoted phrases, any case and accents either way; punctuation only separates', async () => {
    const { owner, self } = await family();
    const a = await insertFile(owner, self, {
      display_name: 'Allergy letter',
      pages: ['Reaction to Pénicilline noted in 2019, with hives.'],
    });
    const b = await insertFile(owner, self, { display_name: 'Discharge', pages: ['No penicilline given. Reaction noted to latex.'] });
    const ids = async (q: string) => (await found(owner, q)).map((r) => r.id).sort();
    expect(await ids('penicil')).toEqual([a, b].sort());
    expect(await ids('PÉNICILLINE')).toEqual([a, b].sort());
    expect(await ids('pénicilline hives')).toEqual([a]);
    expect(await ids('"reaction to penicilline"')).toEqual([a]);
    expect(await ids('"reaction noted"')).toEqual([b]);
    expect(await ids('"reaction noted" latex')).toEqual([b]);
    // Engine syntax typed by a user is just words: no operator, no column filter, no error.
    expect(await ids('hives OR latex')).toEqual([]);
    expect(await ids('NEAR(hives) ) * : { body } AND -latex')).toEqual([]);
    expect(await ids('latex!')).toEqual([b]);
    expect(await ids("penicilline & !latex | 'x':*")).toEqual([]);
    // A single character is a whole word, not a prefix of every word.
    expect(await ids('n')).toEqual([]);
    // Highlights point at the original spelling in the snippet.
    const [hit] = await found(owner, 'penicilline hives');
    expect(hit!.snippet.slice(hit!.highlights[0]![0], hit!.highlights[0]![1])).toBe('Pénicilline');
    expect(hit!.highlights.map(([s, e]) => hit!.snippet.slice(s, e))).toEqual(['Pénicilline', 'hives']);
  });

  it('gives the page a word is on, and a snippet of whole words around it with ellipses', async () => {
    const { owner, self } = await family();
    const filler = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ');
    const file = await insertFile(owner, self, {
      display_name: 'Long report',
      pages: ['Page one talks about nothing much.', `${filler} the ferritin level was low ${filler}`, 'Page three.'],
    });
    const [hit] = await found(owner, 'ferritin');
    expect(hit).toMatchObject({ id: file, page: 2, url: `/api/user/files/${file}/content#page=2` });
    expect(hit!.snippet.startsWith('…')).toBe(true);
    expect(hit!.snippet.endsWith('…')).toBe(true);
    expect(hit!.snippet.length).toBeLessThanOrEqual(200);
    expect(hit!.snippet).toMatch(/^…word\d+ /);
    expect(hit!.snippet).not.toContain('Page one');
    const [[s, e]] = hit!.highlights as [[number, number]];
    expect(hit!.snippet.slice(s, e)).toBe('ferritin');
    // A word only in the name: no page, the record opens at its start.
    const [byName] = await found(owner, 'long report');
    expect(byName).toMatchObject({ id: file, url: `/api/user/files/${file}/content`, snippet: expect.stringContaining('Long report') });
    expect(byName!.page).toBeUndefined();
  });

  it('ranks a match in the title above one in the body', async () => {
    const { owner, self } = await family();
    const body = await insertFile(owner, self, { display_name: 'Letter', pages: ['Mentions zinc once among many other words here.'] });
    const title = await insertFile(owner, self, { display_name: 'Zinc results', pages: ['Serum levels.'] });
    expect((await found(owner, 'zinc')).map((r) => r.id)).toEqual([title, body]);
  });

  it('answers 400 with the message for an empty, blank, word-less or too long query, a bad limit, kind or cursor', async () => {
    const { owner } = await family();
    const message = async (params: Record<string, string | number>) => {
      const res = await search(owner, params);
      expect(res.statusCode).toBe(400);
      return res.json().message as string;
    };
    expect(await message({})).toContain(SEARCH_EMPTY_MESSAGE);
    expect(await message({ q: '' })).toContain(SEARCH_EMPTY_MESSAGE);
    expect(await message({ q: '   ' })).toContain(SEARCH_EMPTY_MESSAGE);
    expect(await message({ q: '?!*' })).toContain(SEARCH_EMPTY_MESSAGE);
    expect(await message({ q: 'x'.repeat(201) })).toContain(SEARCH_TOO_LONG_MESSAGE);
    expect(await message({ q: 'a', limit: 0 })).toContain('limit');
    expect(await message({ q: 'a', limit: 51 })).toContain('limit');
    expect(await message({ q: 'a', kind: 'secret' })).toContain('kind');
    expect(await message({ q: 'a', cursor: 'nonsense' })).toContain('cursor');
    expect((await search(owner, { q: 'x'.repeat(200) })).statusCode).toBe(200);
  });
});

describe('pagination', () => {
  it('pages through every hit once with the cursor; a cursor of another query is 400', async () => {
    const { owner, self } = await family();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push(await insertFile(owner, self, { display_name: `Scan ${i}`, pages: [`magnesium result ${i}`] }));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await search(owner, { q: 'magnesium', limit: 2, ...(cursor ? { cursor } : {}) });
      expect(res.statusCode).toBe(200);
      const body = res.json<SearchResponse>();
      expect(body.results.length).toBeLessThanOrEqual(2);
      seen.push(...body.results.map((r) => r.id));
      cursor = body.next_cursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen.sort()).toEqual(ids.sort());
    const first = (await search(owner, { q: 'magnesium', limit: 2 })).json<SearchResponse>();
    const other = await search(owner, { q: 'result', limit: 2, cursor: first.next_cursor! });
    expect(other.statusCode).toBe(400);
    expect(other.json().message).toContain('cursor');
  });
});

describe('access', () => {
  it('another account finds nothing; a viewer sees the shared person only; a revoked share finds nothing at once', async () => {
    const { owner, self, daughter } = await family();
    await insertFile(owner, self, { display_name: 'Mother labs', pages: ['ferritin 30'] });
    const daughterFile = await insertFile(owner, daughter, { display_name: 'Daughter labs', pages: ['ferritin 9'] });
    const stranger = await signedInUser(t.app, { username: 'Stranger' });
    expect(await found(stranger, 'ferritin')).toEqual([]);
    expect(await found(stranger, 'labs')).toEqual([]);

    const carer = await signedInUser(t.app, { username: 'Carer' });
    const shareId = await insertShare(db(), { profileId: daughter, ownerId: owner.id, holderId: carer.id, role: 'viewer' });
    const seen = await found(carer, 'ferritin');
    expect(seen.map((r) => [r.id, r.person_id, r.person_name])).toEqual([[daughterFile, daughter, 'Mia Rivera']]);
    expect((await found(owner, 'ferritin')).length).toBe(2);
    // The owner's trail says the carer read the daughter's records through the search.
    const trail = await db()
      .selectFrom('audit_events')
      .select(['action', 'profile_id', 'actor_id'])
      .where('user_id', '=', owner.id)
      .execute();
    expect(trail).toContainEqual({ action: 'shared_read', profile_id: daughter, actor_id: carer.id });

    // `person=` narrows to one readable person; a person the reader cannot see is 404.
    expect((await found(owner, 'ferritin', { person: daughter })).map((r) => r.id)).toEqual([daughterFile]);
    expect((await found(carer, 'ferritin', { person: daughter })).map((r) => r.id)).toEqual([daughterFile]);
    expect((await search(carer, { q: 'ferritin', person: self })).statusCode).toBe(404);
    expect((await search(stranger, { q: 'ferritin', person: daughter })).statusCode).toBe(404);

    await db().updateTable('person_shares').set({ revoked_at: nowIso() }).where('id', '=', shareId).execute();
    expect(await found(carer, 'ferritin')).toEqual([]);
    expect((await search(carer, { q: 'ferritin', person: daughter })).statusCode).toBe(404);
  });

  it('a row whose owner is not its person’s owner matches nobody', async () => {
    const { owner, daughter } = await family();
    const other = await signedInUser(t.app);
    // A row of `other` naming owner's daughter (no write path makes one; the index refuses it anyway).
    await insertFile(other, daughter, { display_name: 'Stray', pages: ['osmolality'] });
    expect(await found(owner, 'osmolality')).toEqual([]);
    expect(await found(other, 'osmolality')).toEqual([]);
  });
});

describe('the index follows every write at once', () => {
  it('editing updates it; deleting a file, a medication or a person removes what they held', async () => {
    const { owner, self, daughter } = await family();
    const med = (
      await owner.client.post('/api/user/medications', { medication_name: 'Lisinopril', dosage: '10 mg', is_current: true })
    ).json();
    expect((await found(owner, 'lisinopril')).map((r) => r.id)).toEqual([med.id]);
    const put = await owner.client.put(`/api/user/medications/${med.id}`, {
      medication_name: 'Losartan',
      dosage: '50 mg',
      is_current: true,
    });
    expect(put.statusCode).toBe(200);
    expect(await found(owner, 'lisinopril')).toEqual([]);
    expect((await found(owner, 'losartan')).map((r) => [r.id, r.snippet])).toEqual([[med.id, 'Losartan']]);
    expect((await owner.client.delete(`/api/user/medications/${med.id}`)).statusCode).toBe(200);
    expect(await found(owner, 'losartan')).toEqual([]);

    // A file's text arrives after the file; a re-read replaces it; deleting the file removes it.
    const file = await insertFile(owner, self, { display_name: 'Scan' });
    expect(await found(owner, 'creatinine')).toEqual([]);
    await writePages(file, ['creatinine 80']);
    expect((await found(owner, 'creatinine')).map((r) => r.id)).toEqual([file]);
    await writePages(file, ['urea 5', 'sodium 140']);
    expect(await found(owner, 'creatinine')).toEqual([]);
    expect((await found(owner, 'sodium'))[0]).toMatchObject({ id: file, page: 2 });
    await db().updateTable('medical_files').set({ display_name: 'Kidney panel' }).where('id', '=', file).execute();
    expect((await found(owner, 'kidney'))[0]).toMatchObject({ id: file, title: 'Kidney panel' });
    expect((await found(owner, 'sodium')).map((r) => r.id)).toEqual([file]);
    await db().deleteFrom('medical_files').where('id', '=', file).execute();
    expect(await found(owner, 'sodium')).toEqual([]);

    // Allergies written and cleared.
    await db().updateTable('profiles').set({ allergy_details: 'Sulfonamides' }).where('id', '=', daughter).execute();
    expect((await found(owner, 'sulfonamides')).map((r) => r.kind)).toEqual(['allergy']);
    await db().updateTable('profiles').set({ allergy_details: '  ' }).where('id', '=', daughter).execute();
    expect(await found(owner, 'sulfonamides')).toEqual([]);

    // Deleting a person removes everything of theirs; their files move to the owner's own profile (as the files list shows them).
    await db().updateTable('profiles').set({ allergy_details: 'Sulfonamides' }).where('id', '=', daughter).execute();
    await db()
      .insertInto('conditions')
      .values({ ...clinical(owner, daughter), name: 'Scoliosis', status: 'active', onset_date: null, abatement_date: null })
      .execute();
    const chart = await insertFile(owner, daughter, { display_name: 'Growth chart', pages: ['percentile'] });
    expect((await found(owner, 'percentile')).map((r) => r.person_id)).toEqual([daughter]);
    expect((await found(owner, 'scoliosis')).length).toBe(1);
    expect((await owner.client.delete(`/api/user/family/members/${daughter}`)).statusCode).toBe(200);
    expect(await found(owner, 'sulfonamides')).toEqual([]);
    expect(await found(owner, 'scoliosis')).toEqual([]);
    expect((await found(owner, 'percentile')).map((r) => [r.id, r.person_id])).toEqual([[chart, self]]);
    expect(await db().selectFrom('search_entries').select('id').where('profile_id', '=', daughter).execute()).toEqual([]);
  });

  it('rebuildSearchIndex refills the index from the source tables to the same answers', async () => {
    const { owner, self, daughter } = await family();
    const file = await insertFile(owner, daughter, { display_name: 'Echo', pages: ['mitral valve', 'tricuspid'] });
    await db().updateTable('profiles').set({ allergy_details: 'Tricuspid dust' }).where('id', '=', self).execute();
    const before = await found(owner, 'tricuspid');
    await db().deleteFrom('search_entries').where('ref_id', '=', file).execute();
    expect((await found(owner, 'tricuspid')).map((r) => r.kind)).toEqual(['allergy']);
    await rebuildSearchIndex(db());
    expect(await found(owner, 'tricuspid')).toEqual(before);
    expect(before.map((r) => r.kind).sort()).toEqual(['allergy', 'file']);
  });
});

describe('migration 0026', () => {
  it('indexes the rows already stored; down removes the index', async () => {
    const { owner, self, daughter } = await family();
    await migrateTo(db(), '0025-file-text');
    const tables = async () => (await db().introspection.getTables()).map((table) => table.name);
    expect(await tables()).not.toContain('search_entries');
    const file = await insertFile(owner, daughter, { display_name: 'Old scan', pages: ['thyroglobulin', 'page two'] });
    await db().updateTable('profiles').set({ allergy_details: 'Thyroglobulin dye' }).where('id', '=', self).execute();
    await migrateToLatest(db());
    const results = await found(owner, 'thyroglobulin');
    expect(results.map((r) => [r.kind, r.id]).sort()).toEqual([
      ['allergy', self],
      ['file', file],
    ]);
    expect(results.find((r) => r.kind === 'file')).toMatchObject({ page: 1, person_name: 'Mia Rivera' });
  });
});
