// DESIGN §12, decision 0023: a round trip through FHIR — a person's IPS document, exported,
// imported into a new account and exported again loses nothing — every clinical item with its codes
// and dates, the medications with theirs, the allergies and problems — and the second export passes
// the same checks (R4 and the IPS document rules) as the first.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { buildTestApp, signedInUser } from './helpers';
import { addClinicalRecords, exportZip, importFile, makeRichAccount, readZip, snapshotAccount } from './export-helpers';
import { selfProfileId } from './factories';
import { fixture, uploadRecord } from './files-helpers';
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
  const manifest = JSON.parse(zip.get('kinchart.json')!.toString('utf8')) as {
    profiles: { is_self: boolean; name: string | null; fhir?: string }[];
  };
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
    Condition: sorted(
      resources(bundle, 'Condition').map((r) => ({
        code: codes(r.code),
        text: text(r.code),
        onset: r.onsetDateTime ?? null,
        status: codes(r.clinicalStatus),
      })),
    ),
    Procedure: sorted(
      resources(bundle, 'Procedure').map((r) => ({
        code: codes(r.code),
        text: text(r.code),
        when: r.performedDateTime ?? null,
        status: r.status,
      })),
    ),
    Observation: sorted(
      resources(bundle, 'Observation').map((r) => ({
        code: codes(r.code),
        value: r.valueQuantity ?? r.valueString ?? r.valueCodeableConcept ?? null,
        when: r.effectiveDateTime ?? r.effectivePeriod ?? null,
      })),
    ),
    MedicationStatement: sorted(
      resources(bundle, 'MedicationStatement').map((r) => ({
        code: codes(r.medicationCodeableConcept),
        text: text(r.medicationCodeableConcept),
        status: r.status,
      })),
    ),
    AllergyIntolerance: sorted(resources(bundle, 'AllergyIntolerance').map((r) => ({ code: codes(r.code), text: text(r.code) }))),
  };
}

describe('round trip through FHIR', () => {
  it('export → import into a new account → export: every item, code and date equal', async () => {
    const rich = await makeRichAccount(t);
    await addClinicalRecords(t, rich.user, {
      selfId: await selfProfileId(t.database.db, rich.user.id),
      kidId: rich.kidId,
      petId: rich.petId,
    });
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
      const codesOf = (r: Json) =>
        ((r.code as { coding?: { system?: string; code?: string }[] }).coding ?? [])
          .map((c) => `${c.system}|${c.code}`)
          .sort()
          .join(' ');
      const known = resources(source, 'AllergyIntolerance').filter(
        (r) => !isAbsentOrUnknown(r.code as Parameters<typeof isAbsentOrUnknown>[0]),
      );
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
      const rows = await t.database.db.selectFrom('allergies').select('codings').where('user_id', '=', second.id).execute();
      expect(rows.filter((r) => r.codings !== '[]')).toHaveLength(expected.filter((codes) => codes.length > 0).length);
      expect(
        resources(await ownDocument(second.client, name), 'AllergyIntolerance')
          .map(codesOf)
          .sort(),
      ).toEqual(expected);
    },
  );

  // Issue 30 (item 17): with FHIR alone — the IPS document and the collection beside it — a fully
  // populated person comes back with every field: the profile's flags and texts, organ donation and
  // directives, contacts, providers with their facility, medications, appointments (all-day ones
  // too), clinical items (an active condition's end date too) and files with their bytes.
  it('export → import of the document and the collection into a new account → export: every field of a fully populated person is kept', async () => {
    const source = await signedInUser(t.app, { username: 'Full Person' });
    const c = source.client;
    const ok = (res: { statusCode: number; body: string }, status = 200) => expect(res.statusCode, res.body).toBe(status);
    ok(
      await c.put('/api/user/updateProfile', {
        name: 'Robin Hale',
        date_of_birth: '1979-08-21',
        phone_number: '555-0111',
        email: 'robin@example.com',
        address: '3 Quay Street, Galway',
        blood_type: 'O-',
        height: 171.5,
        weight: 66.2,
        primary_language: 'Irish',
        religious_restrictions: 'No blood products',
        organ_donor: true,
        advance_directives: true,
        living_will: true,
        has_vision_impairment: true,
        has_hearing_impairment: true,
        has_allergies: true,
        allergy_details: 'Penicillin\nPeanuts',
        has_chronic_conditions: true,
        chronic_condition_details: 'Asthma',
        has_bleeding_disorders: true,
        bleeding_disorder_details: 'Von Willebrand disease',
        has_previous_surgeries: true,
        surgery_details: 'Knee arthroscopy 2012',
        has_mobility_issues: true,
        mobility_details: 'Uses a cane',
        had_anesthesia_reactions: true,
        anesthesia_reaction_details: 'Nausea after general anesthesia',
        emergency_contacts: [
          {
            name: 'Sam Hale',
            relationship: 'spouse',
            phone_number: '555-0199',
            email: 'sam@example.com',
            is_primary: true,
            has_medical_power: true,
          },
          { name: 'Ana Hale', relationship: 'sister', phone_number: '555-0142', is_primary: false, has_medical_power: false },
        ],
        healthcare_providers: [
          {
            provider_name: 'Dr. Chen',
            specialty: 'Cardiology',
            facility: 'Riverside Clinic',
            phone_number: '555-0300',
            email: 'chen@example.com',
            address: '1 Main St',
            is_primary: true,
            notes: 'Tuesdays only',
          },
          {
            provider_name: 'Dr. Okoye',
            specialty: 'Dermatology',
            facility: 'Harbour Hospital',
            phone_number: '555-0400',
            is_primary: false,
          },
        ],
        medications: [
          { medication_name: 'Warfarin', dosage: '5 mg', frequency: 'daily', purpose: 'Clots', start_date: '2020-01-01', is_current: true },
          {
            medication_name: 'Amoxicillin',
            dosage: '500 mg',
            frequency: '3x daily',
            purpose: 'Infection',
            start_date: '2019-01-01',
            end_date: '2019-01-10',
            is_current: false,
          },
        ],
      }),
    );
    for (const a of [
      {
        appointment_date: '2026-12-03',
        start_time: '2026-12-03T09:30',
        end_time: '2026-12-03T10:00',
        provider_name: 'Dr. Chen',
        reason_for_visit: 'Check-up',
        location: 'Riverside Clinic',
      },
      {
        appointment_date: '2026-02-01',
        start_time: null,
        end_time: null,
        provider_name: 'Dentist',
        reason_for_visit: 'Cleaning',
        location: null,
      },
    ]) {
      ok(await c.post('/api/user/appointments', a), 201);
    }
    ok(
      await uploadRecord(
        c,
        { filename: 'record.pdf', content: fixture('record.pdf') },
        {
          customName: 'Lab results',
          customDate: '2026-01-05',
          providerName: 'Lab',
          visitLocation: 'Riverside Clinic',
          visitReason: 'Blood test',
        },
      ),
      201,
    );
    ok(
      await uploadRecord(
        c,
        { filename: 'pixel.png', content: fixture('pixel.png') },
        { customName: 'Rash photo', customDate: '2026-01-06' },
      ),
      201,
    );
    const self = await selfProfileId(t.database.db, source.id);
    const add = async (kind: string, body: Record<string, unknown>) => ok(await c.post(`/api/user/people/${self}/${kind}`, body), 201);
    await add('immunizations', {
      vaccine: 'MMR',
      date: '2015-03',
      dose_number: 2,
      lot_number: 'AB123',
      site: 'Left arm',
      performer: 'Dr Lee',
      notes: 'No reaction',
      codings: [{ system: 'http://hl7.org/fhir/sid/cvx', code: '03', display: 'MMR' }],
    });
    await add('lab-results', {
      name: 'HbA1c',
      loinc_code: '4548-4',
      value: 6.1,
      unit: '%',
      reference_low: 4,
      reference_high: 5.6,
      interpretation: 'H',
      date: '2024-02-10',
      notes: 'Fasting',
    });
    await add('lab-results', {
      name: 'Heart rate',
      category: 'vital-signs',
      loinc_code: '8867-4',
      value: 64,
      unit: '/min',
      date: '2024-06-01',
    });
    await add('conditions', { name: 'Migraine', status: 'active', onset_date: '2010', abatement_date: '2024-05', notes: 'Rare now' });
    await add('conditions', { name: 'Fractured wrist', status: 'resolved', onset_date: '2010', abatement_date: '2010-09' });
    await add('procedures', {
      name: 'Knee arthroscopy',
      status: 'completed',
      performed_date: '2012-04-02',
      performer: 'City Hospital',
      notes: 'Left knee',
    });

    const zip = await readZip(await exportZip(c));
    const manifest = JSON.parse(zip.get('kinchart.json')!.toString('utf8')) as {
      profiles: { is_self: boolean; fhir?: string; fhir_other?: string }[];
    };
    const paths = [...zip.keys()].filter((name) => name.startsWith('fhir/'));
    expect(paths).toHaveLength(2);
    const [documentPath, otherPath] = [paths.find((p) => !p.endsWith('-other.json'))!, paths.find((p) => p.endsWith('-other.json'))!];
    expect(manifest.profiles.some((p) => p.is_self)).toBe(true);
    const firstDocument = JSON.parse(zip.get(documentPath)!.toString('utf8')) as Json;
    const firstOther = JSON.parse(zip.get(otherPath)!.toString('utf8')) as Json;
    expect(check.ipsDocument(firstDocument)).toEqual([]);
    expect(check.collection(firstOther)).toEqual([]);

    const target = await signedInUser(t.app, { username: 'Fresh Account' });
    for (const [bundle, name] of [
      [firstDocument, 'robin.json'],
      [firstOther, 'robin-other.json'],
    ] as const) {
      const res = await importFile(target.client, Buffer.from(JSON.stringify(bundle)), name);
      expect(res.statusCode, res.body).toBe(200);
    }

    // Every field the person holds, as the database holds it (ids, stamps and the account's own labels aside).
    const before = await snapshotAccount(t.database.db, source.id, c);
    const after = await snapshotAccount(t.database.db, target.id, target.client);
    // When a row was written is not the person's data; a file's original name is its upload's (an import names it by its record name).
    const unstamped = (rows: Record<string, unknown>[]) => rows.map(({ created_at: _c, updated_at: _u, original_name: _o, ...r }) => r);
    const own = (snapshot: typeof before) => ({
      profile: snapshot.profiles[0],
      emergency_contacts: unstamped(snapshot.emergency_contacts),
      healthcare_providers: unstamped(snapshot.healthcare_providers),
      medications: unstamped(snapshot.medications),
      appointments: unstamped(snapshot.appointments),
      files: unstamped(snapshot.files),
    });
    // Decision 0023: an imported condition is also a line of the details (the SPEC's screens and the
    // emergency page read those), so the current structured condition joins the person's own line
    // there (one that is over stays structured only, decision 0035).
    const expected = own(before);
    expect(own(after)).toEqual({ ...expected, profile: { ...expected.profile, chronic_condition_details: 'Asthma\nMigraine' } });
    // The clinical items all come back; an import also keeps the profile's measurements as results
    // and the details' condition as a structured one (decision 0023), which the export writes once.
    // A result's LOINC code is also written as a coding (decision 0023), which the import keeps.
    const derived = (r: Record<string, unknown>) => {
      if (typeof r.codings !== 'string' || !r.loinc_code) return r;
      const codings = (JSON.parse(r.codings) as { system: string; code: string; display: string }[]).filter(
        (x) => !(x.system === 'http://loinc.org' && x.code === r.loinc_code && x.display === r.name),
      );
      return { ...r, codings: JSON.stringify(codings) };
    };
    for (const table of ['immunizations', 'lab_results', 'conditions', 'procedures'] as const) {
      const strip = (rows: Record<string, unknown>[]) => rows.map(({ created_at: _c, updated_at: _u, ...r }) => JSON.stringify(derived(r)));
      expect(strip(after[table])).toEqual(expect.arrayContaining(strip(before[table])));
    }

    // And the second export says the same as the first, field by field.
    const again = await readZip(await exportZip(target.client));
    const secondPaths = [...again.keys()].filter((name) => name.startsWith('fhir/'));
    const secondDocument = JSON.parse(again.get(secondPaths.find((p) => !p.endsWith('-other.json'))!)!.toString('utf8')) as Json;
    const secondOther = JSON.parse(again.get(secondPaths.find((p) => p.endsWith('-other.json'))!)!.toString('utf8')) as Json;
    expect(check.ipsDocument(secondDocument)).toEqual([]);
    expect(check.collection(secondOther)).toEqual([]);
    expect(contentOf(secondDocument)).toEqual(contentOf(firstDocument));
    expect(contentOf(secondOther)).toEqual(contentOf(firstOther));
  });
});

/**
 * A bundle's content without what names it rather than says it: ids and fullUrls (each reference
 * becomes what it points at), timestamps, narratives, the profile id, and the order of entries.
 */
function contentOf(bundle: Json): string[] {
  const entries = (bundle.entry as { fullUrl: string; resource: Json }[]).map((e) => e.resource);
  const urls = (bundle.entry as { fullUrl: string }[]).map((e) => e.fullUrl);
  const drop = new Set(['text', 'id', 'identifier', 'date', 'timestamp']);
  const label = (i: number, seen: Set<number>): string => {
    if (seen.has(i)) return String(entries[i]!.resourceType);
    return JSON.stringify(clean(entries[i], new Set([...seen, i])));
  };
  const clean = (value: unknown, seen: Set<number>): unknown => {
    if (Array.isArray(value))
      return value
        .map((v) => clean(v, seen))
        .map((v) => JSON.stringify(v))
        .sort();
    if (!value || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Json)) {
      if (drop.has(k)) continue;
      if (k === 'reference' && typeof v === 'string' && urls.includes(v)) out[k] = label(urls.indexOf(v), seen);
      else if (k === 'url' && typeof v === 'string' && v.startsWith('files/')) continue;
      else out[k] = clean(v, seen);
    }
    return out;
  };
  return entries.map((_, i) => label(i, new Set())).sort();
}
