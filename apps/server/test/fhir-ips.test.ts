import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Condition, Immunization, LabResult, Procedure } from '@kinchart/shared/clinical';
import type { IpsClinical } from '../src/features/export/fhir-ips';
import { buildIpsBundle, buildPersonBundles } from '../src/features/export/fhir-ips';
import type { ProfileBundle } from '../src/features/profiles/profile.repository';
import { validateBundle } from '../src/features/import/fhir-bundle';
import { planFromBundle } from '../src/features/import/fhir-plan';
import type { FhirChecker } from './fhir-validator';
import { loadFhirChecker, narrativeProblems } from './fhir-validator';
import type { AllergyValues } from '../src/features/allergies/allergy-entries';

// docs/decisions/0023-ips-document-export.md: each person's IPS document and collection bundle,
// checked against FHIR R4 and the IPS document rules (fhir-validator.ts), with 0 errors allowed.

let check: FhirChecker;
beforeAll(async () => {
  check = await loadFhirChecker();
});

type Json = Record<string, unknown>;
type Entry = { fullUrl: string; resource: Json & { resourceType: string } };
type Section = {
  title: string;
  code: { coding: { code: string }[] };
  text: { status: string; div: string };
  entry?: { reference: string }[];
  emptyReason?: unknown;
};

const base: ProfileBundle['profile'] = {
  id: 'p-1',
  is_self: true,
  relationship: null,
  is_pet: false,
  name: 'Jordan Rivers',
  date_of_birth: '1980-02-03',
  phone_number: '555-0100',
  address: '12 Lane <b>',
  email: 'j@example.com',
  blood_type: 'O-',
  height: 180.34,
  weight: 74.8,
  primary_language: 'English',
  religious_restrictions: 'No <blood> products',
  organ_donor: true,
  advance_directives: true,
  living_will: false,
  has_vision_impairment: true,
  has_hearing_impairment: false,
  has_allergies: true,
  allergy_details: 'Penicillin & "sulfa"',
  has_chronic_conditions: true,
  chronic_condition_details: 'Asthma',
  has_bleeding_disorders: true,
  bleeding_disorder_details: 'Hemophilia A',
  has_previous_surgeries: true,
  surgery_details: 'Appendectomy 2001',
  has_mobility_issues: false,
  mobility_details: null,
  had_anesthesia_reactions: true,
  anesthesia_reaction_details: 'Malignant hyperthermia',
  species: null,
  breed: null,
  microchip_number: null,
  vet_name: null,
  vet_phone: null,
  time_zone: null,
};

const full: ProfileBundle = {
  profile: base,
  emergency_contacts: [
    {
      id: 'c1',
      contact_id: 'c1',
      name: 'Sam',
      relationship: 'spouse',
      phone_number: '555-0199',
      email: 's@example.com',
      is_primary: true,
      has_medical_power: true,
    },
  ],
  healthcare_providers: [
    {
      id: 'h1',
      provider_id: 'h1',
      provider_name: 'Dr. Chen',
      name: 'Dr. Chen',
      specialty: 'Cardiology',
      facility: 'Riverside',
      phone_number: '555',
      email: null,
      address: '1 Main',
      is_primary: true,
      notes: 'Tuesdays',
    },
    {
      id: 'h2',
      provider_id: 'h2',
      provider_name: 'Dr. Okafor',
      name: 'Dr. Okafor',
      specialty: 'Dermatology',
      facility: null,
      phone_number: null,
      email: null,
      address: null,
      is_primary: false,
      notes: null,
    },
  ],
  medications: [
    {
      id: 'm1',
      medication_id: 'm1',
      medication_name: 'Warfarin',
      dosage: '5 mg',
      frequency: 'daily',
      purpose: 'Clots',
      start_date: '2020-01-01',
      end_date: null,
      is_current: true,
    },
    {
      id: 'm2',
      medication_id: 'm2',
      medication_name: 'Old',
      dosage: null,
      frequency: null,
      purpose: null,
      start_date: '2019-01-01',
      end_date: '2019-06-01',
      is_current: false,
    },
    {
      id: 'm3',
      medication_id: 'm3',
      medication_name: null,
      dosage: null,
      frequency: null,
      purpose: null,
      start_date: null,
      end_date: null,
      is_current: true,
    },
  ],
};

const stamps = { person_id: 'p-1', created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' };
const CVX_MMR = { system: 'http://hl7.org/fhir/sid/cvx', code: '03', display: 'MMR' };
const immunizations: Immunization[] = [
  {
    ...stamps,
    id: 'i1',
    vaccine: 'MMR <live>',
    date: '2015-03',
    dose_number: 2,
    lot_number: 'AB123',
    site: 'Left arm',
    performer: 'Dr Lee',
    notes: null,
    codings: [CVX_MMR],
  },
  {
    ...stamps,
    id: 'i2',
    vaccine: 'Tetanus',
    date: null,
    dose_number: null,
    lot_number: null,
    site: null,
    performer: null,
    notes: null,
    codings: [],
  },
];
const lab = (over: Partial<LabResult> & Pick<LabResult, 'id' | 'name'>): LabResult => ({
  ...stamps,
  category: 'laboratory',
  loinc_code: null,
  value: null,
  value_text: null,
  unit: null,
  reference_low: null,
  reference_high: null,
  reference_range: null,
  interpretation: null,
  out_of_range: false,
  date: null,
  source_file_id: null,
  source_page: null,
  trend: null,
  notes: null,
  codings: [],
  ...over,
});
const labResults: LabResult[] = [
  lab({
    id: 'l1',
    name: 'HbA1c',
    loinc_code: '4548-4',
    value: 6.1,
    unit: '%',
    reference_low: 4,
    reference_high: 5.6,
    reference_range: '4-5.6',
    interpretation: 'H',
    date: '2024-02-10',
    codings: [{ system: 'http://example.org/lab', code: 'A1C', display: 'A1c' }],
  }),
  lab({ id: 'l2', name: 'Strep test', value_text: 'negative', interpretation: 'NEG', date: '2023' }),
  lab({
    id: 'l3',
    name: 'Blood pressure systolic',
    category: 'vital-signs',
    loinc_code: '8480-6',
    value: 128,
    unit: 'mm[Hg]',
    date: '2024-06',
  }),
  lab({ id: 'l4', name: 'Heart rate', category: 'vital-signs', loinc_code: '8867-4', value: 64, unit: '/min', date: null }),
];
const conditions: Condition[] = [
  {
    ...stamps,
    id: 'k1',
    name: 'Type 2 diabetes',
    status: 'active',
    onset_date: '2019-11',
    abatement_date: null,
    notes: null,
    codings: [{ system: 'http://snomed.info/sct', code: '44054006', display: 'Diabetes mellitus type 2' }],
  },
  {
    ...stamps,
    id: 'k2',
    name: 'Fractured wrist',
    status: 'resolved',
    onset_date: '2010',
    abatement_date: '2010-09',
    notes: 'Cast',
    codings: [],
  },
  // An active condition with an end date: FHIR's con-4 forbids abatement on it, so the date goes in a note.
  { ...stamps, id: 'k3', name: 'Back pain', status: 'active', onset_date: null, abatement_date: '2022', notes: null, codings: [] },
];
const procedures: Procedure[] = [
  {
    ...stamps,
    id: 'x1',
    name: 'Appendectomy',
    status: 'completed',
    performed_date: '2001-07-03',
    performer: 'City Hospital',
    notes: null,
    codings: [{ system: 'http://snomed.info/sct', code: '80146002', display: 'Appendectomy' }],
  },
  { ...stamps, id: 'x2', name: 'Colonoscopy', status: 'completed', performed_date: null, performer: null, notes: null, codings: [] },
];
const clinical: IpsClinical = { immunizations, labResults, conditions, procedures };

const now = new Date('2026-11-21T10:00:00Z');
const savedAt = '2026-10-02T08:15:00.000Z';

const entriesOf = (bundle: Json) => bundle.entry as Entry[];
const resourceAt = (bundle: Json, ref: string) => entriesOf(bundle).find((e) => e.fullUrl === ref)!.resource;
const sectionsOf = (bundle: Json) => entriesOf(bundle)[0]!.resource.section as Section[];
const sectionCode = (s: Section) => s.code.coding[0]!.code;
const section = (bundle: Json, code: string) => sectionsOf(bundle).find((s) => sectionCode(s) === code)!;
const sectionResources = (bundle: Json, code: string) => (section(bundle, code).entry ?? []).map((e) => resourceAt(bundle, e.reference));

function richBundles() {
  return buildPersonBundles({
    person: full,
    clinical,
    medicationCodings: new Map([
      ['m1', [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '855332', display: 'Warfarin Sodium 5 MG Oral Tablet' }]],
    ]),
    profileUpdatedAt: savedAt,
    appointments: [
      {
        id: 'a1',
        appointment_date: '2027-03-04',
        start_time: '2027-03-04T09:30:00',
        end_time: '2027-03-04T10:00:00',
        provider_name: 'Dr. Chen',
        reason_for_visit: 'Check-up',
        location: 'Riverside',
      },
      {
        id: 'a2',
        appointment_date: '2025-07-01',
        start_time: '2025-07-01T13:00:00.000Z',
        end_time: null,
        provider_name: 'Lab',
        reason_for_visit: null,
        location: null,
      },
    ],
    documents: [
      {
        id: 'f1',
        display_name: 'Lab results.pdf',
        file_type: 'application/pdf',
        size: 1234,
        created_at: '2026-01-01T00:00:00.000Z',
        record_date: '2026-01-01',
        provider_name: 'Lab',
        visit_reason: 'Blood test',
        url: 'files/Lab results.pdf',
      },
    ],
    now,
    timeZone: 'America/Montreal',
  });
}

describe('FHIR R4 International Patient Summary document', () => {
  it("a rich person's summary is an IPS document with 0 errors: every resource valid R4, every entry referenced from the Composition, every reference resolved", () => {
    const { document } = richBundles();
    expect(check.ipsDocument(document)).toEqual([]);
    const types = entriesOf(document).map((e) => e.resource.resourceType);
    expect(types.slice(0, 2)).toEqual(['Composition', 'Patient']);
    for (const t of [
      'AllergyIntolerance',
      'Condition',
      'MedicationStatement',
      'Immunization',
      'Procedure',
      'Observation',
      'Practitioner',
      'PractitionerRole',
    ])
      expect(types).toContain(t);
    // Appointments and files are not part of the summary: they are in the collection.
    expect(types).not.toContain('Appointment');
    expect(types).not.toContain('DocumentReference');
    expect(document).toMatchObject({ type: 'document', timestamp: now.toISOString(), identifier: { system: 'urn:ietf:rfc:3986' } });
  });

  it('the Composition has the IPS type, the Patient as subject and author, and a section for each kind of data', () => {
    const { document } = richBundles();
    const composition = entriesOf(document)[0]!.resource as unknown as {
      type: unknown;
      subject: { reference: string };
      author: { reference: string }[];
      title: string;
      date: string;
    };
    expect(composition.type).toMatchObject({ coding: [{ system: 'http://loinc.org', code: '60591-5' }] });
    expect(composition.author).toEqual([composition.subject]);
    expect(resourceAt(document, composition.subject.reference).resourceType).toBe('Patient');
    expect(composition.title).toBe('Patient Summary: Jordan Rivers');
    expect(sectionsOf(document).map(sectionCode)).toEqual([
      '48765-2', // allergies
      '10160-0', // medications
      '11450-4', // problems
      '11369-6', // immunizations
      '47519-4', // procedures
      '30954-2', // results
      '8716-3', // vital signs
      '11348-0', // past illness
      '85847-2', // care team
      '42348-3', // advance directives
      '104605-1', // alerts
    ]);
    // Every provider is referenced: from the Care Team section, the primary one also as the GP.
    const patient = entriesOf(document)[1]!.resource as unknown as { generalPractitioner: { reference: string }[] };
    expect(patient.generalPractitioner).toHaveLength(1);
    expect(section(document, '85847-2').entry).toHaveLength(2);
  });

  it("each section's narrative lists the items themselves — names, dates, doses — escaped", () => {
    const { document } = richBundles();
    const div = (code: string) => section(document, code).text.div;
    for (const s of sectionsOf(document)) {
      expect(s.text.status, s.title).toBe('generated');
      expect(narrativeProblems(s.text.div), s.title).toEqual([]);
      expect(s.text.div, s.title).not.toMatch(/ entr(y|ies)</);
    }
    expect(div('48765-2')).toContain('Penicillin &amp; &quot;sulfa&quot;');
    expect(div('48765-2')).toContain('Anesthesia reaction: Malignant hyperthermia');
    expect(div('10160-0')).toContain('<td>Warfarin</td><td>5 mg, daily</td><td>Current</td><td>2020-01-01</td>');
    expect(div('10160-0')).toContain('Unnamed medication');
    expect(div('11450-4')).toContain('<td>Type 2 diabetes</td><td>active</td><td>2019-11</td>');
    expect(div('11450-4')).toContain('Bleeding disorder: Hemophilia A');
    expect(div('11369-6')).toContain('<td>MMR &lt;live&gt;</td><td>2015-03</td><td>2</td><td>AB123</td>');
    expect(div('11369-6')).toContain('<td>Tetanus</td><td>Date unknown</td>');
    expect(div('47519-4')).toContain('<td>Appendectomy</td><td>completed</td><td>2001-07-03</td><td>City Hospital</td>');
    expect(div('30954-2')).toContain('<td>HbA1c</td><td>6.1</td><td>%</td><td>4–5.6</td><td>High</td><td>2024-02-10</td>');
    expect(div('30954-2')).toContain('<td>Blood group (ABO and Rh)</td><td>O-</td>');
    expect(div('8716-3')).toContain('<td>Body height</td><td>180.34</td><td>cm</td><td>2026-10-02 (profile last saved)</td>');
    expect(div('8716-3')).toContain('<td>Blood pressure systolic</td><td>128</td><td>mm[Hg]</td><td>2024-06</td>');
    expect(div('11348-0')).toContain('<td>Fractured wrist</td><td>resolved</td><td>2010</td><td>2010-09</td><td>Cast</td>');
    expect(div('11348-0')).toContain('History of surgery: Appendectomy 2001');
    expect(div('85847-2')).toContain('<td>Dr. Chen</td><td>Cardiology</td><td>Riverside</td>');
    // Organ donation and directives are Consents of their section; religious restrictions a Flag of the alerts (issue 30).
    expect(div('42348-3')).toContain('<li>Organ donor</li>');
    expect(div('104605-1')).toContain('Religious restrictions: No &lt;blood&gt; products');
    // The Flag keeps the person's words as data (code.text); every narrative escapes them.
    const narratives = ((document.entry as { resource: { section?: { text: { div: string } }[] } }[])[0]!.resource.section ?? [])
      .map((x) => x.text.div)
      .join('');
    expect(narratives).not.toContain('No <blood>');
  });

  it("keeps every item's own codings and its date as precise as it was given", () => {
    const { document } = richBundles();
    const [mmr, tetanus] = sectionResources(document, '11369-6');
    expect(mmr).toMatchObject({
      vaccineCode: { coding: [CVX_MMR], text: 'MMR <live>' },
      occurrenceDateTime: '2015-03',
      lotNumber: 'AB123',
      protocolApplied: [{ doseNumberPositiveInt: 2 }],
    });
    expect(tetanus).toMatchObject({
      vaccineCode: { text: 'Tetanus' },
      _occurrenceDateTime: { extension: [{ url: 'http://hl7.org/fhir/StructureDefinition/data-absent-reason', valueCode: 'unknown' }] },
    });
    expect(tetanus).not.toHaveProperty('occurrenceDateTime');

    const results = sectionResources(document, '30954-2');
    const hba1c = results.find((r) => JSON.stringify(r).includes('HbA1c'))!;
    expect(hba1c).toMatchObject({
      code: {
        coding: [
          { system: 'http://example.org/lab', code: 'A1C' },
          { system: 'http://loinc.org', code: '4548-4' },
        ],
        text: 'HbA1c',
      },
      effectiveDateTime: '2024-02-10',
      valueQuantity: { value: 6.1, unit: '%' },
      interpretation: [{ coding: [{ code: 'H' }] }],
      referenceRange: [{ low: { value: 4 }, high: { value: 5.6 }, text: '4-5.6' }],
    });
    expect(results.find((r) => JSON.stringify(r).includes('Strep'))).toMatchObject({ valueString: 'negative', effectiveDateTime: '2023' });

    const [diabetes, backPain] = sectionResources(document, '11450-4').filter(
      (c) => JSON.stringify(c).includes('Type 2') || JSON.stringify(c).includes('Back pain'),
    );
    expect(diabetes).toMatchObject({
      code: { coding: [{ system: 'http://snomed.info/sct', code: '44054006' }] },
      onsetDateTime: '2019-11',
      clinicalStatus: { coding: [{ code: 'active' }] },
    });
    expect(backPain).not.toHaveProperty('abatementDateTime');
    expect(backPain).toMatchObject({ note: [{ text: 'Resolved date given: 2022' }] });
    expect(sectionResources(document, '11348-0').find((c) => JSON.stringify(c).includes('Fractured'))).toMatchObject({
      onsetDateTime: '2010',
      abatementDateTime: '2010-09',
    });
    expect(sectionResources(document, '47519-4')[0]).toMatchObject({
      code: { coding: [{ code: '80146002' }] },
      performedDateTime: '2001-07-03',
      performer: [{ actor: { display: 'City Hospital' } }],
    });

    const [warfarin] = sectionResources(document, '10160-0');
    expect(warfarin).toMatchObject({
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '855332' }], text: 'Warfarin' },
    });
  });

  it('writes each line of the allergy details as an AllergyIntolerance of its own, from its entry: codes, reactions, severity, criticality', () => {
    const SNOMED = 'http://snomed.info/sct';
    const penicillin = { system: SNOMED, code: '91936005', display: 'Allergy to penicillin' };
    const bees = { system: SNOMED, code: '424213003', display: 'Allergy to bee venom' };
    const entry = (substance: string, more: Partial<AllergyValues> = {}): AllergyValues => ({
      substance,
      reactions: [],
      severity: null,
      criticality: null,
      codings: [],
      ...more,
    });
    const document = buildIpsBundle({
      person: {
        ...full,
        profile: { ...base, allergy_details: 'Allergy to penicillin — Hives, Wheezing\n  Latex; peanuts \n\nBee stings (resolved)' },
      },
      allergies: [
        entry('Allergy to penicillin', {
          reactions: ['Hives', 'Wheezing'],
          severity: 'severe',
          criticality: 'high',
          codings: [penicillin],
        }),
        entry('Latex; peanuts'),
        entry('Bee stings (resolved)', { severity: 'mild', criticality: 'low', codings: [bees] }),
        // No longer a line of the details: applies to none.
        entry('Latex', { codings: [{ system: SNOMED, code: '300916003', display: 'Latex allergy' }] }),
      ],
      now,
    });
    expect(check.ipsDocument(document)).toEqual([]);
    const allergies = sectionResources(document, '48765-2');
    expect(allergies.map((r) => r.code)).toEqual([
      { coding: [penicillin], text: 'Allergy to penicillin' },
      { text: 'Latex; peanuts' },
      { coding: [bees], text: 'Bee stings (resolved)' },
      { text: 'Anesthesia reaction: Malignant hyperthermia' },
    ]);
    // A severity needs a reaction to sit on (FHIR: reaction.manifestation 1..*).
    expect(allergies.map((r) => r.reaction ?? null)).toEqual([
      [{ manifestation: [{ text: 'Hives' }, { text: 'Wheezing' }], severity: 'severe' }],
      null,
      null,
      null,
    ]);
    expect(allergies.map((r) => r.criticality ?? null)).toEqual(['high', null, 'low', null]);
    expect(allergies.map((r) => r.category ?? null)).toEqual([null, null, null, ['medication']]);
    expect(new Set(section(document, '48765-2').entry!.map((e) => e.reference)).size).toBe(4);
    const div = section(document, '48765-2').text.div;
    for (const line of [
      'Allergy to penicillin — Hives, Wheezing',
      'Latex; peanuts',
      'Bee stings (resolved)',
      'Anesthesia reaction: Malignant hyperthermia',
    ])
      expect(div).toContain(`<td>${line}</td>`);

    // A person's own single line stays one AllergyIntolerance; without entries nothing is coded.
    const own = sectionResources(
      buildIpsBundle({ person: { ...full, profile: { ...base, allergy_details: 'Penicillin; peanuts' } }, now }),
      '48765-2',
    );
    expect(own.map((r) => r.code)).toEqual([{ text: 'Penicillin; peanuts' }, { text: 'Anesthesia reaction: Malignant hyperthermia' }]);
  });

  it('every MedicationStatement has effective[x]: the period taken, or unknown', () => {
    const { document } = richBundles();
    const [current, past, undated] = sectionResources(document, '10160-0');
    expect(current).toMatchObject({ status: 'active', effectivePeriod: { start: '2020-01-01' } });
    expect(past).toMatchObject({ status: 'completed', effectivePeriod: { start: '2019-01-01', end: '2019-06-01' } });
    expect(undated).toMatchObject({ _effectiveDateTime: { extension: [{ valueCode: 'unknown' }] } });
  });

  it('dates the height, weight and blood group when the profile was saved, never at export time; the blood group is coded in SNOMED CT under Results', () => {
    const { document } = richBundles();
    const vitals = sectionResources(document, '8716-3');
    const height = vitals.find((o) => JSON.stringify(o).includes('8302-2'))!;
    expect(height).toMatchObject({
      effectiveDateTime: savedAt.slice(0, 10),
      valueQuantity: { value: 180.34, code: 'cm', system: 'http://unitsofmeasure.org' },
      category: [{ coding: [{ code: 'vital-signs' }] }],
    });
    expect(JSON.stringify(document)).not.toContain(`"effectiveDateTime":"${now.toISOString()}"`);
    // A vital sign dated by month is the period it names (vital signs profile vs-1 wants a day).
    expect(vitals.find((o) => JSON.stringify(o).includes('8480-6'))).toMatchObject({
      effectivePeriod: { start: '2024-06', end: '2024-06' },
    });
    expect(vitals.find((o) => JSON.stringify(o).includes('8867-4'))).toMatchObject({
      _effectiveDateTime: { extension: [{ valueCode: 'unknown' }] },
    });
    const blood = sectionResources(document, '30954-2').find((o) => JSON.stringify(o).includes('882-1'))!;
    expect(blood).toMatchObject({
      code: { coding: [{ system: 'http://loinc.org', code: '882-1' }] },
      valueCodeableConcept: {
        coding: [{ system: 'http://snomed.info/sct', code: '278148006', display: 'Blood group O Rh(D) negative' }],
        text: 'O-',
      },
      effectiveDateTime: savedAt.slice(0, 10),
    });
    // Without a saved date (the emergency summary), the date is said to be unknown.
    const emergency = buildIpsBundle({ person: full, now });
    expect(check.ipsDocument(emergency)).toEqual([]);
    expect(sectionResources(emergency, '8716-3')[0]).toMatchObject({ _effectiveDateTime: { extension: [{ valueCode: 'unknown' }] } });
  });

  it('keeps the three required sections, with an empty reason and a narrative saying so, for a pet with nothing recorded', () => {
    const pet: ProfileBundle = {
      profile: {
        ...base,
        is_self: false,
        is_pet: true,
        relationship: 'dog',
        has_allergies: false,
        had_anesthesia_reactions: false,
        has_chronic_conditions: false,
        has_bleeding_disorders: false,
        has_previous_surgeries: false,
        has_vision_impairment: false,
        height: null,
        weight: null,
        blood_type: null,
        organ_donor: false,
        advance_directives: false,
        religious_restrictions: null,
      },
      emergency_contacts: [],
      healthcare_providers: [],
      medications: [],
    };
    const { document, other } = buildPersonBundles({
      person: pet,
      clinical: { immunizations: [], labResults: [], conditions: [], procedures: [] },
      now,
    });
    expect(check.ipsDocument(document)).toEqual([]);
    expect(other).toBeNull();
    const sections = sectionsOf(document);
    expect(sections.map(sectionCode)).toEqual(['48765-2', '10160-0', '11450-4']);
    for (const s of sections) {
      expect(s.emptyReason).toMatchObject({ coding: [{ code: 'unavailable' }] });
      expect(s.entry).toBeUndefined();
      expect(s.text.div).toMatch(/<p>No information about (allergies|medications|current problems)\.<\/p>/);
    }
    expect(entriesOf(document)[1]!.resource.extension).toEqual([
      expect.objectContaining({ url: 'http://hl7.org/fhir/StructureDefinition/patient-animal' }),
    ]);
  });
});

describe('allergies that are none known, problems that are over, and lines in the narratives', () => {
  // Religious restrictions are an alert of their own (a Flag, decision 0034): none here either.
  const nothingElse = { had_anesthesia_reactions: false, has_bleeding_disorders: false, religious_restrictions: null } as const;

  it('"NKDA" is no AllergyIntolerance: the section has no entry and says none are known (nilknown), and no allergy alert is raised', () => {
    const document = buildIpsBundle({
      person: { ...full, profile: { ...base, ...nothingElse, has_allergies: true, allergy_details: 'NKDA' } },
      now,
    });
    expect(check.ipsDocument(document)).toEqual([]);
    expect(entriesOf(document).some((e) => e.resource.resourceType === 'AllergyIntolerance')).toBe(false);
    const allergies = section(document, '48765-2');
    expect(allergies.entry).toBeUndefined();
    expect(allergies.emptyReason).toMatchObject({
      coding: [{ system: 'http://terminology.hl7.org/CodeSystem/list-empty-reason', code: 'nilknown' }],
    });
    expect(allergies.text.div).toContain('NKDA');
    expect(sectionsOf(document).find((x) => sectionCode(x) === '104605-1')).toBeUndefined();

    // Beside a real allergy, only the real one is an entry.
    const mixed = buildIpsBundle({
      person: { ...full, profile: { ...base, ...nothingElse, has_allergies: true, allergy_details: 'No known drug allergies\nLatex' } },
      now,
    });
    expect(check.ipsDocument(mixed)).toEqual([]);
    expect(sectionResources(mixed, '48765-2').map((r) => r.code)).toEqual([{ text: 'Latex' }]);
    expect(section(mixed, '104605-1').text.div).toContain('<li>Allergies: Latex</li>');
  });

  it('a chronic-condition line marked "(resolved)" is a past illness, not a current problem, and a line in remission is its structured condition', () => {
    const summary = buildIpsBundle({
      person: { ...full, profile: { ...base, chronic_condition_details: 'Asthma\nPneumonia (resolved)' } },
      now,
    });
    expect(check.ipsDocument(summary)).toEqual([]);
    const texts = (code: string) => sectionResources(summary, code).map((r) => (r.code as { text: string }).text);
    expect(texts('11450-4')).toContain('Asthma');
    expect(texts('11450-4').join('\n')).not.toContain('Pneumonia');
    const past = sectionResources(summary, '11348-0').find((r) => (r.code as { text: string }).text === 'Pneumonia (resolved)');
    expect(past).toMatchObject({ clinicalStatus: { coding: [{ code: 'resolved' }] } });

    // An import writes a condition in remission as "… (in remission)" beside the structured one: written once, as that condition.
    const eczema: Condition = {
      ...stamps,
      id: 'k9',
      name: 'Eczema',
      status: 'remission',
      onset_date: '2016',
      abatement_date: null,
      notes: null,
      codings: [],
    };
    const document = buildIpsBundle({
      person: { ...full, profile: { ...base, chronic_condition_details: 'Eczema (in remission)' } },
      clinical: { immunizations: [], labResults: [], procedures: [], conditions: [eczema] },
      now,
    });
    expect(check.ipsDocument(document)).toEqual([]);
    const conditions = entriesOf(document)
      .filter((e) => e.resource.resourceType === 'Condition')
      .map((e) => (e.resource.code as { text: string }).text);
    expect(conditions.filter((c) => c.includes('Eczema'))).toEqual(['Eczema']);
    // In remission is not over: a current problem, and the narrative says "In remission".
    expect(sectionResources(document, '11450-4').map((r) => (r.code as { text: string }).text)).toContain('Eczema');
    expect(section(document, '11450-4').text.div).toContain('<td>Eczema</td><td>In remission</td>');
    expect(sectionsOf(document).some((x) => sectionCode(x) === '11348-0' && x.text.div.includes('Eczema'))).toBe(false);
  });

  it('writes each line of a multi-line text on its own line in the narratives (<br/>), never a raw line break', () => {
    const document = buildIpsBundle({
      person: {
        ...full,
        profile: {
          ...base,
          allergy_details: 'Penicillin\r\nLatex',
          chronic_condition_details: 'Asthma\nCOPD',
          bleeding_disorder_details: 'Hemophilia A\rVon Willebrand',
        },
      },
      now,
    });
    expect(check.ipsDocument(document)).toEqual([]);
    for (const s of sectionsOf(document)) {
      expect(s.text.div, s.title).not.toMatch(/[\r\n]/);
      expect(narrativeProblems(s.text.div), s.title).toEqual([]);
    }
    const alerts = section(document, '104605-1').text.div;
    expect(alerts).toContain('<li>Bleeding disorder: Hemophilia A<br/>Von Willebrand</li>');
    expect(alerts).toContain('<li>Allergies: Penicillin<br/>Latex</li>');
    expect(section(document, '11450-4').text.div).toContain('<td>Asthma<br/>COPD</td>');
  });
});

describe('a person whose name or date of birth is not known', () => {
  const DAR = 'http://hl7.org/fhir/StructureDefinition/data-absent-reason';
  const nameless: ProfileBundle = { ...full, profile: { ...base, name: null, date_of_birth: null } };

  it('is exported with the data-absent reason where IPS requires a birth date and a name, never an invented "Unnamed", with 0 errors', () => {
    const { document, other } = buildPersonBundles({
      person: nameless,
      clinical,
      now,
      appointments: [
        {
          id: 'a1',
          appointment_date: '2027-03-04',
          start_time: null,
          end_time: null,
          provider_name: 'Dr. Chen',
          reason_for_visit: null,
          location: null,
        },
      ],
    });
    expect(check.ipsDocument(document)).toEqual([]);
    expect(check.collection(other)).toEqual([]);
    const patient = entriesOf(document)[1]!.resource;
    // IPS Patient.birthDate is 1..1: unknown says so.
    expect(patient).not.toHaveProperty('birthDate');
    expect(patient._birthDate).toEqual({ extension: [{ url: DAR, valueCode: 'unknown' }] });
    // IPS Patient.name is 1..* with text, family or given (ips-pat-1): the text is there, as unknown.
    expect(patient.name).toEqual([{ _text: { extension: [{ url: DAR, valueCode: 'unknown' }] } }]);
    // (The fixture's medication without a name is another matter: "Unnamed medication" is its narrative's text.)
    expect(JSON.stringify(document).replaceAll('Unnamed medication', '').includes('Unnamed')).toBe(false);
    expect(JSON.stringify(other).includes('Unnamed')).toBe(false);
    expect(entriesOf(document)[0]!.resource.title).toBe('Patient Summary');
    // A known date of birth and name are still written as they are.
    const known = entriesOf(buildIpsBundle({ person: full, now }))[1]!.resource;
    expect(known).toMatchObject({ birthDate: '1980-02-03', name: [{ text: 'Jordan Rivers' }] });
    expect(known).not.toHaveProperty('_birthDate');
  });

  it('comes back from an import of its own export without a name or a birth date — nobody becomes "Unnamed"', () => {
    const { document } = buildPersonBundles({ person: nameless, clinical, now });
    const plan = planFromBundle(validateBundle(JSON.parse(JSON.stringify(document))), { isSelf: false });
    expect(plan.fields.name).toBeUndefined();
    expect(plan.fields.date_of_birth).toBeUndefined();
    expect(plan.patient).toBe(1);
  });

  it('the IPS checker refuses a Patient without a birth date or a name, and accepts the data-absent reason for either', () => {
    const patientOf = (edit: (patient: Json) => void) => {
      const b = JSON.parse(JSON.stringify(richBundles().document)) as Json;
      edit(entriesOf(b)[1]!.resource);
      return check.ipsDocument(b);
    };
    expect(patientOf((p) => delete p.birthDate)).toContain('entry[1] Patient: IPS requires birthDate (a value, or a data-absent-reason)');
    expect(patientOf((p) => delete p.name)).toContain('entry[1] Patient: IPS requires a name with text, family or given (ips-pat-1)');
    expect(patientOf((p) => (p.name = [{ use: 'official' }]))).toContain(
      'entry[1] Patient: IPS requires a name with text, family or given (ips-pat-1)',
    );
    expect(patientOf((p) => (delete p.birthDate, (p._birthDate = { extension: [{ url: DAR, valueCode: 'unknown' }] })))).toEqual([]);
    expect(patientOf((p) => (p.name = [{ _text: { extension: [{ url: DAR, valueCode: 'unknown' }] } }]))).toEqual([]);
  });
});

describe('FHIR collection bundle beside the document', () => {
  it("holds the appointments, with the person's UTC offset, and a DocumentReference for each file; valid with every reference resolved", () => {
    const { other } = richBundles();
    expect(other).not.toBeNull();
    expect(check.collection(other)).toEqual([]);
    const entries = entriesOf(other!);
    expect(entries.map((e) => e.resource.resourceType)).toEqual(['Patient', 'Appointment', 'Appointment', 'DocumentReference']);
    // 09:30 in Montréal in March is 09:30-05:00; a stored UTC instant is shown in the same zone (EDT in July).
    expect(entries[1]!.resource).toMatchObject({ start: '2027-03-04T09:30:00-05:00', end: '2027-03-04T10:00:00-05:00', status: 'booked' });
    expect(entries[2]!.resource).toMatchObject({
      start: '2025-07-01T09:00:00-04:00',
      end: '2025-07-01T23:59:59-04:00',
      status: 'fulfilled',
    });
    expect(entries[3]!.resource).toMatchObject({ content: [{ attachment: { url: 'files/Lab%20results.pdf', creation: '2026-01-01' } }] });
    // The same Patient as the document's, so both files describe one person.
    expect(entries[0]!.fullUrl).toBe(entriesOf(richBundles().document)[1]!.fullUrl);
  });

  it('writes UTC times with +00:00 when no zone is given', () => {
    const { other } = buildPersonBundles({
      person: full,
      appointments: [
        {
          id: 'a1',
          appointment_date: '2027-03-04',
          start_time: '2027-03-04T09:30:00',
          end_time: null,
          provider_name: 'Dr. Chen',
          reason_for_visit: null,
          location: null,
        },
      ],
      now,
    });
    expect(entriesOf(other!)[1]!.resource).toMatchObject({ start: '2027-03-04T09:30:00+00:00', end: '2027-03-04T23:59:59+00:00' });
  });
});

describe('the IPS checker', () => {
  const fixtures = path.join(import.meta.dirname, 'fixtures', 'ips-checker');
  const clone = (bundle: Json) => JSON.parse(JSON.stringify(bundle)) as Json;

  it("accepts HL7's own IPS examples (fixtures/ips-checker, from the HL7 IPS IG)", () => {
    for (const name of ['bundle-minimal.json', 'bundle-no-info-required-sections.json']) {
      const bundle = JSON.parse(fs.readFileSync(path.join(fixtures, name), 'utf8')) as Json;
      expect(check.ipsDocument(bundle), name).toEqual([]);
    }
  });

  it('reports each broken document rule, naming where', () => {
    const good = richBundles().document;
    const broken = (edit: (b: Json, entries: Entry[], sections: Section[]) => void) => {
      const b = clone(good);
      edit(b, entriesOf(b), sectionsOf(b));
      return check.ipsDocument(b);
    };
    expect(broken((b) => (b.type = 'collection'))).toContain('Bundle.type is collection, not document');
    expect(broken((b) => delete b.identifier)).toContain('Bundle.identifier is missing');
    expect(broken((b) => delete b.timestamp)).toContain('Bundle.timestamp is missing');
    expect(broken((_b, e) => e.reverse())).toContain('the first entry is not a Composition');
    expect(broken((_b, e) => (e[0]!.resource.type = { text: 'Summary' }))).toContain(
      'Composition.type is not LOINC 60591-5 (Patient summary Document)',
    );
    expect(broken((_b, e) => delete e[0]!.resource.author)).toContain('Composition.author is missing');
    expect(broken((_b, e) => delete e[0]!.resource.title)).toContain('Composition.title is missing');
    expect(
      broken((_b, e) => (e[0]!.resource.section = (e[0]!.resource.section as Section[]).filter((s) => sectionCode(s) !== '11450-4'))),
    ).toContain('the Problem List section (11450-4) is required once, found 0');
    expect(broken((_b, _e, s) => delete s[0]!.emptyReason && delete s[0]!.entry)).toContain(
      'the Allergies and Intolerances section has neither entries nor an emptyReason',
    );
    const orphan = entriesOf(good).length;
    expect(
      broken((_b, e) =>
        e.push({
          fullUrl: 'urn:uuid:0e6a4c2e-1111-4111-8111-111111111111',
          resource: { resourceType: 'Practitioner', name: [{ text: 'Nobody' }] },
        }),
      ),
    ).toContain(`entry[${orphan}] Practitioner: not referenced from the Composition (directly or indirectly)`);
    expect(
      broken((_b, _e, s) => s[3]!.entry!.push({ reference: 'urn:uuid:00000000-0000-4000-8000-000000000000' })).some((p) =>
        /reference urn:uuid:0{8}-.* does not resolve inside the bundle/.test(p),
      ),
    ).toBe(true);
    expect(broken((_b, e) => (e[3]!.fullUrl = e[2]!.fullUrl)).some((p) => p.includes('is also entry[2]'))).toBe(true);
    expect(broken((_b, e) => delete (e[2] as Partial<Entry>).fullUrl).some((p) => p.endsWith('fullUrl is missing'))).toBe(true);
    expect(broken((_b, _e, s) => delete (s[1] as Partial<Section>).text)).toContain(
      'section[1] Medication Summary: text (narrative) is missing',
    );
    expect(broken((_b, _e, s) => (s[1]!.text.div = '<div xmlns="http://www.w3.org/1999/xhtml"><script>x</script></div>'))).toContain(
      'section[1] Medication Summary: <script> is not allowed in a narrative (txt-1)',
    );
    expect(
      broken((_b, _e, s) => (s[1]!.text.div = '<div xmlns="http://www.w3.org/1999/xhtml">Tom & Jerry</div>')).some((p) =>
        p.includes('is not an XML entity'),
      ),
    ).toBe(true);
    expect(broken((_b, _e, s) => (s[1]!.text.div = '<div>Warfarin</div>'))).toContain(
      'section[1] Medication Summary: narrative must be a <div xmlns="http://www.w3.org/1999/xhtml">',
    );
    expect(
      broken((b) => {
        const statement = entriesOf(b).find((e) => e.resource.resourceType === 'MedicationStatement')!.resource;
        delete statement.effectivePeriod;
      }).some((p) => p.endsWith('MedicationStatement: IPS requires effective[x] (a value, or a data-absent-reason)')),
    ).toBe(true);
    // A section that lists what it cannot hold.
    expect(
      broken((_b, _e, s) => (s[0]!.entry = s[1]!.entry)).some((p) =>
        p.includes('lists a MedicationStatement, which this section cannot hold'),
      ),
    ).toBe(true);
    // R4 itself, through Medplum's validator.
    expect(broken((_b, e) => (e[1]!.resource.birthDate = 'yesterday')).some((p) => p.startsWith('entry[1] Patient:'))).toBe(true);
  });

  it('reports a collection whose references leave it', () => {
    const other = clone(richBundles().other!);
    (other.entry as Entry[]).shift(); // without the Patient
    expect(check.collection(other).filter((p) => p.includes('does not resolve inside the bundle'))).toHaveLength(3);
  });

  it('detects an invalid resource (the R4 validator is real)', () => {
    expect(check.resource({ resourceType: 'Observation', code: { text: 'x' } }).length).toBeGreaterThan(0);
    expect(check.resource({ resourceType: 'Patient', birthDate: 'yesterday' }).length).toBeGreaterThan(0);
    expect(check.resource({ resourceType: 'Patient', unknownField: 1 }).length).toBeGreaterThan(0);
  });
});
