// DESIGN §12, decision 0023: a round trip through FHIR — a person's IPS document, exported,
// imported into a new account and exported again loses nothing — every clinical item with its codes
// and dates, the medications with theirs, the allergies and problems — and the second export passes
// the same checks (R4 and the IPS document rules) as the first.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { buildTestApp, signedInUser } from './helpers';
import { addClinicalRecords, exportZip, importFile, makeRichAccount, readZip } from './export-helpers';
import { selfProfileId } from './factories';
import { isAbsentOrUnknown } from '../src/features/import/absent-unknown';
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
type Client = Awaited<ReturnType<typeof signedInUser>>['client'];

/** The IPS document of the account's own profile, from a full export. */
async function ownDocument(client: Client, name: string): Promise<Json> {
  const zip = await readZip(await exportZip(client));
  const manifest = JSON.parse(zip.get('kinchart.json')!.toString('utf8')) as { profiles: { is_self: boolean; name: string | null; fhir?: string }[] };
  const self = manifest.profiles.find((p) => p.is_self && p.name === name)!;
  return JSON.parse(zip.get(self.fhir!)!.toString('utf8')) as Json;
}

const resources = (bundle: Json, type: string): Json[] =>
  (bundle.entry as { resource: Json }[]).map((e) => e.resource).filter((r) => r.resourceType === type);

/** What must survive of each clinical resource: its codes, its text, its dates and values — never its ids. */
function essence(bundle: Json) {
  const codes = (c: unknown) =>
    ((c as { coding?: { system?: string; code?: string }[] } | undefined)?.coding ?? []).map((x) => `${x.system}|${x.code}`).sort();
  const text = (c: unknown) => (c as { text?: string } | undefined)?.text ?? null;
  const sorted = <T>(list: T[]) => list.map((x) => JSON.stringify(x)).sort();
  return {
    Immunization: sorted(
      resources(bundle, 'Immunization').map((r) => ({
        vaccine: codes(r.vaccineCode),
        text: text(r.vaccineCode),
        when: r.occurrenceDateTime ?? null,
        lot: r.lotNumber ?? null,
        dose: (r.protocolApplied as { doseNumberPositiveInt?: number }[] | undefined)?.[0]?.doseNumberPositiveInt ?? null,
      })),
    ),
    Condition: sorted(resources(bundle, 'Condition').map((r) => ({ code: codes(r.code), text: text(r.code), onset: r.onsetDateTime ?? null, status: codes(r.clinicalStatus) }))),
    Procedure: sorted(resources(bundle, 'Procedure').map((r) => ({ code: codes(r.code), text: text(r.code), when: r.performedDateTime ?? null, status: r.status }))),
    Observation: sorted(
      resources(bundle, 'Observation').map((r) => ({
        code: codes(r.code),
        value: r.valueQuantity ?? r.valueString ?? r.valueCodeableConcept ?? null,
        when: r.effectiveDateTime ?? r.effectivePeriod ?? null,
      })),
    ),
    MedicationStatement: sorted(
      resources(bundle, 'MedicationStatement').map((r) => ({ code: codes(r.medicationCodeableConcept), text: text(r.medicationCodeableConcept), status: r.status })),
    ),
    AllergyIntolerance: sorted(resources(bundle, 'AllergyIntolerance').map((r) => ({ code: codes(r.code), text: text(r.code) }))),
  };
}

describe('round trip through FHIR', () => {
  it('export → import into a new account → export: every item, code and date equal', async () => {
    const rich = await makeRichAccount(t);
    await addClinicalRecords(t, rich.user, { selfId: await selfProfileId(t.database.db, rich.user.id), kidId: rich.kidId, petId: rich.petId });
    const first = await ownDocument(rich.user.client, 'Jordan Rivers');
    expect(check.ipsDocument(first)).toEqual([]);

    const target = await signedInUser(t.app, { username: 'Fresh Account' });
    const res = await importFile(target.client, Buffer.from(JSON.stringify(first)), 'jordan.json');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().format).toBe('fhir');
    const second = await ownDocument(target.client, 'Jordan Rivers');
    expect(check.ipsDocument(second)).toEqual([]);

    const before = essence(first);
    const after = essence(second);
    // Nothing was there to lose if the first export were empty.
    expect(before.Immunization).toHaveLength(2);
    expect(before.Condition.length).toBeGreaterThanOrEqual(2);
    expect(before.Procedure).toHaveLength(2);
    expect(after).toEqual(before);

    // Importing the second export again adds nothing.
    const again = await importFile(target.client, Buffer.from(JSON.stringify(second)), 'again.json');
    expect(again.statusCode).toBe(200);
    expect(essence(await ownDocument(target.client, 'Jordan Rivers'))).toEqual(before);
  });

  it('a Synthea patient imported, exported, imported into a new account and exported again keeps every item, code and date', async () => {
    const synthea = readFileSync(path.join(import.meta.dirname, 'fixtures', 'fhir', 'synthea-kermit-trantow.json'));
    const first = await signedInUser(t.app);
    expect((await importFile(first.client, synthea, 'kermit.json')).statusCode).toBe(200);
    const name = (await first.client.get('/api/user/getPatientProfile')).json<{ name: string }>().name;
    const exported = await ownDocument(first.client, name);
    expect(check.ipsDocument(exported)).toEqual([]);

    const second = await signedInUser(t.app);
    expect((await importFile(second.client, Buffer.from(JSON.stringify(exported)), 'kermit-ips.json')).statusCode).toBe(200);
    const again = await ownDocument(second.client, name);
    expect(check.ipsDocument(again)).toEqual([]);
    const before = essence(exported);
    // The import-report test counts these exactly; here they only have to be there, and survive.
    expect(before.Immunization.length).toBeGreaterThan(0);
    expect(before.Observation.length).toBeGreaterThan(10);
    expect(before.MedicationStatement.length).toBeGreaterThan(0);
    expect(essence(again)).toEqual(before);
  });

  // Decision 0023: an allergy is a line of the profile's details, and its codings are kept beside
  // that line, so each one goes out again as an AllergyIntolerance of its own, coded as it came.
  // HL7's IPS example has one coded allergy (and a "no known food allergy", which is none known);
  // the Synthea patient has four.
  it.each(['ips-bundle-01.json', 'synthea-asa-hermiston.json'])(
    'each coded allergy of %s comes back as its own AllergyIntolerance with its codes, through an export, an import into a new account and a second export',
    async (file) => {
      const source = JSON.parse(readFileSync(path.join(import.meta.dirname, 'fixtures', 'fhir', file), 'utf8')) as Json;
      const codesOf = (r: Json) => ((r.code as { coding?: { system?: string; code?: string }[] }).coding ?? []).map((c) => `${c.system}|${c.code}`).sort().join(' ');
      const known = resources(source, 'AllergyIntolerance').filter((r) => !isAbsentOrUnknown(r.code as Parameters<typeof isAbsentOrUnknown>[0]));
      const expected = known.map(codesOf).sort();
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.every((codes) => codes !== '')).toBe(true);

      const first = await signedInUser(t.app);
      expect((await importFile(first.client, Buffer.from(JSON.stringify(source)), file)).statusCode).toBe(200);
      const name = (await first.client.get('/api/user/getPatientProfile')).json<{ name: string }>().name;
      const exported = await ownDocument(first.client, name);
      expect(check.ipsDocument(exported)).toEqual([]);
      expect(resources(exported, 'AllergyIntolerance').map(codesOf).sort()).toEqual(expected);

      const second = await signedInUser(t.app);
      expect((await importFile(second.client, Buffer.from(JSON.stringify(exported)), 'exported.json')).statusCode).toBe(200);
      const again = await ownDocument(second.client, name);
      expect(check.ipsDocument(again)).toEqual([]);
      expect(resources(again, 'AllergyIntolerance').map(codesOf).sort()).toEqual(expected);
      expect(essence(again).AllergyIntolerance).toEqual(essence(exported).AllergyIntolerance);

      // Importing it once more keeps one entry per allergy line.
      expect((await importFile(second.client, Buffer.from(JSON.stringify(exported)), 'exported.json')).statusCode).toBe(200);
      const row = await t.database.db.selectFrom('profiles').select('allergy_codings').where('user_id', '=', second.id).where('is_self', '=', 1).executeTakeFirstOrThrow();
      expect((JSON.parse(row.allergy_codings ?? '[]') as unknown[]).length).toBe(expected.length);
      expect(resources(await ownDocument(second.client, name), 'AllergyIntolerance').map(codesOf).sort()).toEqual(expected);
    },
  );
});
