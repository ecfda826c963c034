// Issue 34, docs/decisions/0053: FHIR import keeps an allergy's substance and codings, its reactions,
// the highest reaction severity and its criticality; a re-import adds no duplicate (same code or
// same substance text); "none known", refuted or negated allergies never become entries (DESIGN §12);
// the IPS export writes them back (validated), so an export imported again gives the same entries.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { buildTestApp, signedInUser } from './helpers';
import { exportZip, importFile, readZip } from './export-helpers';
import { selfProfileId } from './factories';
import type { FhirChecker } from './fhir-validator';
import { loadFhirChecker } from './fhir-validator';

let t: TestApp;
let check: FhirChecker;
beforeAll(async () => {
  t = await buildTestApp();
  check = await loadFhirChecker();
});
afterAll(async () => {
  await t.close();
});

type Json = Record<string, unknown>;
type User = Awaited<ReturnType<typeof signedInUser>>;

const SNOMED = 'http://snomed.info/sct';
const PEANUT = { system: SNOMED, code: '91935009', display: 'Allergy to peanuts' };
const CLINICAL = 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical';
const VERIFICATION = 'http://terminology.hl7.org/CodeSystem/allergyintolerance-verification';
const status = (system: string, code: string) => ({ coding: [{ system, code }] });
const json = (value: unknown) => Buffer.from(JSON.stringify(value));

async function setUp(): Promise<{ user: User; self: string; list: () => Promise<Json[]> }> {
  const user = await signedInUser(t.app);
  const self = await selfProfileId(t.database.db, user.id);
  return {
    user,
    self,
    list: async () => (await user.client.get(`/api/user/people/${self}/allergies`)).json<Json[]>(),
  };
}

function bundleOf(...allergies: Json[]): Json {
  return {
    resourceType: 'Bundle',
    type: 'collection',
    entry: [
      { fullUrl: 'urn:uuid:p1', resource: { resourceType: 'Patient', id: 'p1', name: [{ text: 'Ada Obi' }], birthDate: '1990-02-03' } },
      ...allergies.map((resource, i) => ({
        fullUrl: `urn:uuid:a${i}`,
        resource: {
          resourceType: 'AllergyIntolerance',
          clinicalStatus: status(CLINICAL, 'active'),
          patient: { reference: 'urn:uuid:p1' },
          ...resource,
        },
      })),
    ],
  };
}

const peanut = {
  code: { coding: [PEANUT], text: 'Peanut' },
  criticality: 'high',
  reaction: [
    { manifestation: [{ text: 'Hives' }, { text: 'Swelling' }], severity: 'mild' },
    { manifestation: [{ coding: [{ system: SNOMED, code: '39579001', display: 'Anaphylaxis' }] }], severity: 'severe' },
    { manifestation: [{ text: 'hives' }], severity: 'moderate' },
  ],
};

describe('FHIR import of allergies', () => {
  it('keeps the reactions (each once), the highest severity and the criticality; none-known and refuted ones add nothing', async () => {
    const { user, list } = await setUp();
    const bundle = bundleOf(
      peanut,
      { code: { text: 'Latex' }, criticality: 'unable-to-assess', reaction: [{ manifestation: [{ text: 'Rash' }] }] },
      { code: { coding: [{ system: SNOMED, code: '716186003', display: 'No known allergy' }] } },
      { code: { text: 'Penicillin' }, verificationStatus: status(VERIFICATION, 'refuted') },
      { code: { text: 'NKDA' } },
    );
    const res = await importFile(user.client, json(bundle), 'allergies.json');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().imported.allergies).toBe(2);
    expect(await list()).toEqual([
      {
        id: expect.any(String),
        substance: 'Peanut',
        reactions: ['Hives', 'Swelling', 'Anaphylaxis'],
        severity: 'severe',
        criticality: 'high',
        codings: [PEANUT],
      },
      { id: expect.any(String), substance: 'Latex', reactions: ['Rash'], severity: null, criticality: 'unable-to-assess', codings: [] },
    ]);
    const profile = (await user.client.get('/api/user/getPatientProfile')).json();
    expect([profile.has_allergies, profile.allergy_details]).toEqual([true, 'Peanut — Hives, Swelling, Anaphylaxis\nLatex — Rash']);

    // Again: nothing added, nothing changed.
    const before = await list();
    expect((await importFile(user.client, json(bundle), 'allergies.json')).json().imported.allergies).toBe(0);
    expect(await list()).toEqual(before);
  });

  it('adds no duplicate of an allergy the person wrote with the same substance, nor of one with the same code', async () => {
    const { user, self, list } = await setUp();
    const base = `/api/user/people/${self}/allergies`;
    expect((await user.client.post(base, { substance: 'peanut', reactions: ['Itching'] })).statusCode).toBe(201);
    expect((await user.client.post(base, { substance: 'Arachis', codings: [{ system: SNOMED, code: '91935009' }] })).statusCode).toBe(201);
    const before = await list();
    const res = await importFile(user.client, json(bundleOf(peanut, { ...peanut, code: { coding: [PEANUT] } })), 'again.json');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().imported.allergies).toBe(0);
    expect(await list()).toEqual(before);
  });

  it('HL7\'s IPS example: the penicillin allergy with its criticality and code; its "no known food allergy" is none', async () => {
    const { user, list } = await setUp();
    const source = readFileSync(path.join(import.meta.dirname, 'fixtures', 'fhir', 'ips-bundle-01.json'));
    expect((await importFile(user.client, source, 'ips-bundle-01.json')).statusCode).toBe(200);
    const penicillin = 'Substance with penicillin structure and antibacterial mechanism of action (substance)';
    expect(await list()).toEqual([
      {
        id: expect.any(String),
        substance: penicillin,
        reactions: [],
        severity: null,
        criticality: 'high',
        codings: [{ system: SNOMED, code: '373270004', display: penicillin }],
      },
    ]);
  });

  it('the IPS export writes the entries (valid IPS), and importing it into another account gives the same entries', async () => {
    const { user, list } = await setUp();
    expect((await importFile(user.client, json(bundleOf(peanut)), 'peanut.json')).statusCode).toBe(200);
    const zip = await readZip(await exportZip(user.client));
    const manifest = JSON.parse(zip.get('kinchart.json')!.toString('utf8')) as { profiles: { is_self: boolean; fhir?: string }[] };
    const document = JSON.parse(zip.get(manifest.profiles.find((p) => p.is_self)!.fhir!)!.toString('utf8')) as Json;
    expect(check.ipsDocument(document)).toEqual([]);
    const allergies = (document.entry as { resource: Json }[])
      .map((e) => e.resource)
      .filter((r) => r.resourceType === 'AllergyIntolerance');
    expect(allergies).toEqual([
      expect.objectContaining({
        code: { coding: [PEANUT], text: 'Peanut' },
        criticality: 'high',
        reaction: [{ manifestation: [{ text: 'Hives' }, { text: 'Swelling' }, { text: 'Anaphylaxis' }], severity: 'severe' }],
      }),
    ]);

    const other = await setUp();
    expect((await importFile(other.user.client, json(document), 'ips.json')).statusCode).toBe(200);
    const strip = (entries: Json[]) => entries.map(({ id: _id, ...e }) => e);
    expect(strip(await other.list())).toEqual(strip(await list()));
  });
});
