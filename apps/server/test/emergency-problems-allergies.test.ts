// Issue 30, item 18: what the emergency page calls chronic conditions and allergies. A problem that
// is over (resolved, inactive) is not a chronic condition; one in remission says so; a statement
// that no allergies are known ("NKDA", the IPS "no known allergies" codes) is not an allergy
// (docs/decisions/0035-problem-status-and-none-known-allergies.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { TestClient, buildTestApp, signedInUser } from './helpers';
import { importFile } from './export-helpers';
import { rowOf } from './fhir-import-helpers';
import { selfProfileId } from './factories';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

type Owner = Awaited<ReturnType<typeof signedInUser>>;
const PATIENT = 'urn:uuid:6f1c7d1e-0000-4000-8000-000000000001';
const CLINICAL = 'http://terminology.hl7.org/CodeSystem/condition-clinical';
const SNOMED = 'http://snomed.info/sct';
const IPS_ABSENT = 'http://hl7.org/fhir/uv/ips/CodeSystem/absent-unknown-uv-ips';

let counter = 0;
const entry = (resource: Record<string, unknown>) => ({
  fullUrl: `urn:uuid:6f1c7d1e-0000-4000-8000-${String((counter += 1)).padStart(12, '0')}`,
  resource,
});
const condition = (text: string, status: string) =>
  entry({
    resourceType: 'Condition',
    clinicalStatus: { coding: [{ system: CLINICAL, code: status }] },
    code: { text },
    subject: { reference: PATIENT },
  });
const allergy = (code: Record<string, unknown>) =>
  entry({
    resourceType: 'AllergyIntolerance',
    clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: 'active' }] },
    code,
    patient: { reference: PATIENT },
  });
const bundleOf = (...entries: Record<string, unknown>[]) =>
  Buffer.from(
    JSON.stringify({
      resourceType: 'Bundle',
      type: 'collection',
      entry: [{ fullUrl: PATIENT, resource: { resourceType: 'Patient', name: [{ text: 'Robin Hale' }] } }, ...entries],
    }),
  );

/** The owner's own code, with essentials shown without the PIN; the page's two answers for it. */
async function emergencyAnswers(owner: Owner) {
  const setup = await owner.client.post('/api/user/wearable-qr', { pin: '4826' });
  expect(setup.statusCode).toBe(201);
  expect((await owner.client.put('/api/user/wearable-qr/settings', { essentials_without_pin: true })).statusCode).toBe(200);
  const shareId = setup.json().share_id as string;
  const stranger = new TestClient(t.app);
  counter += 1;
  const remoteAddress = `10.30.18.${counter % 250}`;
  const info = await stranger.get(`/api/user/emergency/${shareId}?pin=4826`, { remoteAddress });
  expect(info.statusCode).toBe(200);
  const essentials = await stranger.get(`/api/user/emergency/${shareId}`, { remoteAddress });
  expect(essentials.statusCode).toBe(200);
  return { info: info.json(), essentials: essentials.json().essentials };
}

async function setProfile(owner: Owner, values: Record<string, unknown>) {
  const profileId = await selfProfileId(t.database.db, owner.id);
  await t.database.db.updateTable('profiles').set(values).where('id', '=', profileId).execute();
}

describe('chronic conditions on the emergency page', () => {
  it('an import adds active problems and one in remission ("in remission", not "resolved"), but never a resolved or inactive one', async () => {
    const owner = await signedInUser(t.app);
    const res = await importFile(
      owner.client,
      bundleOf(
        condition('Asthma', 'active'),
        condition('Pneumonia', 'resolved'),
        condition('Broken ankle', 'inactive'),
        condition('Leukemia', 'remission'),
        condition('Gout', 'relapse'),
      ),
      'summary.json',
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(rowOf(res.json(), 'Condition')).toMatchObject({ imported: 5, dropped: [] });
    const profile = (await owner.client.get('/api/user/getPatientProfile')).json();
    expect(profile).toMatchObject({ has_chronic_conditions: true, chronic_condition_details: 'Asthma\nLeukemia (in remission)\nGout' });
    // Every problem is still a structured condition with its own status (the health records screen).
    const personId = await selfProfileId(t.database.db, owner.id);
    const structured = (await owner.client.get(`/api/user/people/${personId}/conditions`)).json<{ name: string; status: string }[]>();
    expect(structured.map((c) => [c.name, c.status]).sort()).toEqual([
      ['Asthma', 'active'],
      ['Broken ankle', 'inactive'],
      ['Gout', 'relapse'],
      ['Leukemia', 'remission'],
      ['Pneumonia', 'resolved'],
    ]);
    const { info, essentials } = await emergencyAnswers(owner);
    expect(info).toMatchObject({ has_chronic_conditions: true, chronic_condition_details: 'Asthma\nLeukemia (in remission)\nGout' });
    expect(essentials.conditions).toBe('Asthma\nLeukemia (in remission)\nGout');
  });

  it('an import of only resolved problems does not say the person has chronic conditions', async () => {
    const owner = await signedInUser(t.app);
    const res = await importFile(
      owner.client,
      bundleOf(condition('Pneumonia', 'resolved'), condition('Broken ankle', 'inactive')),
      'summary.json',
    );
    expect(res.statusCode, res.body).toBe(200);
    expect((await owner.client.get('/api/user/getPatientProfile')).json()).toMatchObject({
      has_chronic_conditions: false,
      chronic_condition_details: null,
    });
  });

  it('leaves out the lines an earlier import marked "(resolved)", and says nothing when no line is left', async () => {
    const owner = await signedInUser(t.app);
    await setProfile(owner, {
      has_chronic_conditions: 1,
      chronic_condition_details: 'Asthma\nPneumonia (resolved)\r\nBroken ankle (Resolved)\nDiabetes',
    });
    const first = await emergencyAnswers(owner);
    expect(first.info).toMatchObject({ has_chronic_conditions: true, chronic_condition_details: 'Asthma\nDiabetes' });
    expect(first.essentials.conditions).toBe('Asthma\nDiabetes');

    const other = await signedInUser(t.app);
    await setProfile(other, { has_chronic_conditions: 1, chronic_condition_details: 'Pneumonia (resolved)' });
    const second = await emergencyAnswers(other);
    expect(second.info).toMatchObject({ has_chronic_conditions: false, chronic_condition_details: null });
    expect(second.essentials.conditions).toBeNull();
  });
});

describe('allergies on the emergency page', () => {
  it('an import of "NKDA", "No known drug allergies", "none" or an IPS no-known-allergies code does not set has_allergies', async () => {
    const owner = await signedInUser(t.app);
    const res = await importFile(
      owner.client,
      bundleOf(
        allergy({ text: 'NKDA' }),
        allergy({ text: 'No known drug allergies.' }),
        allergy({ text: 'none' }),
        allergy({ text: 'No Known Allergies' }),
        allergy({ coding: [{ system: IPS_ABSENT, code: 'no-known-allergies' }], text: 'No known allergies' }),
        allergy({ coding: [{ system: SNOMED, code: '409137002', display: 'No known drug allergy' }] }),
      ),
      'summary.json',
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(rowOf(res.json(), 'AllergyIntolerance')).toMatchObject({
      imported: 0,
      merged: 0,
      dropped: [{ reason: 'saying none are known (nothing to add)', count: 6 }],
    });
    expect((await owner.client.get('/api/user/getPatientProfile')).json()).toMatchObject({ has_allergies: false, allergy_details: null });
  });

  it('a real allergy beside "NKDA" in the same import is kept, and only it', async () => {
    const owner = await signedInUser(t.app);
    const res = await importFile(owner.client, bundleOf(allergy({ text: 'NKA' }), allergy({ text: 'Peanuts' })), 'summary.json');
    expect(res.statusCode, res.body).toBe(200);
    expect((await owner.client.get('/api/user/getPatientProfile')).json()).toMatchObject({
      has_allergies: true,
      allergy_details: 'Peanuts',
    });
  });

  it('details that only say none are known are not shown as an allergy alert', async () => {
    const owner = await signedInUser(t.app);
    await setProfile(owner, { has_allergies: 1, allergy_details: 'NKDA' });
    const { info, essentials } = await emergencyAnswers(owner);
    expect(info.has_allergies).toBe(false);
    expect(essentials.allergies).toBeNull();

    const other = await signedInUser(t.app);
    await setProfile(other, { has_allergies: 1, allergy_details: 'NKDA\nLatex' });
    const both = await emergencyAnswers(other);
    expect(both.info).toMatchObject({ has_allergies: true, allergy_details: 'Latex' });
    expect(both.essentials.allergies).toBe('Latex');
  });
});
