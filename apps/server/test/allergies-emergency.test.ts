// Issue 34, docs/decisions/0053: the emergency answers carry the allergies as entries — high
// criticality first, then the person's order — exactly when the page shows the allergy details
// (SPEC §5: the flag set and the text present; decision 0035: "none known" lines are not allergies),
// and the wallet card prints them with their reactions.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { TestClient, buildTestApp, signedInUser } from './helpers';
import { insertMember } from './factories';

let t: TestApp;
let tmp: string;
beforeAll(async () => {
  t = await buildTestApp();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kinchart-allergy-card-'));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const PIN = '7314';
const memberForm = (allergy_details: string, has_allergies = true) => ({
  name: 'Mia Rivera',
  date_of_birth: '2015-09-03',
  relationship: 'daughter',
  is_pet: false,
  has_allergies,
  allergy_details,
});

/** A child with three allergies (the second one high criticality) and an opted-in emergency code. */
async function childWithAllergies() {
  const owner = await signedInUser(t.app, { username: 'Olivia Owner' });
  const child = await insertMember(t.database.db, owner.id, { name: 'Mia Rivera' });
  const base = `/api/user/people/${child}/allergies`;
  for (const body of [
    { substance: 'Latex', reactions: ['Rash'], severity: 'mild', criticality: 'low' },
    { substance: 'Peanuts', reactions: ['Anaphylaxis', 'Hives'], severity: 'severe', criticality: 'high' },
    { substance: 'Eggs', reactions: [] },
  ]) {
    expect((await owner.client.post(base, body)).statusCode).toBe(201);
  }
  const setup = await owner.client.post(`/api/user/family/members/${child}/qr`, { pin: PIN });
  expect(setup.statusCode).toBe(201);
  expect((await owner.client.put(`/api/user/family/members/${child}/qr/settings`, { essentials_without_pin: true })).statusCode).toBe(200);
  const share = setup.json().share_id as string;
  const responder = new TestClient(t.app);
  return {
    owner,
    child,
    withPin: async () => (await responder.get(`/api/user/family/emergency/${share}?pin=${PIN}`)).json(),
    essentials: async () => (await responder.get(`/api/user/family/emergency/${share}`)).json().essentials,
  };
}

const PEANUTS = { substance: 'Peanuts', reactions: ['Anaphylaxis', 'Hives'], severity: 'severe', criticality: 'high' };
const LATEX = { substance: 'Latex', reactions: ['Rash'], severity: 'mild', criticality: 'low' };
const EGGS = { substance: 'Eggs', reactions: [], severity: null, criticality: null };

describe('emergency answers', () => {
  it('the PIN answer and the essentials list the entries, high criticality first, then in order', async () => {
    const { withPin, essentials } = await childWithAllergies();
    const info = await withPin();
    expect(info).toMatchObject({
      requirePin: false,
      has_allergies: true,
      allergy_details: 'Latex — Rash\nPeanuts — Anaphylaxis, Hives\nEggs',
    });
    expect(info.allergy_entries).toEqual([PEANUTS, LATEX, EGGS]);
    const e = await essentials();
    expect(e.allergies).toBe('Latex — Rash\nPeanuts — Anaphylaxis, Hives\nEggs');
    expect(e.allergy_entries).toEqual([PEANUTS, LATEX, EGGS]);
  });

  it('a line that says none are known is no entry on the page; without the flag there are none at all', async () => {
    const { owner, child, withPin, essentials } = await childWithAllergies();
    const put = (body: object) => owner.client.put(`/api/user/family/members/${child}`, body);
    expect((await put(memberForm('Latex — Rash\nNo known drug allergies\nPeanuts — Anaphylaxis, Hives'))).statusCode).toBe(200);
    expect((await withPin()).allergy_entries).toEqual([PEANUTS, LATEX]);
    expect((await essentials()).allergy_entries).toEqual([PEANUTS, LATEX]);

    // Only "none known": the page shows no allergies, so no entries either.
    expect((await put(memberForm('NKDA'))).statusCode).toBe(200);
    expect(await withPin()).toMatchObject({ has_allergies: false, allergy_details: null, allergy_entries: [] });
    expect(await essentials()).toMatchObject({ allergies: null, allergy_entries: [] });

    // Flag off, text kept: the page shows nothing, and neither do the entries. (The "NKDA" save
    // dropped the structured Latex entry: this line is new, so its whole text is the substance.)
    expect((await put(memberForm('Latex — Rash', false))).statusCode).toBe(200);
    expect((await owner.client.get(`/api/user/people/${child}/allergies`)).json()).toEqual([
      { id: expect.any(String), ...EGGS, substance: 'Latex — Rash', codings: [] },
    ]);
    expect(await withPin()).toMatchObject({ has_allergies: false, allergy_entries: [] });
    expect(await essentials()).toMatchObject({ allergies: null, allergy_entries: [] });
  });

  it('the wallet card prints the high-criticality allergy first, with its reactions', async () => {
    const { owner, child } = await childWithAllergies();
    const res = await owner.client.get(`/api/user/family/members/${child}/qr/card.pdf`);
    expect(res.statusCode).toBe(200);
    const file = path.join(tmp, `${child}.pdf`);
    fs.writeFileSync(file, res.rawPayload);
    const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    // The card has room for two lines of allergies: the high-criticality one comes first.
    expect(text).toContain('Allergies: Peanuts — Anaphylaxis, Hives; Latex — Rash');
  });
});
