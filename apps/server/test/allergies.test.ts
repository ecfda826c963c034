// Issue 34, docs/decisions/0053: a person's allergies as entries — GET/POST
// /api/user/people/{personId}/allergies, PUT/DELETE …/{id} — under the people access rules
// (DESIGN §11), kept in step with the profile's has_allergies / allergy_details (SPEC §3).
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

const SNOMED_PEANUT = { system: 'http://snomed.info/sct', code: '762952008', display: 'Peanut' };

/** An owner with a child, shared with a second account as `role`. */
async function family(role: 'manager' | 'editor' | 'viewer' = 'editor') {
  const owner = await signedInUser(t.app, { username: 'Olivia Owner' });
  const holder = await signedInUser(t.app, { username: 'Harry Holder' });
  const child = await insertMember(t.database.db, owner.id, { name: 'Mia Rivera' });
  await insertShare(t.database.db, { profileId: child, ownerId: owner.id, holderId: holder.id, role });
  return { owner, holder, child, ownerSelf: await selfProfileId(t.database.db, owner.id) };
}

async function profileAllergies(profileId: string) {
  return t.database.db
    .selectFrom('profiles')
    .select(['has_allergies', 'allergy_details'])
    .where('id', '=', profileId)
    .executeTakeFirstOrThrow();
}

describe('allergies API', () => {
  it('an owner adds, lists, edits and deletes allergies, and the details text follows them', async () => {
    const { owner, ownerSelf } = await family();
    const base = `/api/user/people/${ownerSelf}/allergies`;
    expect((await owner.client.get(base)).json()).toEqual([]);

    const peanut = await owner.client.post(base, {
      substance: '  Peanuts ',
      reactions: ['Anaphylaxis', ' Hives '],
      severity: 'severe',
      criticality: 'high',
      codings: [SNOMED_PEANUT],
    });
    expect(peanut.statusCode, peanut.body).toBe(201);
    expect(peanut.json()).toMatchObject({
      id: expect.any(String),
      substance: 'Peanuts',
      reactions: ['Anaphylaxis', 'Hives'],
      severity: 'severe',
      criticality: 'high',
      codings: [SNOMED_PEANUT],
      message: 'Allergy added',
    });
    expect(await profileAllergies(ownerSelf)).toEqual({ has_allergies: 1, allergy_details: 'Peanuts — Anaphylaxis, Hives' });

    const latex = await owner.client.post(base, { substance: 'Latex', reactions: [], severity: null, criticality: null });
    expect(latex.statusCode, latex.body).toBe(201);
    expect(latex.json()).toMatchObject({ substance: 'Latex', reactions: [], severity: null, criticality: null, codings: [] });
    expect(await profileAllergies(ownerSelf)).toEqual({ has_allergies: 1, allergy_details: 'Peanuts — Anaphylaxis, Hives\nLatex' });

    const list = await owner.client.get(base);
    expect(list.statusCode).toBe(200);
    expect(list.json().map((a: { substance: string }) => a.substance)).toEqual(['Peanuts', 'Latex']);

    // PUT replaces the entry; codings left out are kept.
    const edited = await owner.client.put(`${base}/${peanut.json().id}`, {
      substance: 'Peanut',
      reactions: ['Hives'],
      severity: 'moderate',
      criticality: 'low',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      id: peanut.json().id,
      substance: 'Peanut',
      reactions: ['Hives'],
      severity: 'moderate',
      criticality: 'low',
      codings: [SNOMED_PEANUT],
      message: 'Allergy updated',
    });
    expect(await profileAllergies(ownerSelf)).toEqual({ has_allergies: 1, allergy_details: 'Peanut — Hives\nLatex' });

    const deleted = await owner.client.delete(`${base}/${peanut.json().id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toMatchObject({ message: 'Allergy deleted' });
    expect(await profileAllergies(ownerSelf)).toEqual({ has_allergies: 1, allergy_details: 'Latex' });

    // The last one gone: no allergies, no text.
    expect((await owner.client.delete(`${base}/${latex.json().id}`)).statusCode).toBe(200);
    expect(await profileAllergies(ownerSelf)).toEqual({ has_allergies: 0, allergy_details: null });
    expect((await owner.client.get(base)).json()).toEqual([]);
    // The profile the editor reads says the same.
    const profile = (await owner.client.get('/api/user/getPatientProfile')).json();
    expect(profile).toMatchObject({ has_allergies: false, allergy_details: null });
  });

  it('adding an allergy replaces a line that said none were known', async () => {
    const { owner, child } = await family();
    const put = await owner.client.put(`/api/user/family/members/${child}`, {
      name: 'Mia Rivera',
      date_of_birth: '2015-09-03',
      relationship: 'daughter',
      is_pet: false,
      has_allergies: false,
      allergy_details: 'NKDA',
    });
    expect(put.statusCode, put.body).toBe(200);
    const res = await owner.client.post(`/api/user/people/${child}/allergies`, { substance: 'Penicillin', reactions: ['Rash'] });
    expect(res.statusCode, res.body).toBe(201);
    expect(await profileAllergies(child)).toEqual({ has_allergies: 1, allergy_details: 'Penicillin — Rash' });
    const list = (await owner.client.get(`/api/user/people/${child}/allergies`)).json();
    expect(list.map((a: { substance: string }) => a.substance)).toEqual(['Penicillin']);
  });

  it.each([
    [{}, 'Substance is required'],
    [{ substance: '   ' }, 'Substance is required'],
    [{ substance: 'x'.repeat(201) }, 'Substance must be at most 200 characters'],
    [{ substance: 'NKDA' }, 'Substance says that no allergies are known: leave the list empty instead'],
    [{ substance: 'Peanuts', reactions: 'Hives' }, 'reactions: reactions must be a list of texts'],
    [
      { substance: 'Peanuts', reactions: Array.from({ length: 11 }, (_, i) => `R${i}`) },
      'reactions: reactions must have at most 10 entries',
    ],
    [{ substance: 'Peanuts', reactions: [''] }, 'Reaction is required'],
    [{ substance: 'Peanuts', severity: 'deadly' }, 'Severity must be one of mild, moderate, severe or null'],
    [{ substance: 'Peanuts', criticality: 'unable to assess' }, 'Criticality must be one of low, high, unable-to-assess or null'],
    [{ substance: 'Peanuts', codings: [{ code: '1' }] }, 'codings.0.system: system is required'],
    [{ substance: 'Peanuts', codings: Array.from({ length: 11 }, () => SNOMED_PEANUT) }, 'codings: codings must have at most 10 entries'],
  ])('rejects %j with a message naming the field', async (body, message) => {
    const { owner, ownerSelf } = await family();
    const res = await owner.client.post(`/api/user/people/${ownerSelf}/allergies`, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ message });
    expect(await profileAllergies(ownerSelf)).toEqual({ has_allergies: 0, allergy_details: null });
  });

  it('refuses an allergy that would make the details text too long, writing nothing', async () => {
    const { owner, ownerSelf } = await family();
    const base = `/api/user/people/${ownerSelf}/allergies`;
    const reactions = Array.from({ length: 10 }, (_, i) => `${i}${'r'.repeat(198)}`);
    for (let i = 0; i < 2; i += 1)
      expect((await owner.client.post(base, { substance: `S${i}${'s'.repeat(190)}`, reactions })).statusCode).toBe(201);
    const before = await profileAllergies(ownerSelf);
    const res = await owner.client.post(base, { substance: 'One more', reactions });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'Allergies: the allergy details would pass 5000 characters' });
    expect(await profileAllergies(ownerSelf)).toEqual(before);
    expect((await owner.client.get(base)).json()).toHaveLength(2);
  });

  it('an editor writes, a viewer only reads (403), a stranger gets 404', async () => {
    const { owner, holder, child } = await family('viewer');
    const base = `/api/user/people/${child}/allergies`;
    const made = await owner.client.post(base, { substance: 'Bee stings', reactions: ['Swelling'] });
    expect(made.statusCode).toBe(201);
    expect((await holder.client.get(base)).json()).toEqual([expect.objectContaining({ substance: 'Bee stings' })]);
    const post = await holder.client.post(base, { substance: 'Eggs' });
    expect(post.statusCode).toBe(403);
    expect((await holder.client.put(`${base}/${made.json().id}`, { substance: 'Eggs' })).statusCode).toBe(403);
    expect((await holder.client.delete(`${base}/${made.json().id}`)).statusCode).toBe(403);

    const stranger = await signedInUser(t.app, { username: 'Sam Stranger' });
    expect((await stranger.client.get(base)).statusCode).toBe(404);
    expect((await stranger.client.post(base, { substance: 'Eggs' })).statusCode).toBe(404);
    expect((await stranger.client.delete(`${base}/${made.json().id}`)).statusCode).toBe(404);

    const editor = await family('editor');
    const editorBase = `/api/user/people/${editor.child}/allergies`;
    const added = await editor.holder.client.post(editorBase, { substance: 'Eggs', reactions: ['Vomiting'], severity: 'mild' });
    expect(added.statusCode, added.body).toBe(201);
    expect((await editor.holder.client.delete(`${editorBase}/${added.json().id}`)).statusCode).toBe(200);
  });

  it("another person's allergy id answers 404 and changes nothing", async () => {
    const { owner, child, ownerSelf } = await family();
    const mine = await owner.client.post(`/api/user/people/${ownerSelf}/allergies`, { substance: 'Latex' });
    expect(mine.statusCode).toBe(201);
    const other = `/api/user/people/${child}/allergies/${mine.json().id}`;
    const put = await owner.client.put(other, { substance: 'Eggs' });
    expect(put.statusCode).toBe(404);
    expect(put.json()).toMatchObject({ message: 'Allergy not found' });
    expect((await owner.client.delete(other)).statusCode).toBe(404);
    expect(await profileAllergies(ownerSelf)).toEqual({ has_allergies: 1, allergy_details: 'Latex' });
    expect(
      (await owner.client.put(`/api/user/people/${ownerSelf}/allergies/00000000-0000-4000-8000-000000000000`, { substance: 'Eggs' }))
        .statusCode,
    ).toBe(404);
  });
});

describe('the details text and the entries stay in step', () => {
  const memberForm = (allergy_details: string | null, has_allergies = true) => ({
    name: 'Mia Rivera',
    date_of_birth: '2015-09-03',
    relationship: 'daughter',
    is_pet: false,
    has_allergies,
    allergy_details,
  });

  it('a saved text keeps the entries of unchanged lines (reactions, codings…), adds new lines and drops removed ones, in its order', async () => {
    const { owner, child } = await family();
    const base = `/api/user/people/${child}/allergies`;
    const peanut = (
      await owner.client.post(base, {
        substance: 'Peanuts',
        reactions: ['Anaphylaxis'],
        severity: 'severe',
        criticality: 'high',
        codings: [SNOMED_PEANUT],
      })
    ).json();
    const latex = (await owner.client.post(base, { substance: 'Latex', reactions: ['Rash'] })).json();
    expect(await profileAllergies(child)).toEqual({ has_allergies: 1, allergy_details: 'Peanuts — Anaphylaxis\nLatex — Rash' });

    // The form sends the text back with a new line first and the latex line gone.
    const put = await owner.client.put(`/api/user/family/members/${child}`, memberForm('Shellfish\r\nPeanuts — Anaphylaxis\n\n'));
    expect(put.statusCode, put.body).toBe(200);
    const after = (await owner.client.get(base)).json();
    expect(after).toEqual([
      { id: expect.any(String), substance: 'Shellfish', reactions: [], severity: null, criticality: null, codings: [] },
      {
        id: peanut.id,
        substance: 'Peanuts',
        reactions: ['Anaphylaxis'],
        severity: 'severe',
        criticality: 'high',
        codings: [SNOMED_PEANUT],
      },
    ]);
    expect(after.some((a: { id: string }) => a.id === latex.id)).toBe(false);
    // The text stays as the person wrote it (SPEC §3), trimmed as every details text is.
    expect(await profileAllergies(child)).toEqual({ has_allergies: 1, allergy_details: 'Shellfish\r\nPeanuts — Anaphylaxis' });

    // And back: a change through the entries writes the derived text.
    expect((await owner.client.put(`${base}/${after[0].id}`, { substance: 'Shellfish', reactions: ['Hives'] })).statusCode).toBe(200);
    expect(await profileAllergies(child)).toEqual({ has_allergies: 1, allergy_details: 'Shellfish — Hives\nPeanuts — Anaphylaxis' });

    // The round trip changes nothing: the same text saved again keeps every entry as it is.
    const before = (await owner.client.get(base)).json();
    expect(
      (await owner.client.put(`/api/user/family/members/${child}`, memberForm('Shellfish — Hives\nPeanuts — Anaphylaxis'))).statusCode,
    ).toBe(200);
    expect((await owner.client.get(base)).json()).toEqual(before);
  });

  it('an emptied text deletes every entry; the own profile update follows the same rules', async () => {
    const { owner, child, ownerSelf } = await family();
    await owner.client.post(`/api/user/people/${child}/allergies`, { substance: 'Latex' });
    expect((await owner.client.put(`/api/user/family/members/${child}`, memberForm('', false))).statusCode).toBe(200);
    expect((await owner.client.get(`/api/user/people/${child}/allergies`)).json()).toEqual([]);

    const res = await owner.client.put('/api/user/updateProfile', {
      name: 'Olivia Owner',
      has_allergies: true,
      allergy_details: 'Penicillin\nNuts',
    });
    expect(res.statusCode, res.body).toBe(200);
    const own = (await owner.client.get(`/api/user/people/${ownerSelf}/allergies`)).json();
    expect(own.map((a: { substance: string }) => a.substance)).toEqual(['Penicillin', 'Nuts']);
  });

  it('parallel allergy writes and profile saves leave the text and the entries in step', async () => {
    const { owner, child } = await family();
    const base = `/api/user/people/${child}/allergies`;
    const writes = Array.from({ length: 6 }, (_, i) =>
      i % 2 === 0
        ? owner.client.post(base, { substance: `Substance ${i}`, reactions: ['Rash'] })
        : owner.client.put(`/api/user/family/members/${child}`, memberForm(`Line ${i}\nOther ${i}`)),
    );
    for (const res of await Promise.all(writes)) expect(res.statusCode, res.body).toBeLessThan(300);
    const { allergy_details } = await profileAllergies(child);
    const entries = (await owner.client.get(base)).json<{ substance: string; reactions: string[] }[]>();
    const line = (e: { substance: string; reactions: string[] }) =>
      e.reactions.length ? `${e.substance} — ${e.reactions.join(', ')}` : e.substance;
    expect(entries.map(line)).toEqual((allergy_details ?? '').split('\n'));
  });
});
