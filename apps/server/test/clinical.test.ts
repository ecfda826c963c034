// DESIGN §12: immunizations, lab results and vital signs, conditions and procedures per person —
// GET/POST /api/user/people/{personId}/{kind}, PUT/DELETE …/{id}, under the people access rules
// (DESIGN §11): validation, partial dates, codings kept, order, caps, audit, 404/403.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const LOINC_HBA1C = { system: 'http://loinc.org', code: '4548-4', display: 'Hemoglobin A1c/Hemoglobin.total in Blood' };

/** An owner with a child, shared with a second account as `role`. */
async function family(role: 'manager' | 'editor' | 'viewer' = 'editor') {
  const owner = await signedInUser(t.app, { username: 'Olivia Owner' });
  const holder = await signedInUser(t.app, { username: 'Harry Holder' });
  const child = await insertMember(t.database.db, owner.id, { name: 'Mia Rivera' });
  const shareId = await insertShare(t.database.db, { profileId: child, ownerId: owner.id, holderId: holder.id, role });
  return { owner, holder, child, shareId, ownerSelf: await selfProfileId(t.database.db, owner.id) };
}

const examples = {
  immunizations: {
    vaccine: 'MMR',
    date: '2019-05',
    dose_number: 1,
    lot_number: 'AB123',
    site: 'Left arm',
    performer: 'Dr Lee',
    notes: 'No reaction',
  },
  'lab-results': {
    name: 'HbA1c',
    loinc_code: '4548-4',
    value: 6.1,
    unit: '%',
    reference_low: 4,
    reference_high: 5.6,
    date: '2024-02-10',
    codings: [LOINC_HBA1C],
  },
  conditions: {
    name: 'Asthma',
    status: 'active',
    onset_date: '2015',
    codings: [{ system: 'http://snomed.info/sct', code: '195967001', display: 'Asthma' }],
  },
  procedures: { name: 'Appendectomy', status: 'completed', performed_date: '2010-07-03', performer: 'City Hospital' },
} as const;
type Kind = keyof typeof examples;
const KINDS = Object.keys(examples) as Kind[];

describe.each(KINDS)('%s', (kind) => {
  it("adds, lists, edits and deletes an item of the user's own profile", async () => {
    const { owner, ownerSelf } = await family();
    const base = `/api/user/people/${ownerSelf}/${kind}`;
    const created = await owner.client.post(base, examples[kind]);
    expect(created.statusCode, created.body).toBe(201);
    const item = created.json();
    expect(item).toMatchObject({ ...examples[kind], person_id: ownerSelf });
    expect(item.message).toMatch(/ added successfully!$/);
    expect(item.id).toEqual(expect.any(String));

    const list = await owner.client.get(base);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([expect.objectContaining({ id: item.id, ...examples[kind] })]);

    const edited = await owner.client.put(`${base}/${item.id}`, { ...examples[kind], notes: 'Seen again' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ id: item.id, notes: 'Seen again' });
    expect(edited.json().message).toMatch(/ updated successfully!$/);

    const deleted = await owner.client.delete(`${base}/${item.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().message).toMatch(/ deleted successfully$/);
    expect((await owner.client.get(base)).json()).toEqual([]);
    expect((await owner.client.delete(`${base}/${item.id}`)).statusCode).toBe(404);
  });

  it('a stranger gets 404 for the person and for the item; a viewer reads and gets 403 on writes; an editor writes', async () => {
    const viewerFamily = await family('viewer');
    const { owner, holder: viewer, child } = viewerFamily;
    const stranger = await signedInUser(t.app);
    const base = `/api/user/people/${child}/${kind}`;
    const item = (await owner.client.post(base, examples[kind])).json();

    for (const res of [await stranger.client.get(base), await stranger.client.post(base, examples[kind])]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ message: 'Person not found' });
    }
    // On an item, the same answer as an unknown item id.
    const unknown = (await owner.client.delete(`${base}/00000000-0000-4000-8000-000000000000`)).json();
    expect(unknown.message).toMatch(/ not found$/);
    for (const res of [
      await stranger.client.put(`${base}/${item.id}`, examples[kind]),
      await stranger.client.delete(`${base}/${item.id}`),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(unknown);
    }

    expect((await viewer.client.get(base)).json()).toEqual([expect.objectContaining({ id: item.id })]);
    for (const res of [
      await viewer.client.post(base, examples[kind]),
      await viewer.client.put(`${base}/${item.id}`, examples[kind]),
      await viewer.client.delete(`${base}/${item.id}`),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ message: 'Your access to this person is view only' });
    }

    const { holder: editor, child: editorsChild, owner: editorsOwner } = await family('editor');
    const added = await editor.client.post(`/api/user/people/${editorsChild}/${kind}`, examples[kind]);
    expect(added.statusCode).toBe(201);
    // The item is the person's, held by the person's owner.
    const stored = await t.database.db
      .selectFrom(kind === 'lab-results' ? 'lab_results' : kind)
      .select(['user_id', 'profile_id'])
      .where('id', '=', added.json().id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ user_id: editorsOwner.id, profile_id: editorsChild });

    // Shared reads and writes are in the owner's access history, named by route.
    const history = (await owner.client.get(`/api/user/people/${child}/access-history`)).body;
    expect(history).toContain(`GET /api/user/people/:personId/${kind}`);
  });

  it("an item of another person answers 404 through this person's path, even for their owner", async () => {
    const { owner, child, ownerSelf } = await family();
    const item = (await owner.client.post(`/api/user/people/${child}/${kind}`, examples[kind])).json();
    const wrongPath = `/api/user/people/${ownerSelf}/${kind}/${item.id}`;
    expect((await owner.client.put(wrongPath, examples[kind])).statusCode).toBe(404);
    expect((await owner.client.delete(wrongPath)).statusCode).toBe(404);
    expect((await owner.client.get(`/api/user/people/${child}/${kind}`)).json()).toHaveLength(1);
  });

  it('refuses a bad body with 400 and a message naming the field, and writes nothing', async () => {
    const { owner, ownerSelf } = await family();
    const base = `/api/user/people/${ownerSelf}/${kind}`;
    const bad = await owner.client.post(base, { ...examples[kind], notes: 'x'.repeat(2001) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/notes/i);
    const empty = await owner.client.post(base, {});
    expect(empty.statusCode).toBe(400);
    const codings = await owner.client.post(base, { ...examples[kind], codings: 'snomed' });
    expect(codings.statusCode).toBe(400);
    expect((await owner.client.get(base)).json()).toEqual([]);
  });
});

describe('dates and codings', () => {
  it('keeps partial dates as given and refuses impossible ones', async () => {
    const { owner, ownerSelf } = await family();
    const base = `/api/user/people/${ownerSelf}/immunizations`;
    for (const date of ['2015', '2015-03', '2016-02-29', '2015-03-14T10:00:00Z']) {
      const res = await owner.client.post(base, { vaccine: 'Tetanus', date });
      expect(res.statusCode, date).toBe(201);
      expect(res.json().date).toBe(date.slice(0, 10));
    }
    for (const date of ['2015-13', '2015-02-29', '15-03', '2015-3', 'soon', '0000']) {
      const res = await owner.client.post(base, { vaccine: 'Tetanus', date });
      expect(res.statusCode, date).toBe(400);
      expect(res.json().message).toContain('Date must be a date as YYYY, YYYY-MM or YYYY-MM-DD');
    }
  });

  it('lists newest first by date, undated last', async () => {
    const { owner, ownerSelf } = await family();
    const base = `/api/user/people/${ownerSelf}/conditions`;
    for (const onset_date of ['2010', null, '2021-06-01', '2021-06'])
      await owner.client.post(base, { name: `C ${onset_date}`, onset_date });
    expect((await owner.client.get(base)).json().map((c: { onset_date: string | null }) => c.onset_date)).toEqual([
      '2021-06-01',
      '2021-06',
      '2010',
      null,
    ]);
  });

  it("an edit without codings keeps the item's codings; an empty list clears them", async () => {
    const { owner, ownerSelf } = await family();
    const base = `/api/user/people/${ownerSelf}/lab-results`;
    const item = (await owner.client.post(base, examples['lab-results'])).json();
    expect(item.codings).toEqual([LOINC_HBA1C]);
    const { codings: _dropped, ...withoutCodings } = examples['lab-results'];
    expect((await owner.client.put(`${base}/${item.id}`, { ...withoutCodings, value: 5.9 })).json()).toMatchObject({
      value: 5.9,
      codings: [LOINC_HBA1C],
    });
    expect((await owner.client.put(`${base}/${item.id}`, { ...withoutCodings, codings: [] })).json().codings).toEqual([]);
  });
});

describe('lab results', () => {
  const post = async (body: Record<string, unknown>) => {
    const { owner, ownerSelf } = await family();
    return owner.client.post(`/api/user/people/${ownerSelf}/lab-results`, { name: 'Glucose', date: '2024-01-01', ...body });
  };

  it('marks a value out of range by its reference range, or by its interpretation when one is given', async () => {
    expect((await post({ value: 6.1, reference_low: 4, reference_high: 5.6 })).json().out_of_range).toBe(true);
    expect((await post({ value: 5, reference_low: 4, reference_high: 5.6 })).json().out_of_range).toBe(false);
    expect((await post({ value: 3.9, reference_low: 4 })).json().out_of_range).toBe(true);
    expect((await post({ value: 5, reference_high: 5.6, interpretation: 'H' })).json().out_of_range).toBe(true);
    expect((await post({ value: 9, reference_high: 5.6, interpretation: 'N' })).json().out_of_range).toBe(false);
    expect((await post({ value_text: 'positive', interpretation: 'POS' })).json()).toMatchObject({
      value: null,
      value_text: 'positive',
      out_of_range: true,
    });
  });

  it('reads a written range ("4.0-5.6", "<200") into low and high', async () => {
    expect((await post({ value: 5, reference_range: '4.0 - 5.6' })).json()).toMatchObject({
      reference_low: 4,
      reference_high: 5.6,
      reference_range: '4.0 - 5.6',
    });
    expect((await post({ value: 5, reference_range: '<200' })).json()).toMatchObject({ reference_low: null, reference_high: 200 });
    expect((await post({ value: 5, reference_range: 'see report' })).json()).toMatchObject({
      reference_low: null,
      reference_high: null,
      reference_range: 'see report',
    });
  });

  it('needs a value, a real LOINC shape, a known interpretation and a range low below high', async () => {
    expect((await post({})).json()).toMatchObject({ message: expect.stringContaining('Value is required') });
    expect((await post({ value: 1, loinc_code: 'abc' })).json().message).toContain('LOINC code must look like 4548-4');
    expect((await post({ value: 1, interpretation: 'HIGH' })).statusCode).toBe(400);
    expect((await post({ value: 1, reference_low: 9, reference_high: 3 })).json().message).toContain(
      'Reference low cannot be above reference high',
    );
    expect((await post({ value: '7.5' })).statusCode).toBe(400);
    expect((await post({ value: 1, category: 'imaging' })).statusCode).toBe(400);
  });

  it('keeps vital signs apart from laboratory results by category', async () => {
    const res = await post({ name: 'Body weight', value: 70.2, unit: 'kg', category: 'vital-signs', loinc_code: '29463-7' });
    expect(res.json()).toMatchObject({ category: 'vital-signs', loinc_code: '29463-7' });
    expect((await post({ value: 1 })).json().category).toBe('laboratory');
  });
});

describe('immunizations', () => {
  it('takes "lot" as the lot number, and a whole dose number', async () => {
    const { owner, ownerSelf } = await family();
    const base = `/api/user/people/${ownerSelf}/immunizations`;
    expect((await owner.client.post(base, { vaccine: 'Polio', lot: 'L-9' })).json()).toMatchObject({
      lot_number: 'L-9',
      dose_number: null,
      date: null,
    });
    expect((await owner.client.post(base, { vaccine: 'Polio', dose_number: 1.5 })).statusCode).toBe(400);
    expect((await owner.client.post(base, { vaccine: 'Polio', dose_number: 0 })).statusCode).toBe(400);
    expect((await owner.client.post(base, { vaccine: '   ' })).json().message).toContain('Vaccine is required');
  });
});

describe('people', () => {
  it('deleting a family member deletes their clinical items', async () => {
    const { owner, child } = await family();
    for (const kind of KINDS) expect((await owner.client.post(`/api/user/people/${child}/${kind}`, examples[kind])).statusCode).toBe(201);
    expect((await owner.client.delete(`/api/user/family/members/${child}`)).statusCode).toBe(200);
    for (const table of ['immunizations', 'lab_results', 'conditions', 'procedures'] as const) {
      expect(await t.database.db.selectFrom(table).select('id').where('profile_id', '=', child).execute()).toEqual([]);
    }
  });

  it('a revoked share loses access at once', async () => {
    const { owner, holder, child, shareId } = await family('editor');
    expect((await holder.client.get(`/api/user/people/${child}/conditions`)).statusCode).toBe(200);
    expect((await owner.client.delete(`/api/user/people/${child}/shares/${shareId}`)).statusCode).toBe(200);
    expect((await holder.client.get(`/api/user/people/${child}/conditions`)).statusCode).toBe(404);
  });
});
