import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import type { TestApp } from './helpers';
import { buildTestApp, signedInUser, TEST_REMINDERS, TEST_TEXT } from './helpers';
import { loadFhirValidator } from './fhir-validator';
import { exportZip, importFile, makeRichAccount, readZip, snapshotAccount } from './export-helpers';
import { fixture, storedBlobs } from './files-helpers';
import { clinicalOf, expectReportAddsUp, rowOf, tallyOf } from './fhir-import-helpers';
import { selfProfileId } from '../src/common/person-access';

let t: TestApp;
let small: FastifyInstance;
let fhirErrors: (resource: unknown) => string[];
beforeAll(async () => {
  t = await buildTestApp();
  small = await buildApp({
    config: t.config,
    database: t.database,
    webRoot: null,
    importLimits: { maxJsonBytes: 100_000 },
    reminders: TEST_REMINDERS,
    text: TEST_TEXT,
  });
  await small.ready();
  fhirErrors = await loadFhirValidator();
});
afterAll(async () => {
  await small.close();
  await t.close();
});

type User = Awaited<ReturnType<typeof signedInUser>>;
type Json = Record<string, unknown>;

const PATIENT = 'urn:uuid:11111111-1111-4111-8111-111111111111';

/** A summary as another system might write it: codes, structured names, other units. */
function clinicBundle(): Json {
  const entry = (fullUrl: string, resource: Json) => ({ fullUrl, resource });
  const subject = { reference: PATIENT };
  return {
    resourceType: 'Bundle',
    type: 'collection',
    entry: [
      entry(PATIENT, {
        resourceType: 'Patient',
        id: 'p1',
        name: [{ use: 'official', family: 'Okafor', given: ['Ngozi', 'A.'] }],
        birthDate: '1975-09-30',
        telecom: [
          { system: 'email', value: 'ngozi@example.org' },
          { system: 'phone', value: '+44 20 7946 0000', rank: 2 },
          { system: 'phone', value: '+44 7700 900123', rank: 1 },
        ],
        address: [{ line: ['4 Wharf Road'], city: 'London', postalCode: 'N1 7GR', country: 'UK' }],
        communication: [
          { language: { coding: [{ system: 'urn:ietf:bcp:47', code: 'en-GB', display: 'English (United Kingdom)' }] }, preferred: true },
        ],
        contact: [
          {
            relationship: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0131', code: 'C' }] }, { text: 'brother' }],
            name: { given: ['Chidi'], family: 'Okafor' },
            telecom: [{ system: 'phone', value: '+44 7700 900456', rank: 1 }],
          },
        ],
      }),
      entry('urn:uuid:a1', {
        resourceType: 'AllergyIntolerance',
        clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: 'active' }] },
        code: { coding: [{ system: 'http://snomed.info/sct', code: '91936005', display: 'Allergy to penicillin' }] },
        patient: subject,
      }),
      entry('urn:uuid:a2', {
        resourceType: 'AllergyIntolerance',
        clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: 'active' }] },
        code: { text: 'Latex' },
        patient: subject,
        reaction: [{ manifestation: [{ text: 'Hives' }] }],
      }),
      entry('urn:uuid:c1', {
        resourceType: 'Condition',
        clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
        code: { text: 'Type 2 diabetes' },
        subject,
      }),
      entry('urn:uuid:c2', {
        resourceType: 'Condition',
        clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'resolved' }] },
        code: { text: 'Pneumonia' },
        subject,
      }),
      entry('urn:uuid:med1', {
        resourceType: 'Medication',
        code: {
          coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '860975', display: 'Metformin 500 MG Oral Tablet' }],
        },
      }),
      entry('urn:uuid:ms1', {
        resourceType: 'MedicationStatement',
        status: 'active',
        medicationReference: { reference: 'urn:uuid:med1' },
        subject,
        effectivePeriod: { start: '2021-03-01' },
        dosage: [{ text: '1 tablet twice a day with food' }],
        reasonCode: [{ text: 'Diabetes' }],
      }),
      entry('urn:uuid:ms2', {
        resourceType: 'MedicationStatement',
        status: 'completed',
        medicationCodeableConcept: { text: 'Amoxicillin 500 mg' },
        subject,
        effectivePeriod: { start: '2019-02-01T09:00:00Z', end: '2019-02-08' },
      }),
      entry('urn:uuid:o1', {
        resourceType: 'Observation',
        status: 'final',
        code: { coding: [{ system: 'http://loinc.org', code: '8302-2' }] },
        subject,
        valueQuantity: { value: 65, unit: 'in', system: 'http://unitsofmeasure.org', code: '[in_i]' },
      }),
      entry('urn:uuid:o2', {
        resourceType: 'Observation',
        status: 'final',
        code: { coding: [{ system: 'http://loinc.org', code: '29463-7' }] },
        subject,
        valueQuantity: { value: 165, unit: 'lb', system: 'http://unitsofmeasure.org', code: '[lb_av]' },
      }),
      entry('urn:uuid:o3', {
        resourceType: 'Observation',
        status: 'final',
        code: { coding: [{ system: 'http://loinc.org', code: '882-1' }] },
        subject,
        valueCodeableConcept: {
          coding: [{ system: 'http://snomed.info/sct', code: '278152006', display: 'Blood group A Rh(D) negative' }],
        },
      }),
      entry('urn:uuid:ap1', {
        resourceType: 'Appointment',
        status: 'booked',
        description: 'Diabetes review',
        reasonCode: [{ text: 'Annual diabetes review' }],
        start: '2027-03-04T10:15:00+01:00',
        end: '2027-03-04T10:45:00+01:00',
        participant: [
          { actor: { reference: PATIENT }, status: 'accepted' },
          { actor: { display: 'Dr. Amara Bello' }, status: 'accepted' },
        ],
      }),
      entry('urn:uuid:ap2', {
        resourceType: 'Appointment',
        status: 'cancelled',
        start: '2027-01-01T10:00:00Z',
        end: '2027-01-01T10:30:00Z',
        participant: [{ actor: { reference: PATIENT }, status: 'declined' }],
      }),
      entry('urn:uuid:d1', {
        resourceType: 'DocumentReference',
        status: 'current',
        subject,
        date: '2026-05-01T12:00:00Z',
        description: 'Discharge summary',
        author: [{ display: "St Mary's Hospital" }],
        content: [
          {
            attachment: {
              contentType: 'application/pdf',
              data: fixture('record.pdf').toString('base64'),
              title: 'Discharge summary.pdf',
              creation: '2026-04-30',
            },
          },
        ],
        context: { related: [{ display: 'Inpatient stay' }] },
      }),
      entry('urn:uuid:d2', {
        resourceType: 'DocumentReference',
        status: 'current',
        subject,
        content: [{ attachment: { contentType: 'application/pdf', url: 'https://example.org/doc.pdf' } }],
      }),
      entry('urn:uuid:i1', {
        resourceType: 'Immunization',
        status: 'completed',
        vaccineCode: { text: 'Influenza' },
        patient: subject,
        occurrenceDateTime: '2025-10-01',
      }),
    ],
  };
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8');

async function state(user: User) {
  return {
    data: await snapshotAccount(t.database.db, user.id, user.client),
    clinical: await clinicalOf(t.database.db, user.id),
    blobs: storedBlobs(t.dataDir).committed.sort(),
  };
}

describe('import of a FHIR R4 Bundle', () => {
  it('the clinic bundle used here is valid FHIR R4 (checked with a real validator)', () => {
    const bundle = clinicBundle();
    expect(fhirErrors(bundle)).toEqual([]);
    for (const e of bundle.entry as { resource: Json }[]) expect(fhirErrors(e.resource), String(e.resource.resourceType)).toEqual([]);
  });

  it('maps Patient, AllergyIntolerance, Condition, MedicationStatement, Observation, Immunization, Appointment and embedded DocumentReference into the own profile', async () => {
    const user = await signedInUser(t.app);
    const bundle = clinicBundle();
    const res = await importFile(user.client, json(bundle), 'summary.json');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      format: 'fhir',
      imported: { allergies: 2, conditions: 2, medications: 2, emergency_contacts: 1, appointments: 1, files: 1, family_members: 0 },
    });
    expect(body.skipped).toEqual([
      '1 Appointment with status cancelled',
      '1 DocumentReference without embedded data (only a link, which Kinchart does not fetch)',
    ]);
    // Decision 0022: every resource is counted once, under its type.
    expectReportAddsUp(body, bundle);
    expect(tallyOf(body)).toEqual({
      Patient: [0, 1, 0, 0],
      AllergyIntolerance: [0, 2, 0, 0],
      Condition: [2, 0, 0, 0],
      Medication: [0, 1, 0, 0],
      MedicationStatement: [2, 0, 0, 0],
      Observation: [3, 0, 0, 0],
      Appointment: [1, 0, 0, 1],
      DocumentReference: [1, 0, 0, 1],
      Immunization: [1, 0, 0, 0],
    });
    expect(rowOf(body, 'DocumentReference').dropped).toEqual([
      { reason: 'without embedded data (only a link, which Kinchart does not fetch)', count: 1 },
    ]);

    // DESIGN §12: the structured items, with their codings and dates as given.
    const clinical = await clinicalOf(t.database.db, user.id);
    expect(clinical.immunizations).toMatchObject([{ vaccine: 'Influenza', date: '2025-10-01', codings: '[]' }]);
    expect(clinical.conditions).toMatchObject([
      { name: 'Pneumonia', status: 'resolved' },
      { name: 'Type 2 diabetes', status: 'active' },
    ]);
    expect(clinical.lab_results.map((r) => [r.name, r.category, r.loinc_code, r.value ?? r.value_text, r.unit])).toEqual([
      ['ABO and Rh group', 'laboratory', '882-1', 'Blood group A Rh(D) negative', null],
      ['Body height', 'vital-signs', '8302-2', 65, 'in'],
      ['Body weight', 'vital-signs', '29463-7', 165, 'lb'],
    ]);
    const metformin = await t.database.db
      .selectFrom('medications')
      .select(['medication_name', 'codings'])
      .where('user_id', '=', user.id)
      .orderBy('position')
      .execute();
    expect(metformin.map((m) => [m.medication_name, m.codings === null ? null : JSON.parse(m.codings)])).toEqual([
      [
        'Metformin 500 MG Oral Tablet',
        [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '860975', display: 'Metformin 500 MG Oral Tablet' }],
      ],
      ['Amoxicillin 500 mg', null],
    ]);

    const p = (await user.client.get('/api/user/getPatientProfile')).json();
    expect(p).toMatchObject({
      name: 'Ngozi A. Okafor',
      date_of_birth: '1975-09-30',
      phone_number: '+44 7700 900123',
      email: 'ngozi@example.org',
      address: '4 Wharf Road, London, N1 7GR, UK',
      primary_language: 'English (United Kingdom)',
      blood_type: 'A-',
      height: 165.1,
      weight: 74.8,
      has_allergies: true,
      // Issue 34: an allergy's line names its reactions.
      allergy_details: 'Allergy to penicillin\nLatex — Hives',
      has_chronic_conditions: true,
      // The resolved pneumonia is a structured condition only, not a chronic one (decision 0035).
      chronic_condition_details: 'Type 2 diabetes',
    });
    expect(p.medications).toMatchObject([
      {
        medication_name: 'Metformin 500 MG Oral Tablet',
        dosage: '1 tablet twice a day with food',
        purpose: 'Diabetes',
        start_date: '2021-03-01',
        is_current: true,
      },
      { medication_name: 'Amoxicillin 500 mg', start_date: '2019-02-01', end_date: '2019-02-08', is_current: false },
    ]);
    expect(p.emergency_contacts).toMatchObject([
      { name: 'Chidi Okafor', relationship: 'brother', phone_number: '+44 7700 900456', is_primary: true },
    ]);

    const appointments = (await user.client.get('/api/user/appointments')).json();
    expect(appointments).toMatchObject([
      // The wall clock where the appointment is (its own offset, +01:00), as Kinchart keeps appointment times (DESIGN §13).
      {
        appointment_date: '2027-03-04',
        start_time: '2027-03-04T10:15:00',
        end_time: '2027-03-04T10:45:00',
        provider_name: 'Dr. Amara Bello',
        reason_for_visit: 'Annual diabetes review',
      },
    ]);

    const files = (await user.client.get('/api/user/files')).json();
    expect(files).toMatchObject([
      {
        display_name: 'Discharge summary.pdf',
        file_type: 'application/pdf',
        record_date: '2026-04-30',
        provider_name: "St Mary's Hospital",
        visit_reason: 'Inpatient stay',
      },
    ]);
    const content = await user.client.get(files[0].url);
    expect(content.rawPayload).toEqual(fixture('record.pdf'));
  });

  it('reads IPS "none known" statements as none known: no allergy, medication or problem is added, and each is reported', async () => {
    const subject = { reference: PATIENT };
    const ABSENT = 'http://hl7.org/fhir/uv/ips/CodeSystem/absent-unknown-uv-ips';
    const active = (system: string) => ({ coding: [{ system, code: 'active' }] });
    const bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        { fullUrl: PATIENT, resource: { resourceType: 'Patient', name: [{ family: 'Okafor', given: ['Ngozi'] }] } },
        {
          fullUrl: 'urn:uuid:n1',
          resource: {
            resourceType: 'AllergyIntolerance',
            clinicalStatus: active('http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical'),
            code: { coding: [{ system: ABSENT, code: 'no-known-allergies', display: 'No known allergies' }] },
            patient: subject,
          },
        },
        {
          fullUrl: 'urn:uuid:n2',
          resource: {
            resourceType: 'AllergyIntolerance',
            clinicalStatus: active('http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical'),
            code: { coding: [{ system: 'http://snomed.info/sct', code: '716186003', display: 'No known allergy' }] },
            patient: subject,
          },
        },
        {
          fullUrl: 'urn:uuid:n3',
          resource: {
            resourceType: 'MedicationStatement',
            status: 'active',
            medicationCodeableConcept: { coding: [{ system: ABSENT, code: 'no-known-medications', display: 'No known medications' }] },
            subject,
          },
        },
        {
          fullUrl: 'urn:uuid:n4',
          resource: {
            resourceType: 'Condition',
            clinicalStatus: active('http://terminology.hl7.org/CodeSystem/condition-clinical'),
            code: { coding: [{ system: 'http://snomed.info/sct', code: '160245001', display: 'No current problems or disability' }] },
            subject,
          },
        },
      ],
    };
    expect(fhirErrors(bundle)).toEqual([]);
    const user = await signedInUser(t.app);
    const res = await importFile(user.client, json(bundle), 'ips.json');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ imported: { allergies: 0, conditions: 0, medications: 0 } });
    expect(res.json().skipped).toEqual(
      expect.arrayContaining([
        '2 AllergyIntolerance saying none are known (nothing to add)',
        '1 MedicationStatement saying none are known (nothing to add)',
        '1 Condition saying none are known (nothing to add)',
      ]),
    );
    const p = (await user.client.get('/api/user/getPatientProfile')).json();
    expect(p).toMatchObject({
      has_allergies: false,
      allergy_details: null,
      has_chronic_conditions: false,
      chronic_condition_details: null,
      medications: [],
    });
  });

  it('importing the same bundle twice adds nothing the second time', async () => {
    const user = await signedInUser(t.app);
    expect((await importFile(user.client, json(clinicBundle()), 'a.json')).statusCode).toBe(200);
    const once = await state(user);
    const again = await importFile(user.client, json(clinicBundle()), 'a.json');
    expect(again.statusCode).toBe(200);
    expect(again.json().imported).toMatchObject({ medications: 0, emergency_contacts: 0, appointments: 0, files: 0 });
    expect(again.json().already_present).toEqual({
      family_members: 0,
      emergency_contacts: 1,
      healthcare_providers: 0,
      medications: 2,
      immunizations: 1,
      lab_results: 3,
      conditions: 2,
      procedures: 0,
      appointments: 1,
      notifications: 0,
      files: 1,
    });
    // The report says the same, resource by resource: nothing imported or merged.
    expect(tallyOf(again.json())).toEqual({
      Patient: [0, 0, 1, 0],
      AllergyIntolerance: [0, 0, 2, 0],
      Condition: [0, 0, 2, 0],
      Medication: [0, 0, 1, 0],
      MedicationStatement: [0, 0, 2, 0],
      Observation: [0, 0, 3, 0],
      Appointment: [0, 0, 1, 1],
      DocumentReference: [0, 0, 1, 1],
      Immunization: [0, 0, 1, 0],
    });
    const twice = await state(user);
    // Only the profile's updated_at may move.
    expect(twice).toEqual(once);
  });

  it('a coded allergy becomes an entry with its codings, once; a line read from a reaction brings none; a re-import knows an edited allergy by its code', async () => {
    const SNOMED = 'http://snomed.info/sct';
    const penicillin = { system: SNOMED, code: '91936005', display: 'Allergy to penicillin' };
    const shellfish = { system: SNOMED, code: '300913006', display: 'Shellfish allergy' };
    const clinical = (code: string) => ({
      coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code }],
    });
    const bundle = clinicBundle();
    (bundle.entry as unknown[]).push(
      {
        fullUrl: 'urn:uuid:a3',
        resource: {
          resourceType: 'AllergyIntolerance',
          clinicalStatus: clinical('resolved'),
          code: { coding: [shellfish], text: 'Shellfish' },
          patient: { reference: PATIENT },
        },
      },
      {
        fullUrl: 'urn:uuid:a4',
        resource: {
          resourceType: 'AllergyIntolerance',
          clinicalStatus: clinical('active'),
          patient: { reference: PATIENT },
          reaction: [{ manifestation: [{ coding: [{ system: SNOMED, code: '271807003', display: 'Rash' }] }] }],
        },
      },
    );
    expect(fhirErrors(bundle)).toEqual([]);
    const user = await signedInUser(t.app);
    const self = await selfProfileId(t.database.db, user.id);
    const profileOf = async (u: User) => (await u.client.get('/api/user/getPatientProfile')).json<{ allergy_details: string | null }>();
    type Entry = { id: string; substance: string; codings: unknown[] };
    const entries = async () => (await user.client.get(`/api/user/people/${self}/allergies`)).json<Entry[]>();
    const codes = async () => (await entries()).map((e) => [e.substance, e.codings]);

    expect((await importFile(user.client, json(bundle), 'a.json')).statusCode).toBe(200);
    expect((await profileOf(user)).allergy_details).toBe('Allergy to penicillin\nLatex — Hives\nShellfish (resolved)\nRash');
    expect(await codes()).toEqual([
      ['Allergy to penicillin', [penicillin]],
      ['Latex', []],
      ['Shellfish (resolved)', [shellfish]],
      ['Rash', []],
    ]);
    const once = await entries();
    expect((await importFile(user.client, json(bundle), 'a.json')).statusCode).toBe(200);
    expect(await entries()).toEqual(once);

    // The person gives the penicillin allergy a reaction: its line changes, yet a re-import knows it
    // by its code (issue 34: no duplicate).
    const pen = once[0]!;
    expect(
      (await user.client.put(`/api/user/people/${self}/allergies/${pen.id}`, { substance: pen.substance, reactions: ['Hives'] }))
        .statusCode,
    ).toBe(200);
    expect((await importFile(user.client, json(bundle), 'a.json')).statusCode).toBe(200);
    expect((await profileOf(user)).allergy_details).toBe('Allergy to penicillin — Hives\nLatex — Hives\nShellfish (resolved)\nRash');

    // The person edits the details: a line kept keeps its entry, the others go.
    expect(
      (await user.client.put('/api/user/updateProfile', { has_allergies: true, allergy_details: 'Shellfish (resolved)\nCats' })).statusCode,
    ).toBe(200);
    expect(await codes()).toEqual([
      ['Shellfish (resolved)', [shellfish]],
      ['Cats', []],
    ]);
    // An import then adds what is not there, each with its own codes; what is there stays one.
    expect((await importFile(user.client, json(bundle), 'b.json')).statusCode).toBe(200);
    expect((await profileOf(user)).allergy_details).toBe('Shellfish (resolved)\nCats\nAllergy to penicillin\nLatex — Hives\nRash');
    expect(await codes()).toEqual([
      ['Shellfish (resolved)', [shellfish]],
      ['Cats', []],
      ['Allergy to penicillin', [penicillin]],
      ['Latex', []],
      ['Rash', []],
    ]);
  });

  it("goes to a chosen family member, and an animal Patient makes them a pet; another user's member is a 404", async () => {
    const owner = await signedInUser(t.app);
    const member = (
      await owner.client.post('/api/user/family/add', { name: 'Buddy', date_of_birth: '2018-01-01', relationship: 'dog' })
    ).json();
    const bundle = clinicBundle();
    const patient = (bundle.entry as { resource: Json }[])[0]!.resource;
    patient.extension = [
      {
        url: 'http://hl7.org/fhir/StructureDefinition/patient-animal',
        extension: [{ url: 'species', valueCodeableConcept: { text: 'Dog' } }],
      },
    ];
    patient.name = [{ text: 'Buddy' }];
    expect(fhirErrors(bundle)).toEqual([]);

    const stranger = await signedInUser(t.app);
    const before = await state(owner);
    const refused = await importFile(stranger.client, json(bundle), 'dog.json', { profileId: member.id });
    expect(refused.statusCode).toBe(404);
    expect(await state(owner)).toEqual(before);

    const res = await importFile(owner.client, json(bundle), 'dog.json', { profileId: member.id });
    expect(res.statusCode, res.body).toBe(200);
    const m = (await owner.client.get(`/api/user/family/members/${member.id}`)).json();
    expect(m).toMatchObject({ name: 'Buddy', is_pet: true, relationship: 'dog', allergy_details: 'Allergy to penicillin\nLatex — Hives' });
    expect(m.medications).toHaveLength(2);
    const self = (await owner.client.get('/api/user/getPatientProfile')).json();
    expect(self.medications).toEqual([]);
    expect(self.allergy_details).toBeNull();
  });

  it("reads back the IPS bundles Kinchart exports: a person's summary comes back as the same records", async () => {
    const { user: source } = await makeRichAccount(t);
    const zip = await readZip(await exportZip(source.client));
    const target = await signedInUser(t.app);
    const res = await importFile(target.client, zip.get('fhir/Jordan Rivers.json')!, 'Jordan Rivers.json');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().skipped).toEqual([]);
    // Appointments and files are in the collection beside the IPS document (decision 0023).
    const other = await importFile(target.client, zip.get('fhir/Jordan Rivers-other.json')!, 'Jordan Rivers-other.json');
    expect(other.statusCode, other.body).toBe(200);
    // The collection carries each file's bytes (issue 30).
    expect(other.json().skipped).toEqual([]);
    expect(other.json().imported).toMatchObject({ files: 4, appointments: 3 });

    const [a, b] = await Promise.all([source.client.get('/api/user/getPatientProfile'), target.client.get('/api/user/getPatientProfile')]);
    const was = a.json();
    const now = b.json();
    for (const key of [
      'name',
      'date_of_birth',
      'phone_number',
      'email',
      'address',
      'blood_type',
      'height',
      'weight',
      'primary_language',
      'has_allergies',
      'allergy_details',
      'had_anesthesia_reactions',
      'anesthesia_reaction_details',
      'has_chronic_conditions',
      'chronic_condition_details',
      'has_bleeding_disorders',
      'bleeding_disorder_details',
      'has_previous_surgeries',
      'surgery_details',
      'has_vision_impairment',
    ]) {
      expect(now[key], key).toEqual(was[key]);
    }
    const meds = (list: Record<string, unknown>[]) =>
      list.map(({ medication_name, dosage, frequency, purpose, start_date, end_date, is_current }) => ({
        medication_name,
        dosage,
        frequency,
        purpose,
        start_date,
        end_date,
        is_current,
      }));
    expect(meds(now.medications)).toEqual(
      meds(was.medications).map((m) => (m.medication_name === null ? { ...m, medication_name: 'Unnamed medication' } : m)),
    );
    const contacts = (list: Record<string, unknown>[]) =>
      list.map(({ name, relationship, phone_number, email, is_primary, has_medical_power }) => ({
        name,
        relationship,
        phone_number,
        email,
        is_primary,
        has_medical_power,
      }));
    expect(contacts(now.emergency_contacts)).toEqual(contacts(was.emergency_contacts));
    expect(
      now.healthcare_providers.map((h: { provider_name: string; specialty: string; phone_number: string }) => [
        h.provider_name,
        h.specialty,
        h.phone_number,
      ]),
    ).toEqual([['Dr. Chen', 'Cardiology', '555-0300']]);
    expect((await target.client.get('/api/user/appointments')).json()).toHaveLength(3);
  });

  describe('refuses, changing nothing', () => {
    let victim: User;
    beforeAll(async () => {
      victim = await signedInUser(t.app);
      await victim.client.put('/api/user/updateProfile', { name: 'Victim', has_allergies: true, allergy_details: 'Latex' });
    });

    async function expectRefused(body: Buffer, status: number, message: RegExp, fields: Record<string, string> = {}) {
      const before = await state(victim);
      const res = await importFile(victim.client, body, 'bundle.json', fields);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().message).toMatch(message);
      expect(await state(victim)).toEqual(before);
      expect(storedBlobs(t.dataDir).temp).toEqual([]);
    }

    it('a bundle that is not a valid Bundle itself, naming the element', async () => {
      const noType = clinicBundle();
      delete noType.type;
      expect(fhirErrors(noType).length).toBeGreaterThan(0);
      await expectRefused(json(noType), 400, /FHIR Bundle is not valid: Bundle type/);
      await expectRefused(
        json({ ...clinicBundle(), entry: { resource: { resourceType: 'Patient' } } }),
        400,
        /FHIR Bundle is not valid: Bundle entry: must be array/,
      );
    });

    it('a resource that is not a Bundle, JSON that is not FHIR, and text that is not JSON', async () => {
      await expectRefused(
        json({ resourceType: 'Patient', name: [{ text: 'x' }] }),
        400,
        /Only a FHIR Bundle can be imported; this file is a Patient/,
      );
      await expectRefused(json({ hello: 'world' }), 400, /resourceType is missing/);
      await expectRefused(Buffer.from('{"resourceType": "Bundle",'), 400, /not valid JSON/);
      await expectRefused(
        Buffer.from(
          '{"resourceType":"Bundle","type":"collection","entry":[{"resource":{"resourceType":"Patient","name":[{"text":"A\\u0000"}]}}]}',
        ),
        400,
        /NUL character/,
      );
      await expectRefused(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), 400, /not UTF-8 text/);
    });

    it('a bundle about several patients with nothing saying whose it is', async () => {
      const bundle = clinicBundle();
      (bundle.entry as unknown[]).push({
        fullUrl: 'urn:uuid:22222222-2222-4222-8222-222222222222',
        resource: { resourceType: 'Patient', name: [{ text: 'Other' }] },
      });
      await expectRefused(json(bundle), 400, /more than one Patient/);
    });

    it('a bundle larger than the cap', async () => {
      const user = await signedInUser(small);
      const bundle = clinicBundle();
      (bundle.entry as { resource: Json }[])[3]!.resource.code = { text: 'x'.repeat(120_000) };
      const res = await importFile(user.client, json(bundle), 'big.json');
      expect(res.statusCode).toBe(413);
      expect(res.json().message).toBe('A FHIR Bundle may be at most 0.1 MB.');
    });
  });

  describe('resource by resource (decision 0022)', () => {
    /** The clinic bundle with one change that a FHIR validator also refuses. */
    function broken(edit: (entries: { resource: Json }[]) => void): Json {
      const bundle = clinicBundle();
      edit(bundle.entry as { resource: Json }[]);
      expect(
        fhirErrors(bundle).length + (bundle.entry as { resource: Json }[]).reduce((n, e) => n + fhirErrors(e.resource).length, 0),
      ).toBeGreaterThan(0);
      return bundle;
    }

    it('a user whose summary holds malformed resources gets everything else, and each one left out is reported with the element and the rule', async () => {
      const bundle = broken((e) => {
        e[0]!.resource.birthDate = 'yesterday';
        delete e[1]!.resource.patient;
        delete e[2]!.resource.clinicalStatus;
        // R4 binds MedicationStatement.status with strength "required". Medplum's validator does not
        // check bindings; Kinchart does, for the codes it reads.
        e[6]!.resource.status = 'taking';
        e[11]!.resource.start = '2027-03-04 10:15';
        (e[13]!.resource.content as { attachment: Json }[])[0]!.attachment.data = 'not base64!';
      });
      const user = await signedInUser(t.app);
      const res = await importFile(user.client, json(bundle), 'bundle.json');
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expectReportAddsUp(body, bundle);
      // Issue 30: the Patient is kept without its malformed birth date, which is named as left out.
      expect(rowOf(body, 'Patient')).toMatchObject({
        merged: 1,
        dropped: [],
        parts_left_out: [{ reason: 'not valid FHIR (birthDate: must be a FHIR date (YYYY, YYYY-MM or YYYY-MM-DD))', count: 1 }],
      });
      expect(rowOf(body, 'AllergyIntolerance').dropped).toEqual([
        { reason: 'not valid FHIR (patient: is required)', count: 1 },
        { reason: 'not valid FHIR (clinicalStatus: is required unless verificationStatus is entered-in-error (ait-1))', count: 1 },
      ]);
      expect(rowOf(body, 'MedicationStatement')).toMatchObject({
        imported: 1,
        dropped: [
          {
            reason:
              'not valid FHIR (status: must be one of active, completed, entered-in-error, intended, stopped, on-hold, unknown, not-taken)',
            count: 1,
          },
        ],
      });
      expect(rowOf(body, 'Appointment').dropped).toEqual([
        { reason: 'not valid FHIR (start: must be a FHIR instant (date, time and zone))', count: 1 },
        { reason: 'with status cancelled', count: 1 },
      ]);
      expect(rowOf(body, 'DocumentReference').dropped).toEqual([
        { reason: 'not valid FHIR (content.0.attachment.data: must be base64)', count: 1 },
        { reason: 'without embedded data (only a link, which Kinchart does not fetch)', count: 1 },
      ]);
      expect(body.skipped).toEqual(
        expect.arrayContaining([
          '1 Patient element left out, not valid FHIR (birthDate: must be a FHIR date (YYYY, YYYY-MM or YYYY-MM-DD))',
        ]),
      );
      // Everything else came in.
      expect(tallyOf(body)).toMatchObject({ Condition: [2, 0, 0, 0], Observation: [3, 0, 0, 0], Immunization: [1, 0, 0, 0] });
      // The Medication only the malformed statement named fares as that statement did (issue 30).
      expect(rowOf(body, 'Medication').dropped).toEqual([{ reason: 'named only by resources that were left out', count: 1 }]);
      const p = (await user.client.get('/api/user/getPatientProfile')).json();
      expect(p).toMatchObject({
        name: 'Ngozi A. Okafor',
        date_of_birth: null,
        has_allergies: false,
        blood_type: 'A-',
        chronic_condition_details: 'Type 2 diabetes',
      });
      expect(p.medications.map((m: { medication_name: string }) => m.medication_name)).toEqual(['Amoxicillin 500 mg']);
      expect((await user.client.get('/api/user/files')).json()).toEqual([]);
    });

    it('an embedded document of a type Kinchart does not keep is left out and its bytes are not kept; the other document is', async () => {
      const bundle = clinicBundle();
      (bundle.entry as unknown[]).push({
        fullUrl: 'urn:uuid:d3',
        resource: {
          resourceType: 'DocumentReference',
          status: 'current',
          content: [
            {
              attachment: {
                contentType: 'text/html',
                title: 'page.html',
                data: Buffer.from('<html><script>alert(1)</script></html>').toString('base64'),
              },
            },
          ],
        },
      });
      const user = await signedInUser(t.app);
      const before = storedBlobs(t.dataDir).committed.length;
      const res = await importFile(user.client, json(bundle), 'bundle.json');
      expect(res.statusCode, res.body).toBe(200);
      expect(rowOf(res.json(), 'DocumentReference')).toMatchObject({
        imported: 1,
        dropped: expect.arrayContaining([
          { reason: expect.stringMatching(/^attachment not kept \(This file type is not supported/), count: 1 },
        ]),
      });
      expect((await user.client.get('/api/user/files')).json().map((f: { display_name: string }) => f.display_name)).toEqual([
        'Discharge summary.pdf',
      ]);
      expect(storedBlobs(t.dataDir).committed.length).toBe(before + 1);
      expect(storedBlobs(t.dataDir).temp).toEqual([]);
    });

    it('an Observation with a value given as text in valueQuantity, or as a bare "value", is left out and reported; the rest comes in', async () => {
      const bundle = clinicBundle();
      const obs = (id: string, extra: Json): { fullUrl: string; resource: Json } => ({
        fullUrl: `urn:uuid:${id}`,
        resource: {
          resourceType: 'Observation',
          status: 'final',
          code: { coding: [{ system: 'http://loinc.org', code: '4548-4', display: 'Hemoglobin A1c' }] },
          subject: { reference: PATIENT },
          ...extra,
        },
      });
      (bundle.entry as unknown[]).push(
        obs('bad1', { valueQuantity: { value: '7.5', unit: '%' } }),
        obs('bad2', { value: '7.5' }),
        obs('good', { valueQuantity: { value: 7.5, unit: '%' } }),
      );
      const user = await signedInUser(t.app);
      const res = await importFile(user.client, json(bundle), 'bundle.json');
      expect(res.statusCode, res.body).toBe(200);
      expect(rowOf(res.json(), 'Observation')).toEqual({
        resource_type: 'Observation',
        imported: 4,
        merged: 0,
        already_present: 0,
        dropped: [
          { reason: 'not valid FHIR (valueQuantity.value: must be number)', count: 1 },
          {
            reason:
              'not valid FHIR (value: is not an element of Observation; a value goes in valueQuantity, valueString, valueCodeableConcept or another value[x])',
            count: 1,
          },
        ],
        parts_left_out: [],
      });
      const labs = (await clinicalOf(t.database.db, user.id)).lab_results;
      expect(labs.filter((l) => l.loinc_code === '4548-4')).toMatchObject([{ name: 'Hemoglobin A1c', value: 7.5, unit: '%' }]);
    });
  });

  describe('clinical resources, medication requests and reports', () => {
    const subject = { reference: PATIENT };
    const SNOMED = 'http://snomed.info/sct';
    const LOINC = 'http://loinc.org';
    const entry = (id: string, resource: Json) => ({ fullUrl: `urn:uuid:${id}`, resource });

    /** A summary as a hospital system (or Synthea) might write it: requests, results, visits and reports. */
    function recordsBundle(): Json {
      return {
        resourceType: 'Bundle',
        type: 'collection',
        entry: [
          {
            fullUrl: PATIENT,
            resource: { resourceType: 'Patient', name: [{ given: ['Ada'], family: 'Lovelace' }], birthDate: '1980-12-10' },
          },
          entry('org', { resourceType: 'Organization', name: 'Northside Clinic' }),
          entry('dr-who', { resourceType: 'Practitioner', name: [{ prefix: ['Dr.'], given: ['Rosa'], family: 'Diaz' }] }),
          entry('cond', {
            resourceType: 'Condition',
            clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'resolved' }] },
            code: { coding: [{ system: SNOMED, code: '195662009', display: 'Acute viral pharyngitis' }] },
            subject,
            onsetString: '2015-03',
            abatementDateTime: '2015-04-02T10:00:00Z',
          }),
          entry('med', {
            resourceType: 'Medication',
            code: {
              coding: [
                { system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '308182', display: 'Amoxicillin 250 MG Oral Capsule' },
              ],
            },
          }),
          entry('mr1', {
            resourceType: 'MedicationRequest',
            status: 'stopped',
            intent: 'order',
            medicationReference: { reference: 'urn:uuid:med' },
            subject,
            authoredOn: '2015-03-14T09:30:00Z',
            reasonReference: [{ reference: 'urn:uuid:cond' }],
            dosageInstruction: [
              {
                timing: { repeat: { frequency: 3, period: 1, periodUnit: 'd' } },
                doseAndRate: [{ doseQuantity: { value: 1, unit: 'capsule', system: 'http://unitsofmeasure.org', code: '{capsule}' } }],
              },
            ],
            dispenseRequest: { validityPeriod: { start: '2015-03-14', end: '2015-03-24' } },
          }),
          entry('mr2', {
            resourceType: 'MedicationRequest',
            contained: [{ resourceType: 'Medication', id: 'm', code: { text: 'Ibuprofen 200 mg tablet' } }],
            status: 'active',
            intent: 'order',
            medicationReference: { reference: '#m' },
            subject,
            authoredOn: '2024-01-05',
            dosageInstruction: [
              { text: '1–2 tablets', timing: { repeat: { frequency: 1, period: 8, periodUnit: 'h' } }, asNeededBoolean: true },
            ],
          }),
          entry('mr3', {
            resourceType: 'MedicationRequest',
            status: 'entered-in-error',
            intent: 'order',
            medicationCodeableConcept: { text: 'Wrong patient' },
            subject,
          }),
          entry('imm', {
            resourceType: 'Immunization',
            status: 'completed',
            vaccineCode: { coding: [{ system: 'http://hl7.org/fhir/sid/cvx', code: '08', display: 'Hep B, adolescent or pediatric' }] },
            patient: subject,
            occurrenceString: '2015-03',
            lotNumber: 'HB-2015-7',
            site: { coding: [{ system: SNOMED, code: '368208006', display: 'Left upper arm structure' }] },
            performer: [{ actor: { reference: 'urn:uuid:org' } }],
            protocolApplied: [{ doseNumberPositiveInt: 2 }],
            note: [{ text: 'Second of three doses' }],
          }),
          entry('bp', {
            resourceType: 'Observation',
            status: 'final',
            category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' }] }],
            code: {
              coding: [{ system: LOINC, code: '85354-9', display: 'Blood pressure panel with all children optional' }],
              text: 'Blood pressure',
            },
            subject,
            effectiveDateTime: '2024-01-05T10:00:00+01:00',
            component: [
              {
                code: { coding: [{ system: LOINC, code: '8480-6', display: 'Systolic blood pressure' }] },
                valueQuantity: { value: 142, unit: 'mmHg', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' },
                interpretation: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation', code: 'H' }] }],
              },
              {
                code: { coding: [{ system: LOINC, code: '8462-4' }], text: 'Diastolic' },
                valueQuantity: { value: 88, unit: 'mmHg', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' },
              },
            ],
          }),
          entry('glucose', {
            resourceType: 'Observation',
            status: 'final',
            category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory' }] }],
            code: { coding: [{ system: LOINC, code: '2345-7', display: 'Glucose [Mass/volume] in Serum or Plasma' }] },
            subject,
            effectivePeriod: { start: '2023-11-20T08:00:00Z' },
            valueQuantity: { value: 5.4, unit: 'mmol/L' },
            referenceRange: [{ low: { value: 3.9, unit: 'mmol/L' }, high: { value: 5.6, unit: 'mmol/L' } }],
            note: [{ text: 'Fasting' }],
          }),
          entry('strep', {
            resourceType: 'Observation',
            status: 'final',
            code: { text: 'Rapid strep test' },
            subject,
            issued: '2015-03-14T10:00:00Z',
            valueCodeableConcept: { coding: [{ system: SNOMED, code: '260385009', display: 'Negative' }] },
          }),
          entry('smoking', {
            resourceType: 'Observation',
            status: 'final',
            category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'social-history' }] }],
            code: { coding: [{ system: LOINC, code: '72166-2', display: 'Tobacco smoking status' }] },
            subject,
            valueCodeableConcept: { text: 'Never smoker' },
          }),
          entry('proc', {
            resourceType: 'Procedure',
            status: 'completed',
            code: { coding: [{ system: SNOMED, code: '80146002', display: 'Appendectomy' }] },
            subject,
            performedPeriod: { start: '2010-06-01T08:00:00Z', end: '2010-06-01T09:00:00Z' },
            performer: [{ actor: { display: 'Dr. Rosa Diaz' } }],
          }),
          entry('visit', {
            resourceType: 'Encounter',
            status: 'finished',
            class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'AMB' },
            type: [{ text: 'General examination' }],
            subject,
            reasonCode: [{ text: 'Sore throat' }],
            serviceProvider: { display: 'Northside Clinic' },
          }),
          entry('visit2', {
            resourceType: 'Encounter',
            status: 'finished',
            class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'AMB' },
            subject,
          }),
          entry('report', {
            resourceType: 'DiagnosticReport',
            status: 'final',
            code: { coding: [{ system: LOINC, code: '11506-3', display: 'Progress note' }] },
            subject,
            encounter: { reference: 'urn:uuid:visit' },
            effectiveDateTime: '2015-03-14T09:00:00Z',
            issued: '2015-03-14T12:00:00Z',
            performer: [{ reference: 'urn:uuid:dr-who' }],
            presentedForm: [{ contentType: 'application/pdf', data: fixture('record.pdf').toString('base64') }],
          }),
          entry('labs', {
            resourceType: 'DiagnosticReport',
            status: 'final',
            code: { text: 'Lipid panel' },
            subject,
            result: [{ reference: 'urn:uuid:glucose' }],
          }),
          entry('goal', { resourceType: 'Goal', lifecycleStatus: 'active', description: { text: 'Walk every day' }, subject }),
        ],
      };
    }

    it('the records bundle used here is valid FHIR R4 (checked with a real validator)', () => {
      const bundle = recordsBundle();
      expect(fhirErrors(bundle)).toEqual([]);
      for (const e of bundle.entry as { resource: Json }[]) expect(fhirErrors(e.resource), String(e.resource.resourceType)).toEqual([]);
    });

    it('a user who imports a summary gets its requests, immunizations, results, conditions, procedures and reports, codings and partial dates kept', async () => {
      const user = await signedInUser(t.app);
      const bundle = recordsBundle();
      const res = await importFile(user.client, json(bundle), 'records.json');
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expectReportAddsUp(body, bundle);
      expect(tallyOf(body)).toEqual({
        Patient: [0, 1, 0, 0],
        Organization: [0, 1, 0, 0],
        Practitioner: [1, 0, 0, 0],
        Condition: [1, 0, 0, 0],
        Medication: [0, 1, 0, 0],
        MedicationRequest: [2, 0, 0, 1],
        Immunization: [1, 0, 0, 0],
        Observation: [3, 0, 0, 1],
        Procedure: [1, 0, 0, 0],
        Encounter: [0, 1, 0, 1],
        DiagnosticReport: [1, 0, 0, 1],
        Goal: [0, 0, 0, 1],
      });
      expect(rowOf(body, 'MedicationRequest').dropped).toEqual([{ reason: 'with status entered-in-error', count: 1 }]);
      expect(rowOf(body, 'Observation').dropped).toEqual([
        { reason: 'in category social-history (Kinchart keeps laboratory results and vital signs)', count: 1 },
      ]);
      expect(rowOf(body, 'Encounter').dropped).toEqual([
        { reason: 'a visit without a report attached (Kinchart keeps the documents of visits, not the visits)', count: 1 },
      ]);
      expect(rowOf(body, 'DiagnosticReport').dropped).toEqual([
        { reason: 'without an attached report (presentedForm with data)', count: 1 },
      ]);
      expect(rowOf(body, 'Goal').dropped).toEqual([{ reason: 'not imported by Kinchart', count: 1 }]);
      expect(body.skipped).toEqual(
        expect.arrayContaining(['1 Goal (not something Kinchart keeps)', '1 MedicationRequest with status entered-in-error']),
      );

      const p = (await user.client.get('/api/user/getPatientProfile')).json();
      expect(p.medications).toMatchObject([
        {
          medication_name: 'Amoxicillin 250 MG Oral Capsule',
          dosage: '1 capsule',
          frequency: '3 times a day',
          purpose: 'Acute viral pharyngitis',
          start_date: '2015-03-14',
          end_date: '2015-03-24',
          is_current: false,
        },
        {
          medication_name: 'Ibuprofen 200 mg tablet',
          dosage: '1–2 tablets',
          frequency: 'every 8 hours, as needed',
          purpose: null,
          start_date: '2024-01-05',
          end_date: null,
          is_current: true,
        },
      ]);
      const meds = await t.database.db
        .selectFrom('medications')
        .select('codings')
        .where('user_id', '=', user.id)
        .orderBy('position')
        .execute();
      expect(meds.map((m) => m.codings)).toEqual([
        JSON.stringify([
          { system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '308182', display: 'Amoxicillin 250 MG Oral Capsule' },
        ]),
        null,
      ]);

      const self = (await selfProfileId(t.database.db, user.id))!;
      const list = async (kind: string) => (await user.client.get(`/api/user/people/${self}/${kind}`)).json();
      expect(await list('immunizations')).toMatchObject([
        {
          vaccine: 'Hep B, adolescent or pediatric',
          date: '2015-03',
          dose_number: 2,
          lot_number: 'HB-2015-7',
          site: 'Left upper arm structure',
          performer: 'Northside Clinic',
          notes: 'Second of three doses',
          codings: [{ system: 'http://hl7.org/fhir/sid/cvx', code: '08', display: 'Hep B, adolescent or pediatric' }],
        },
      ]);
      expect(await list('conditions')).toMatchObject([
        {
          name: 'Acute viral pharyngitis',
          status: 'resolved',
          onset_date: '2015-03',
          abatement_date: '2015-04-02',
          codings: [{ system: SNOMED, code: '195662009', display: 'Acute viral pharyngitis' }],
        },
      ]);
      expect(await list('procedures')).toMatchObject([
        { name: 'Appendectomy', status: 'completed', performed_date: '2010-06-01', performer: 'Dr. Rosa Diaz' },
      ]);
      const labs = await list('lab-results');
      // Newest first; the two rows of one blood pressure share its date, so they are compared by name.
      const rows = labs.map((l: Record<string, unknown>) => [
        l.name,
        l.category,
        l.loinc_code,
        l.value ?? l.value_text,
        l.unit,
        l.reference_low,
        l.reference_high,
        l.interpretation,
        l.out_of_range,
        l.date,
        l.notes,
      ]);
      expect(rows.map((r: unknown[]) => r[9])).toEqual(['2024-01-05', '2024-01-05', '2023-11-20', '2015-03-14']);
      expect([...rows].sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
        ['Blood pressure diastolic', 'vital-signs', '8462-4', 88, 'mmHg', null, null, null, false, '2024-01-05', null],
        ['Glucose [Mass/volume] in Serum or Plasma', 'laboratory', '2345-7', 5.4, 'mmol/L', 3.9, 5.6, null, false, '2023-11-20', 'Fasting'],
        ['Rapid strep test', 'laboratory', null, 'Negative', null, null, null, null, false, '2015-03-14', null],
        ['Systolic blood pressure', 'vital-signs', '8480-6', 142, 'mmHg', null, null, 'H', true, '2024-01-05', null],
      ]);

      const files = (await user.client.get('/api/user/files')).json();
      expect(files).toMatchObject([
        {
          display_name: 'Progress note',
          file_type: 'application/pdf',
          record_date: '2015-03-14',
          provider_name: 'Dr. Rosa Diaz',
          visit_location: 'Northside Clinic',
          visit_reason: 'Sore throat',
        },
      ]);
      expect((await user.client.get(files[0].url)).rawPayload).toEqual(fixture('record.pdf'));
    });

    it('a medication started in a month only keeps no invented day: the report names the date it could not keep', async () => {
      const user = await signedInUser(t.app);
      const bundle = {
        resourceType: 'Bundle',
        type: 'collection',
        entry: [
          { fullUrl: PATIENT, resource: { resourceType: 'Patient', id: 'p1' } },
          {
            fullUrl: 'urn:uuid:m1',
            resource: {
              resourceType: 'MedicationStatement',
              status: 'active',
              medicationCodeableConcept: { text: 'Metformin 500 mg' },
              subject: { reference: PATIENT },
              effectivePeriod: { start: '2015-03' },
            },
          },
        ],
      };
      const res = await importFile(user.client, json(bundle), 'meds.json');
      expect(res.statusCode, res.body).toBe(200);
      expect(rowOf(res.json(), 'MedicationStatement')).toMatchObject({
        imported: 1,
        parts_left_out: [{ reason: 'start or end date without a day (the medication list keeps full dates)', count: 1 }],
      });
      const p = (await user.client.get('/api/user/getPatientProfile')).json();
      expect(p.medications).toMatchObject([{ medication_name: 'Metformin 500 mg', start_date: null, is_current: true }]);
    });

    it('importing the same summary again adds nothing and reports every record as already present', async () => {
      const user = await signedInUser(t.app);
      expect((await importFile(user.client, json(recordsBundle()), 'records.json')).statusCode).toBe(200);
      const once = await state(user);
      const again = await importFile(user.client, json(recordsBundle()), 'records.json');
      expect(again.statusCode, again.body).toBe(200);
      const t2 = tallyOf(again.json());
      for (const [type, [imported, merged]] of Object.entries(t2)) expect([type, imported, merged]).toEqual([type, 0, 0]);
      expect(t2).toMatchObject({
        Immunization: [0, 0, 1, 0],
        Observation: [0, 0, 3, 1],
        Condition: [0, 0, 1, 0],
        Procedure: [0, 0, 1, 0],
        MedicationRequest: [0, 0, 2, 1],
        DiagnosticReport: [0, 0, 1, 1],
      });
      expect(await state(user)).toEqual(once);
    });

    it('goes to the chosen family member; nothing of it lands on the own profile', async () => {
      const owner = await signedInUser(t.app);
      const member = (
        await owner.client.post('/api/user/family/add', { name: 'Ada', date_of_birth: '1980-12-10', relationship: 'sister' })
      ).json();
      const res = await importFile(owner.client, json(recordsBundle()), 'records.json', { profileId: member.id });
      expect(res.statusCode, res.body).toBe(200);
      expect((await owner.client.get(`/api/user/people/${member.id}/immunizations`)).json()).toHaveLength(1);
      expect((await owner.client.get(`/api/user/people/${member.id}/lab-results`)).json()).toHaveLength(4);
      const self = (await selfProfileId(t.database.db, owner.id))!;
      for (const kind of ['immunizations', 'lab-results', 'conditions', 'procedures'])
        expect((await owner.client.get(`/api/user/people/${self}/${kind}`)).json()).toEqual([]);
      const files = (await owner.client.get('/api/user/files')).json();
      expect(files).toMatchObject([{ display_name: 'Progress note', person_id: member.id }]);
    });
  });
});
