import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { buildTestApp, signedInUser } from './helpers';
import { importFile, snapshotAccount } from './export-helpers';
import { storedBlobs } from './files-helpers';
import { clinicalOf, expectReportAddsUp, rowOf, tallyOf } from './fhir-import-helpers';
import { selfProfileId } from '../src/common/person-access';

// DESIGN §12, decision 0022: real summaries, as their authors published them (fixtures/fhir/README.md
// names each source and licence) — HL7's IPS examples and Synthea patients — import resource by
// resource, with exact counts, and a second import of the same file adds nothing.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

type Json = Record<string, unknown>;
type User = Awaited<ReturnType<typeof signedInUser>>;

const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'fhir');
const load = (name: string): { entry: { resource: Json }[] } & Json => JSON.parse(readFileSync(path.join(FIXTURES, name), 'utf8'));
const bytes = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8');

interface Expected {
  file: string;
  medications: number;
  currentMedications: number;
  allergies: number;
  hasAllergies: boolean;
  conditions: number;
  immunizations: number;
  labs: number;
  procedures: number;
  /** [imported, merged, already present, dropped] per resource type, on the first import. */
  report: Record<string, [number, number, number, number]>;
}

const CASES: Expected[] = [
  {
    file: 'ips-bundle-01.json',
    medications: 2,
    currentMedications: 2,
    // Penicillin; "No known food allergy" is none known, not an allergy.
    allergies: 1,
    hasAllergies: true,
    conditions: 2,
    immunizations: 0,
    // Blood group, three antibody screens, HbA1c, MRSA; the "Blood typing" panel has no value of its own.
    labs: 6,
    procedures: 0,
    report: {
      Composition: [0, 1, 0, 0],
      Patient: [0, 1, 0, 0],
      Practitioner: [0, 0, 0, 1],
      Organization: [0, 0, 0, 2],
      Condition: [2, 0, 0, 0],
      MedicationStatement: [2, 0, 0, 0],
      Medication: [0, 2, 0, 0],
      AllergyIntolerance: [0, 1, 0, 1],
      Observation: [6, 0, 0, 1],
    },
  },
  {
    // Issue 30: the same patient with an immunization; imported as HL7 published it (the dose as a number).
    file: 'ips-bundle-with-immunization.json',
    medications: 2,
    currentMedications: 2,
    allergies: 1,
    hasAllergies: true,
    conditions: 2,
    immunizations: 1,
    labs: 6,
    procedures: 0,
    report: {
      Composition: [0, 1, 0, 0],
      Patient: [0, 1, 0, 0],
      Practitioner: [0, 0, 0, 1],
      Organization: [0, 0, 0, 2],
      Condition: [2, 0, 0, 0],
      MedicationStatement: [2, 0, 0, 0],
      Medication: [0, 2, 0, 0],
      AllergyIntolerance: [0, 1, 0, 1],
      Observation: [6, 0, 0, 1],
      Immunization: [1, 0, 0, 0],
    },
  },
  {
    file: 'ips-bundle-minimal.json',
    medications: 1,
    currentMedications: 1,
    allergies: 1,
    hasAllergies: true,
    conditions: 1,
    immunizations: 0,
    labs: 0,
    procedures: 0,
    report: {
      Composition: [0, 1, 0, 0],
      Patient: [0, 1, 0, 0],
      Practitioner: [0, 0, 0, 1],
      Organization: [0, 0, 0, 1],
      Condition: [1, 0, 0, 0],
      MedicationStatement: [1, 0, 0, 0],
      Medication: [0, 1, 0, 0],
      AllergyIntolerance: [0, 1, 0, 0],
    },
  },
  {
    // Its allergy, problem and medication sections say "no information available": none are added.
    file: 'ips-bundle-no-info-required-sections.json',
    medications: 0,
    currentMedications: 0,
    allergies: 0,
    hasAllergies: false,
    conditions: 0,
    immunizations: 2,
    labs: 0,
    procedures: 0,
    report: {
      Composition: [0, 1, 0, 0],
      Patient: [0, 1, 0, 0],
      Organization: [0, 1, 0, 1],
      PractitionerRole: [0, 1, 0, 0],
      Practitioner: [1, 0, 0, 0],
      Immunization: [2, 0, 0, 0],
    },
  },
  {
    file: 'synthea-kermit-trantow.json',
    medications: 6,
    currentMedications: 3,
    allergies: 3,
    hasAllergies: true,
    conditions: 6,
    immunizations: 8,
    // 39 laboratory and vital-signs Observations; 5 blood pressures give two rows each.
    labs: 44,
    procedures: 2,
    report: {
      Patient: [0, 1, 0, 0],
      Organization: [0, 0, 0, 1],
      Practitioner: [1, 0, 0, 0],
      Encounter: [0, 0, 0, 12],
      CarePlan: [0, 0, 0, 2],
      Claim: [0, 0, 0, 18],
      ExplanationOfBenefit: [0, 0, 0, 12],
      AllergyIntolerance: [0, 3, 0, 0],
      MedicationRequest: [6, 0, 0, 0],
      Condition: [6, 0, 0, 0],
      Observation: [39, 0, 0, 5],
      Immunization: [8, 0, 0, 0],
      Procedure: [2, 0, 0, 0],
      DiagnosticReport: [0, 0, 0, 1],
    },
  },
  {
    file: 'synthea-asa-hermiston.json',
    medications: 9,
    currentMedications: 5,
    allergies: 4,
    hasAllergies: true,
    conditions: 7,
    immunizations: 9,
    labs: 61,
    procedures: 1,
    report: {
      Patient: [0, 1, 0, 0],
      Organization: [0, 0, 0, 2],
      Practitioner: [2, 0, 0, 0],
      Encounter: [0, 0, 0, 20],
      Condition: [7, 0, 0, 0],
      CarePlan: [0, 0, 0, 6],
      Claim: [0, 0, 0, 29],
      ExplanationOfBenefit: [0, 0, 0, 20],
      AllergyIntolerance: [0, 4, 0, 0],
      MedicationRequest: [9, 0, 0, 0],
      Observation: [56, 0, 0, 5],
      Procedure: [1, 0, 0, 0],
      Immunization: [9, 0, 0, 0],
      DiagnosticReport: [0, 0, 0, 4],
    },
  },
];

async function counts(user: User) {
  const self = (await selfProfileId(t.database.db, user.id))!;
  const list = async (kind: string) => (await user.client.get(`/api/user/people/${self}/${kind}`)).json<Json[]>();
  const profile = (await user.client.get('/api/user/getPatientProfile')).json();
  return {
    profile,
    immunizations: await list('immunizations'),
    labs: await list('lab-results'),
    conditions: await list('conditions'),
    procedures: await list('procedures'),
  };
}

async function state(user: User) {
  return {
    data: await snapshotAccount(t.database.db, user.id, user.client),
    clinical: await clinicalOf(t.database.db, user.id),
    blobs: storedBlobs(t.dataDir).committed.sort(),
  };
}

describe('real FHIR bundles', () => {
  for (const c of CASES) {
    it(`${c.file}: a user gets exactly its medications, allergies, conditions, immunizations and results; importing it again adds nothing`, async () => {
      const bundle = load(c.file);
      const user = await signedInUser(t.app);
      const res = await importFile(user.client, bytes(bundle), c.file);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expectReportAddsUp(body, bundle);
      expect(tallyOf(body)).toEqual(c.report);

      const got = await counts(user);
      expect(got.profile.medications).toHaveLength(c.medications);
      expect(got.profile.medications.filter((m: { is_current: boolean }) => m.is_current)).toHaveLength(c.currentMedications);
      expect(got.profile.has_allergies).toBe(c.hasAllergies);
      expect(got.profile.allergy_details === null ? 0 : String(got.profile.allergy_details).split('\n').length).toBe(c.allergies);
      expect(got.conditions).toHaveLength(c.conditions);
      expect(got.immunizations).toHaveLength(c.immunizations);
      expect(got.labs).toHaveLength(c.labs);
      expect(got.procedures).toHaveLength(c.procedures);
      expect(body.imported).toMatchObject({ medications: c.medications, allergies: c.allergies, conditions: c.conditions });

      const once = await state(user);
      const again = await importFile(user.client, bytes(bundle), c.file);
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().imported).toMatchObject({
        medications: 0,
        emergency_contacts: 0,
        healthcare_providers: 0,
        appointments: 0,
        files: 0,
      });
      for (const row of again.json().report) expect([row.resource_type, row.imported, row.merged]).toEqual([row.resource_type, 0, 0]);
      expect(await state(user)).toEqual(once);
    });
  }

  it('keeps what the IPS example states as it states it: partial dates, codings, the blood group and the none-known allergy left out', async () => {
    const user = await signedInUser(t.app);
    const res = await importFile(user.client, bytes(load('ips-bundle-01.json')), 'ips.json');
    expect(res.statusCode, res.body).toBe(200);
    expect(rowOf(res.json(), 'AllergyIntolerance').dropped).toEqual([{ reason: 'saying none are known (nothing to add)', count: 1 }]);
    expect(rowOf(res.json(), 'Observation').dropped).toEqual([
      { reason: 'a panel without a value of its own (its results are read one by one)', count: 1 },
    ]);
    const got = await counts(user);
    expect(got.profile).toMatchObject({
      name: 'Martha DeLarosa',
      date_of_birth: '1972-05-01',
      blood_type: 'A+',
      allergy_details: 'Substance with penicillin structure and antibacterial mechanism of action (substance)',
    });
    expect(got.conditions.map((x) => [x.name, x.status, x.onset_date])).toEqual([
      ['Malignant tumor of breast', 'remission', '2015-01'],
      ['Menopausal flushing (finding)', 'active', '2015'],
    ]);
    expect(got.conditions[1]!.codings).toEqual([
      { system: 'http://snomed.info/sct', code: '198436008', display: 'Menopausal flushing (finding)' },
      { system: 'http://hl7.org/fhir/sid/icd-10', code: 'N95.1', display: 'Menopausal and female climacteric states' },
    ]);
    expect(got.profile.medications.map((m: Json) => [m.medication_name, m.dosage, m.frequency])).toEqual([
      ['Product containing anastrozole (medicinal product)', '1 tablet', 'once a day'],
      ['Black Cohosh Extract herbal supplement', null, null],
    ]);
    const hba1c = got.labs.find((l) => l.loinc_code === '17856-6');
    expect(hba1c).toMatchObject({ value: 7.5, unit: '%', date: '2017-11-10', notes: 'Above stated goal of 7.0 %', category: 'laboratory' });
  });

  it('reads the IPS example with no information: immunizations with their dose, lot, site and the organisation that gave them', async () => {
    const user = await signedInUser(t.app);
    const res = await importFile(user.client, bytes(load('ips-bundle-no-info-required-sections.json')), 'no-info.json');
    expect(res.statusCode, res.body).toBe(200);
    const { immunizations, profile } = await counts(user);
    expect(immunizations.map((i) => [i.vaccine, i.date, i.dose_number, i.lot_number, i.site, i.performer])).toEqual([
      ['Influenza, seasonal, injectable', '2020-07-03', 2, 'B52b', 'Entire left upper arm', 'NorthCare Pukete Road'],
      ['Influenza, seasonal, injectable', '2019-06-03', 1, 'B52', 'Entire left upper arm', 'NorthCare Pukete Road'],
    ]);
    expect(profile).toMatchObject({ has_allergies: false, allergy_details: null, has_chronic_conditions: false, medications: [] });
  });

  it('reads a Synthea patient: prescriptions by status, blood pressure as two results, the latest height and weight on the profile', async () => {
    const user = await signedInUser(t.app);
    const res = await importFile(user.client, bytes(load('synthea-kermit-trantow.json')), 'kermit.json');
    expect(res.statusCode, res.body).toBe(200);
    expect(rowOf(res.json(), 'Observation').dropped).toEqual([
      { reason: 'in category survey (Kinchart keeps laboratory results and vital signs)', count: 5 },
    ]);
    expect(rowOf(res.json(), 'DiagnosticReport').dropped).toEqual([
      { reason: 'without an attached report (presentedForm with data)', count: 1 },
    ]);
    const { profile, labs } = await counts(user);
    expect(profile.medications.map((m: Json) => [m.medication_name, m.frequency, m.start_date, m.is_current])).toEqual([
      ['Loratadine 5 MG Chewable Tablet', 'as needed', '1994-03-30', true],
      ['NDA020800 0.3 ML Epinephrine 1 MG/ML Auto-Injector', 'as needed', '1994-03-30', true],
      ['120 ACTUAT Fluticasone propionate 0.044 MG/ACTUAT Metered Dose Inhaler', 'as needed', '1996-06-27', false],
      ['200 ACTUAT Albuterol 0.09 MG/ACTUAT Metered Dose Inhaler', 'as needed', '1996-06-27', false],
      ['Hydrochlorothiazide 6.25 MG', null, '2012-06-04', false],
      ['Hydrochlorothiazide 25 MG', null, '2013-06-10', true],
    ]);
    expect(profile.medications[4].purpose).toBe('Hypertension');
    const pressures = labs.filter((l) => l.loinc_code === '8480-6' || l.loinc_code === '8462-4');
    expect(pressures).toHaveLength(10);
    expect(new Set(pressures.map((l) => l.name))).toEqual(new Set(['Systolic Blood Pressure', 'Diastolic Blood Pressure']));
    expect(pressures.every((l) => l.unit === 'mm[Hg]' && l.category === 'vital-signs')).toBe(true);
    const heights = labs.filter((l) => l.loinc_code === '8302-2').sort((a, b) => String(b.date).localeCompare(String(a.date)));
    expect(profile.height).toBe(Math.round(Number(heights[0]!.value) * 100) / 100);
  });

  it('a real bundle with one malformed Observation imports everything else and reports that one with its reason', async () => {
    const bundle = load('ips-bundle-01.json');
    const hba1c = bundle.entry.find(
      (e) => e.resource.resourceType === 'Observation' && JSON.stringify(e.resource.code).includes('17856-6'),
    )!.resource;
    (hba1c.valueQuantity as Json).value = '7.5';
    const user = await signedInUser(t.app);
    const res = await importFile(user.client, bytes(bundle), 'ips-broken.json');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expectReportAddsUp(body, bundle);
    expect(rowOf(body, 'Observation')).toMatchObject({
      imported: 5,
      dropped: [
        { reason: 'a panel without a value of its own (its results are read one by one)', count: 1 },
        { reason: 'not valid FHIR (valueQuantity.value: must be number)', count: 1 },
      ],
    });
    expect(body.skipped).toContain('1 Observation not valid FHIR (valueQuantity.value: must be number)');
    const got = await counts(user);
    expect(got.labs).toHaveLength(5);
    expect(got.labs.some((l) => l.loinc_code === '17856-6')).toBe(false);
    expect(got.profile.medications).toHaveLength(2);
    expect(got.conditions).toHaveLength(2);
    expect(got.profile.blood_type).toBe('A+');
  });
});
