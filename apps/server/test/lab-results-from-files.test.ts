// Issue 34, docs/decisions/0052: the lab values a file's text holds, found on request for anyone who
// may read the file, accepted by an editor as the person's lab results (linked to the file and
// page, never twice), and the table of tests searched to map an unmapped row. Through the real
// upload → text job → route, on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AcceptLabResultsAnswer, FileLabResults, FoundLabResult, LabTests } from '@kinchart/shared/labs';
import { acceptLabResultsPath, fileLabResultsPath, labTestsPath } from '@kinchart/shared/labs';
import type { LabResult } from '@kinchart/shared/clinical';
import type { MedicalFile } from '@kinchart/shared/files';
import type { TestApp } from './helpers';
import { buildTestApp, signedInUser, TestClient } from './helpers';
import { uploadRecord } from './files-helpers';
import { exportZip, importFile } from './export-helpers';
import { insertMember, selfProfileId } from './factories';
import { insertShare } from './share-factories';
import { germanReport, letterWithoutValues, rotatedReport, scannedReport, twoColumnReport, usClinicReport } from './lab-fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

type User = Awaited<ReturnType<typeof signedInUser>>;

async function uploaded(client: TestClient, filename: string, content: Buffer, fields: Record<string, string> = {}): Promise<MedicalFile> {
  const res = await uploadRecord(client, { filename, content }, fields);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<MedicalFile>();
}

async function found(client: TestClient, id: string): Promise<FileLabResults> {
  const res = await client.get(fileLabResultsPath(id));
  expect(res.statusCode, res.body).toBe(200);
  return res.json<FileLabResults>();
}

async function labList(client: TestClient, personId: string): Promise<LabResult[]> {
  const res = await client.get(`/api/user/people/${personId}/lab-results`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<LabResult[]>();
}

/** A clinic's table as plain text: the columns as a printout spaces them. */
const CLINIC_TEXT = [
  'Valley Clinic Laboratory',
  'Collected: 03/04/2026',
  'Test              Result   Flag   Units    Reference range',
  'Ferritin          8        L      ng/mL    16-232',
  'Hemoglobin A1c    6.1      H      %        <5.7',
  'Glucose           5.2             mmol/L   3.9-5.5',
  'Urine protein     negative                 negative',
].join('\n');

/** A person of `owner` shared with an editor, a viewer and nobody else; answers the ids. */
async function sharedWorld(): Promise<{ owner: User; editor: User; viewer: User; stranger: User; person: string }> {
  const owner = await signedInUser(t.app, { username: 'Olivia Owner' });
  const editor = await signedInUser(t.app, { username: 'Eddie Editor' });
  const viewer = await signedInUser(t.app, { username: 'Vera Viewer' });
  const stranger = await signedInUser(t.app, { username: 'Sam Stranger' });
  const person = await insertMember(t.database.db, owner.id, { name: 'Mia Rivera' });
  await insertShare(t.database.db, { profileId: person, ownerId: owner.id, holderId: editor.id, role: 'editor' });
  await insertShare(t.database.db, { profileId: person, ownerId: owner.id, holderId: viewer.id, role: 'viewer' });
  return { owner, editor, viewer, stranger, person };
}

const strip = (rows: FoundLabResult[]) => rows.map(({ line: _line, source_text: _source, loinc_display: _display, ...rest }) => rest);

describe('lab values found in a file', () => {
  it('is pending until the text is read, then lists the rows with their line, code and display', async () => {
    const { client } = await signedInUser(t.app);
    const file = await uploaded(client, 'labs.txt', Buffer.from(CLINIC_TEXT, 'utf8'));
    expect(await found(client, file.id)).toEqual({ status: 'pending', results: [] });
    await t.app.textJobs.drain();
    const answer = await found(client, file.id);
    expect(answer.status).toBe('done');
    expect(answer.results).toEqual([
      {
        name: 'Ferritin',
        loinc: '2276-4',
        loinc_display: expect.stringContaining('Ferritin') as string,
        value: 8,
        unit: 'ng/mL',
        ucum_unit: 'ng/mL',
        reference_low: 16,
        reference_high: 232,
        reference_text: '16-232',
        flag: 'L',
        date: '2026-03-04',
        page: 1,
        line: 3,
        source_text: 'Ferritin          8        L      ng/mL    16-232',
      },
      {
        name: 'Hemoglobin A1c',
        loinc: '4548-4',
        loinc_display: expect.stringContaining('Hemoglobin A1c') as string,
        value: 6.1,
        unit: '%',
        ucum_unit: '%',
        reference_low: null,
        reference_high: 5.7,
        reference_text: '<5.7',
        flag: 'H',
        date: '2026-03-04',
        page: 1,
        line: 4,
        source_text: 'Hemoglobin A1c    6.1      H      %        <5.7',
      },
      {
        name: 'Glucose',
        loinc: '2345-7',
        loinc_display: expect.stringContaining('Glucose') as string,
        value: 5.2,
        unit: 'mmol/L',
        ucum_unit: 'mmol/L',
        reference_low: 3.9,
        reference_high: 5.5,
        reference_text: '3.9-5.5',
        flag: null,
        date: '2026-03-04',
        page: 1,
        line: 5,
        source_text: 'Glucose           5.2             mmol/L   3.9-5.5',
      },
      expect.objectContaining({ name: 'Urine protein', value: 'negative', page: 1, line: 6 }) as FoundLabResult,
    ]);
    // The line index points into the page's text as GET …/text gives it.
    const text = (await client.get(`/api/user/files/${file.id}/text`)).json<{ pages: { text: string }[] }>();
    for (const row of answer.results) expect(text.pages[0]?.text.split('\n')[row.line]).toContain(row.source_text);
  });

  it('says none for a text without lab values and for a file whose text cannot be read', async () => {
    const { client } = await signedInUser(t.app);
    const letter = await uploaded(
      client,
      'letter.txt',
      Buffer.from('Dear Ms Rivera,\nyour ferritin was a little low, so please take 100 mg iron daily.\nKind regards', 'utf8'),
    );
    await t.app.textJobs.drain();
    expect(await found(client, letter.id)).toEqual({ status: 'none', results: [] });
    await t.database.db.updateTable('file_text_jobs').set({ status: 'failed', reason: 'x' }).where('file_id', '=', letter.id).execute();
    expect(await found(client, letter.id)).toEqual({ status: 'none', results: [] });
  });
});

/** A row as the fixture tests compare it: name, code, value, unit, range, flag, date, page. */
type Compact = [string, string | null, number | string, string | null, number | null, number | null, string | null, string | null, number];
const compact = (rows: FoundLabResult[]): Compact[] =>
  rows.map((r) => [r.name, r.loinc, r.value, r.unit, r.reference_low, r.reference_high, r.flag, r.date, r.page]);

describe('lab values found in generated lab reports (upload, text job, route)', () => {
  async function read(fixture: () => Promise<Buffer>, name: string) {
    const { client } = await signedInUser(t.app);
    const file = await uploaded(client, name, await fixture());
    await t.app.textJobs.drain();
    const answer = await found(client, file.id);
    const text = (await client.get(`/api/user/files/${file.id}/text`)).json<{ pages: { page: number; text: string }[] }>();
    // Every row points at its line in the page's text.
    for (const row of answer.results) {
      expect(text.pages[row.page - 1]?.text.split('\n')[row.line], row.name).toContain(row.source_text);
    }
    return answer;
  }

  it('reads a US clinic table with flags and a month-first collection date', async () => {
    const answer = await read(usClinicReport, 'us-clinic.pdf');
    expect(answer.status).toBe('done');
    const d = '2026-03-04';
    expect(compact(answer.results)).toEqual([
      ['Ferritin', '2276-4', 8, 'ng/mL', 16, 232, 'L', d, 1],
      ['Hemoglobin A1c', '4548-4', 6.1, '%', 4, 5.6, 'H', d, 1],
      ['Hemoglobin', '718-7', 13.2, 'g/dL', 12, 15.5, null, d, 1],
      ['Glucose', '2345-7', 105, 'mg/dL', 65, 99, 'H', d, 1],
      ['Creatinine', '2160-0', 0.82, 'mg/dL', 0.5, 1.1, null, d, 1],
      ['TSH', '3016-3', 2.1, 'mIU/L', 0.4, 4, null, d, 1],
    ]);
    // The cells of the PDF's table stay apart (a column gap is three spaces), not glued together.
    expect(answer.results[0]).toMatchObject({
      source_text: 'Ferritin   8   L   ng/mL   16-232',
      reference_text: '16-232',
      ucum_unit: 'ng/mL',
    });
    expect(answer.results[5]).toMatchObject({ ucum_unit: 'm[IU]/L', loinc_display: 'Thyrotropin [Units/volume] in Serum or Plasma' });
  });

  it('reads a German report: decimal commas, German names, "< 0,5", word flags, Entnahme', async () => {
    const answer = await read(germanReport, 'befund.pdf');
    const d = '2026-03-14';
    expect(compact(answer.results)).toEqual([
      ['Ferritin', '2276-4', 12, 'μg/l', 13, 150, 'L', d, 1],
      ['HbA1c', '4548-4', 5.9, '%', 4, 6, null, d, 1],
      ['Hämoglobin', '718-7', 12.8, 'g/dl', 12, 16, null, d, 1],
      ['Kreatinin', '2160-0', 1.12, 'mg/dl', 0.5, 0.9, 'H', d, 1],
      ['CRP', '1988-5', 0.3, 'mg/dl', null, 0.5, null, d, 1],
    ]);
    expect(answer.results.map((r) => r.reference_text)).toEqual(['13 - 150', '4,0 - 6,0', '12,0 - 16,0', '0,50 - 0,90', '< 0,5']);
  });

  it('reads a two-column report whose table runs onto page 2 (left row, right row, the date from page 1)', async () => {
    const answer = await read(twoColumnReport, 'two-columns.pdf');
    const d = '2026-02-20';
    expect(compact(answer.results)).toEqual([
      ['Sodium', '2951-2', 140, 'mmol/L', 136, 145, null, d, 1],
      ['Potassium', '2823-3', 4.1, 'mmol/L', 3.5, 5.1, null, d, 1],
      ['Chloride', '2075-0', 101, 'mmol/L', 98, 107, null, d, 1],
      ['Calcium', '17861-6', 9.4, 'mg/dL', 8.6, 10.3, null, d, 1],
      ['Cholesterol', '2093-3', 212, 'mg/dL', null, 200, null, d, 1],
      ['Triglycerides', '2571-8', 150, 'mg/dL', null, 150, null, d, 1],
      ['HDL cholesterol', '2085-9', 48, 'mg/dL', 40, null, null, d, 2],
      ['LDL cholesterol', '13457-7', 134, 'mg/dL', null, 130, null, d, 2],
      ['ALT', '1742-6', 22, 'U/L', 7, 56, null, d, 2],
      ['AST', '1920-8', 19, 'U/L', 10, 40, null, d, 2],
    ]);
    // Side by side on one line of the page's text, the gap between them.
    expect(answer.results[0]?.line).toBe(answer.results[1]?.line);
  });

  it('reads a scanned (image-only) report through OCR, its columns kept apart', async () => {
    const answer = await read(scannedReport, 'scan.pdf');
    const d = '2026-01-15';
    expect(compact(answer.results)).toEqual([
      ['Ferritin', '2276-4', 25, 'ng/mL', 30, 400, 'L', d, 1],
      ['Vitamin B12', '2132-9', 180, 'pg/mL', 200, 900, 'L', d, 1],
      ['TSH', '3016-3', 1.8, 'mIU/L', 0.4, 4, null, d, 1],
    ]);
  });

  it('reads a page stored turned a quarter the way it is shown, upright', async () => {
    const answer = await read(rotatedReport, 'rotated.pdf');
    expect(compact(answer.results)).toEqual([
      ['Ferritin', '2276-4', 41, 'ng/mL', 30, 400, null, '2026-04-02', 1],
      ['Glucose', '2345-7', 92, 'mg/dL', 70, 99, null, '2026-04-02', 1],
    ]);
  });

  it('finds nothing in a letter that names tests and numbers', async () => {
    expect(await read(letterWithoutValues, 'letter.pdf')).toEqual({ status: 'none', results: [] });
  });

  it('plots ferritin from the US clinic (ng/mL) and the German lab (µg/l) on one axis, each point linked to its page', async () => {
    const { client, id } = await signedInUser(t.app);
    const me = await selfProfileId(t.database.db, id);
    const us = await uploaded(client, 'us-clinic.pdf', await usClinicReport());
    const de = await uploaded(client, 'befund.pdf', await germanReport());
    await t.app.textJobs.drain();
    for (const file of [us, de]) {
      const rows = (await found(client, file.id)).results;
      const res = await client.post(acceptLabResultsPath(file.id), { results: rows });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json<AcceptLabResultsAnswer>()).toEqual({ created: rows.length, already_present: 0 });
    }
    const list = await labList(client, me);
    const ferritin = list.filter((r) => r.loinc_code === '2276-4');
    expect(ferritin.map((r) => [r.date, r.value, r.unit, r.trend, r.source_file_id, r.source_page])).toEqual([
      ['2026-03-14', 12, 'μg/l', { value: 12, unit: 'ng/mL', reference_low: 13, reference_high: 150 }, de.id, 1],
      ['2026-03-04', 8, 'ng/mL', { value: 8, unit: 'ng/mL', reference_low: 16, reference_high: 232 }, us.id, 1],
    ]);
    const a1c = list.filter((r) => r.loinc_code === '4548-4');
    expect(a1c.map((r) => [r.date, r.trend?.value, r.trend?.unit, r.interpretation])).toEqual([
      ['2026-03-14', 5.9, '%', null],
      ['2026-03-04', 6.1, '%', 'H'],
    ]);
  });
});

describe('accepting lab values', () => {
  it('adds them for the file’s person, linked to file and page, and never twice', async () => {
    const { owner, editor, person } = await sharedWorld();
    const file = await uploaded(owner.client, 'labs.txt', Buffer.from(CLINIC_TEXT, 'utf8'), { personId: person });
    await t.app.textJobs.drain();
    const rows = (await found(editor.client, file.id)).results;
    expect(rows).toHaveLength(4);

    const first = await editor.client.post(acceptLabResultsPath(file.id), { results: rows });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json<AcceptLabResultsAnswer>()).toEqual({ created: 4, already_present: 0 });
    const again = await editor.client.post(acceptLabResultsPath(file.id), { results: rows });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json<AcceptLabResultsAnswer>()).toEqual({ created: 0, already_present: 4 });

    const list = await labList(owner.client, person);
    expect(list).toHaveLength(4);
    const ferritin = list.find((r) => r.loinc_code === '2276-4');
    expect(ferritin).toMatchObject({
      name: 'Ferritin',
      category: 'laboratory',
      value: 8,
      value_text: null,
      unit: 'ng/mL',
      reference_low: 16,
      reference_high: 232,
      reference_range: '16-232',
      interpretation: 'L',
      out_of_range: true,
      date: '2026-03-04',
      source_file_id: file.id,
      source_page: 1,
      trend: { value: 8, unit: 'ng/mL', reference_low: 16, reference_high: 232 },
    });
    expect(list.find((r) => r.name === 'Urine protein')).toMatchObject({
      loinc_code: '2888-6',
      value: null,
      value_text: 'negative',
      reference_range: null,
      interpretation: null,
      trend: null,
    });
    // Glucose in mmol/L plots in the table's unit (mg/dL) with the molar mass the table gives.
    const glucose = list.find((r) => r.loinc_code === '2345-7');
    expect(glucose?.trend?.unit).toBe('mg/dL');
    expect(glucose?.trend?.value).toBeCloseTo(93.7, 0);

    // The file goes: the results stay, unlinked.
    expect((await owner.client.delete(`/api/user/files/${file.id}`)).statusCode).toBe(200);
    const after = await labList(owner.client, person);
    expect(after).toHaveLength(4);
    expect(after.every((r) => r.source_file_id === null && r.source_page === 1)).toBe(true);
  });

  it('keeps the link through an export restored into another account: the result names the restored file', async () => {
    const source = await signedInUser(t.app);
    const file = await uploaded(source.client, 'labs.txt', Buffer.from(CLINIC_TEXT, 'utf8'));
    await t.app.textJobs.drain();
    const rows = (await found(source.client, file.id)).results;
    expect((await source.client.post(acceptLabResultsPath(file.id), { results: rows })).statusCode).toBe(201);

    const target = await signedInUser(t.app);
    const res = await importFile(target.client, await exportZip(source.client), 'export.zip');
    expect(res.statusCode, res.body).toBe(200);
    const files = (await target.client.get('/api/user/files')).json<MedicalFile[]>();
    expect(files).toHaveLength(1);
    const list = await labList(target.client, await selfProfileId(t.database.db, target.id));
    expect(list).toHaveLength(4);
    expect(list.map((r) => [r.source_file_id, r.source_page])).toEqual(Array.from({ length: 4 }, () => [files[0]!.id, 1]));
    expect(files[0]!.id).not.toBe(file.id);
  });

  it('does not double a result the person already has (typed or imported), by code or by name without case', async () => {
    const { client, id } = await signedInUser(t.app);
    const me = await selfProfileId(t.database.db, id);
    const typed = await client.post(`/api/user/people/${me}/lab-results`, {
      name: 'Serum ferritin',
      loinc_code: '2276-4',
      value: 8,
      unit: 'ng/mL',
      date: '2026-03-04',
    });
    expect(typed.statusCode, typed.body).toBe(201);
    const unmapped = await client.post(`/api/user/people/${me}/lab-results`, {
      name: 'URINE PROTEIN',
      value_text: 'Negative',
      date: '2026-03-04',
    });
    expect(unmapped.statusCode, unmapped.body).toBe(201);
    const file = await uploaded(client, 'labs.txt', Buffer.from(CLINIC_TEXT, 'utf8'));
    await t.app.textJobs.drain();
    const rows = (await found(client, file.id)).results;
    const res = await client.post(acceptLabResultsPath(file.id), { results: rows });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<AcceptLabResultsAnswer>()).toEqual({ created: 2, already_present: 2 });
    // An edited row is a different result: a changed value is added.
    const edited = await client.post(acceptLabResultsPath(file.id), { results: [{ ...rows[0], value: 9 }] });
    expect(edited.json<AcceptLabResultsAnswer>()).toEqual({ created: 1, already_present: 0 });
  });

  it('lets a viewer read the rows but not accept them (403); a stranger gets 404 like a missing file', async () => {
    const { owner, viewer, stranger, person } = await sharedWorld();
    const file = await uploaded(owner.client, 'labs.txt', Buffer.from(CLINIC_TEXT, 'utf8'), { personId: person });
    await t.app.textJobs.drain();
    const rows = (await found(viewer.client, file.id)).results;
    expect(rows).toHaveLength(4);
    const denied = await viewer.client.post(acceptLabResultsPath(file.id), { results: rows });
    expect(denied.statusCode).toBe(403);
    const missing = await owner.client.get(fileLabResultsPath('00000000-0000-4000-8000-000000000000'));
    expect(missing.statusCode).toBe(404);
    for (const res of [
      await stranger.client.get(fileLabResultsPath(file.id)),
      await stranger.client.post(acceptLabResultsPath(file.id), { results: rows }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(missing.json());
    }
    expect(await labList(owner.client, person)).toEqual([]);
  });

  it('refuses rows that do not hold, naming the field, and writes nothing', async () => {
    const { client, id } = await signedInUser(t.app);
    const file = await uploaded(client, 'labs.txt', Buffer.from(CLINIC_TEXT, 'utf8'));
    await t.app.textJobs.drain();
    const rows = (await found(client, file.id)).results;
    const good = rows[0] as FoundLabResult;
    const cases: [unknown, string][] = [
      [{ results: [] }, 'results: must hold at least one row'],
      [{ results: Array.from({ length: 501 }, () => good) }, 'results: must hold at most 500 rows'],
      [{ results: [good, { ...good, name: '' }] }, 'results.1.name: must not be empty'],
      [{ results: [{ ...good, name: 'x'.repeat(201) }] }, 'results.0.name: must be at most 200 characters'],
      [{ results: [good, { ...good, loinc: '9999-9' }] }, 'results.1.loinc: must be a LOINC code of the table or null'],
      [{ results: [{ ...good, value: 'x'.repeat(101) }] }, 'results.0.value'],
      [{ results: [{ ...good, value: '' }] }, 'results.0.value'],
      [{ results: [{ ...good, unit: 'u'.repeat(41) }] }, 'results.0.unit'],
      [{ results: [{ ...good, reference_low: 'low' }] }, 'results.0.reference_low'],
      [{ results: [{ ...good, reference_text: 'r'.repeat(101) }] }, 'results.0.reference_text'],
      [{ results: [{ ...good, flag: 'X' }] }, 'results.0.flag'],
      [{ results: [{ ...good, date: '2026-02-30' }] }, 'results.0.date'],
      [{ results: [{ ...good, date: '2999-01-01' }] }, 'results.0.date: must not be in the future'],
      [{ results: [{ ...good, page: 0 }] }, 'results.0.page: must be at least 1'],
      [{ results: [{ ...good, page: 2 }] }, 'results.0.page: must be at most 1'],
    ];
    for (const [body, message] of cases) {
      const res = await client.post(acceptLabResultsPath(file.id), body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 100)).toBe(400);
      expect(res.json<{ message: string }>().message).toContain(message);
    }
    const me = await selfProfileId(t.database.db, id);
    expect(await labList(client, me)).toEqual([]);
    expect(strip(rows)).toHaveLength(4);
  });
});

describe('the table of tests', () => {
  it('finds tests by the beginning of their names in four languages, without case or accents', async () => {
    const { client } = await signedInUser(t.app);
    const search = async (q: string) => {
      const res = await client.get(labTestsPath(q));
      expect(res.statusCode, res.body).toBe(200);
      return res.json<LabTests>().tests;
    };
    expect((await search('ferr'))[0]).toEqual({ loinc: '2276-4', name: expect.stringContaining('Ferritin') as string, ucum_unit: 'ng/mL' });
    expect((await search('HAMOGLOBIN')).map((x) => x.loinc)).toContain('718-7');
    expect((await search('créat')).map((x) => x.loinc)).toContain('2160-0');
    expect((await search('glucosa')).map((x) => x.loinc)).toContain('2345-7');
    expect((await search('hb')).length).toBeLessThanOrEqual(20);
    expect(await search('zzzz')).toEqual([]);
    for (const q of ['', 'x'.repeat(101)]) {
      const res = await client.get(labTestsPath(q));
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toContain('q');
    }
    expect((await new TestClient(t.app).get(labTestsPath('ferr'))).statusCode).toBe(401);
  });
});
