import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import type { TestApp } from './helpers';
import { buildTestApp, signedInUser } from './helpers';
import { loadFhirValidator } from './fhir-validator';
import { exportZip, importFile, makeRichAccount, readZip, snapshotAccount } from './export-helpers';
import { fixture, storedBlobs } from './files-helpers';

let t: TestApp;
let small: FastifyInstance;
let fhirErrors: (resource: unknown) => string[];
beforeAll(async () => {
  t = await buildTestApp();
  small = await buildApp({ config: t.config, database: t.database, webRoot: null, importLimits: { maxJsonBytes: 100_000 } });
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
        communication: [{ language: { coding: [{ system: 'urn:ietf:bcp:47', code: 'en-GB', display: 'English (United Kingdom)' }] }, preferred: true }],
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
      entry('urn:uuid:med1', { resourceType: 'Medication', code: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '860975', display: 'Metformin 500 MG Oral Tablet' }] } }),
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
        valueCodeableConcept: { coding: [{ system: 'http://snomed.info/sct', code: '278152006', display: 'Blood group A Rh(D) negative' }] },
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
        content: [{ attachment: { contentType: 'application/pdf', data: fixture('record.pdf').toString('base64'), title: 'Discharge summary.pdf', creation: '2026-04-30' } }],
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
  return { data: await snapshotAccount(t.database.db, user.id, user.client), blobs: storedBlobs(t.dataDir).committed.sort() };
}

describe('import of a FHIR R4 Bundle', () => {
  it('the clinic bundle used here is valid FHIR R4 (checked with a real validator)', () => {
    const bundle = clinicBundle();
    expect(fhirErrors(bundle)).toEqual([]);
    for (const e of bundle.entry as { resource: Json }[]) expect(fhirErrors(e.resource), String(e.resource.resourceType)).toEqual([]);
  });

  it('maps Patient, AllergyIntolerance, Condition, MedicationStatement, Observation, Appointment and embedded DocumentReference into the own profile', async () => {
    const user = await signedInUser(t.app);
    const res = await importFile(user.client, json(clinicBundle()), 'summary.json');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      format: 'fhir',
      imported: { allergies: 2, conditions: 2, medications: 2, emergency_contacts: 1, appointments: 1, files: 1, family_members: 0 },
    });
    expect(body.skipped).toEqual(
      expect.arrayContaining([
        '1 Appointment with status cancelled',
        '1 DocumentReference without embedded data (only a link, which Kinchart does not fetch)',
        '1 Immunization (not something Kinchart keeps)',
      ]),
    );

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
      allergy_details: 'Allergy to penicillin\nLatex',
      has_chronic_conditions: true,
      chronic_condition_details: 'Type 2 diabetes\nPneumonia (resolved)',
    });
    expect(p.medications).toMatchObject([
      { medication_name: 'Metformin 500 MG Oral Tablet', dosage: '1 tablet twice a day with food', purpose: 'Diabetes', start_date: '2021-03-01', is_current: true },
      { medication_name: 'Amoxicillin 500 mg', start_date: '2019-02-01', end_date: '2019-02-08', is_current: false },
    ]);
    expect(p.emergency_contacts).toMatchObject([{ name: 'Chidi Okafor', relationship: 'brother', phone_number: '+44 7700 900456', is_primary: true }]);

    const appointments = (await user.client.get('/api/user/appointments')).json();
    expect(appointments).toMatchObject([
      { appointment_date: '2027-03-04', start_time: '2027-03-04T09:15:00.000Z', end_time: '2027-03-04T09:45:00.000Z', provider_name: 'Dr. Amara Bello', reason_for_visit: 'Annual diabetes review' },
    ]);

    const files = (await user.client.get('/api/user/files')).json();
    expect(files).toMatchObject([
      { display_name: 'Discharge summary.pdf', file_type: 'application/pdf', record_date: '2026-04-30', provider_name: "St Mary's Hospital", visit_reason: 'Inpatient stay' },
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
    expect(p).toMatchObject({ has_allergies: false, allergy_details: null, has_chronic_conditions: false, chronic_condition_details: null, medications: [] });
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
      immunizations: 0,
      lab_results: 0,
      conditions: 0,
      procedures: 0,
      appointments: 1,
      notifications: 0,
      files: 1,
    });
    const twice = await state(user);
    // Only the profile's updated_at may move.
    expect(twice).toEqual(once);
  });

  it("goes to a chosen family member, and an animal Patient makes them a pet; another user's member is a 404", async () => {
    const owner = await signedInUser(t.app);
    const member = (await owner.client.post('/api/user/family/add', { name: 'Buddy', date_of_birth: '2018-01-01', relationship: 'dog' })).json();
    const bundle = clinicBundle();
    const patient = (bundle.entry as { resource: Json }[])[0]!.resource;
    patient.extension = [{ url: 'http://hl7.org/fhir/StructureDefinition/patient-animal', extension: [{ url: 'species', valueCodeableConcept: { text: 'Dog' } }] }];
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
    expect(m).toMatchObject({ name: 'Buddy', is_pet: true, relationship: 'dog', allergy_details: 'Allergy to penicillin\nLatex' });
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
    expect(other.json().skipped).toEqual(['4 DocumentReference without embedded data (only a link, which Kinchart does not fetch)']);

    const [a, b] = await Promise.all([source.client.get('/api/user/getPatientProfile'), target.client.get('/api/user/getPatientProfile')]);
    const was = a.json();
    const now = b.json();
    for (const key of [
      'name', 'date_of_birth', 'phone_number', 'email', 'address', 'blood_type', 'height', 'weight', 'primary_language',
      'has_allergies', 'allergy_details', 'had_anesthesia_reactions', 'anesthesia_reaction_details', 'has_chronic_conditions',
      'chronic_condition_details', 'has_bleeding_disorders', 'bleeding_disorder_details', 'has_previous_surgeries', 'surgery_details',
      'has_vision_impairment',
    ]) {
      expect(now[key], key).toEqual(was[key]);
    }
    const meds = (list: Record<string, unknown>[]) => list.map(({ medication_name, dosage, frequency, purpose, start_date, end_date, is_current }) => ({ medication_name, dosage, frequency, purpose, start_date, end_date, is_current }));
    expect(meds(now.medications)).toEqual(meds(was.medications).map((m) => (m.medication_name === null ? { ...m, medication_name: 'Unnamed medication' } : m)));
    const contacts = (list: Record<string, unknown>[]) => list.map(({ name, relationship, phone_number, email, is_primary, has_medical_power }) => ({ name, relationship, phone_number, email, is_primary, has_medical_power }));
    expect(contacts(now.emergency_contacts)).toEqual(contacts(was.emergency_contacts));
    expect(now.healthcare_providers.map((h: { provider_name: string; specialty: string; phone_number: string }) => [h.provider_name, h.specialty, h.phone_number])).toEqual([['Dr. Chen', 'Cardiology', '555-0300']]);
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

    /** The clinic bundle with one change that a FHIR validator also refuses. */
    function broken(edit: (entries: { resource: Json }[]) => void): Json {
      const bundle = clinicBundle();
      edit(bundle.entry as { resource: Json }[]);
      expect(fhirErrors(bundle).length + (bundle.entry as { resource: Json }[]).reduce((n, e) => n + fhirErrors(e.resource).length, 0)).toBeGreaterThan(0);
      return bundle;
    }

    it('a bundle that fails validation, naming the entry and the element', async () => {
      await expectRefused(json(broken((e) => (e[0]!.resource.birthDate = 'yesterday'))), 400, /FHIR Bundle is not valid: entry\[0\] Patient birthDate: must be a FHIR date/);
      await expectRefused(json(broken((e) => delete e[1]!.resource.patient)), 400, /entry\[1\] AllergyIntolerance patient: is required/);
      await expectRefused(json(broken((e) => delete e[2]!.resource.clinicalStatus)), 400, /entry\[2\] AllergyIntolerance clinicalStatus: is required unless/);
      await expectRefused(json(broken((e) => delete e[6]!.resource.status)), 400, /entry\[6\] MedicationStatement status: is required/);
      // R4 binds MedicationStatement.status to its value set with strength "required". Medplum's
      // validator does not check bindings; Kinchart does, for the codes it reads.
      const badCode = clinicBundle();
      (badCode.entry as { resource: Json }[])[6]!.resource.status = 'taking';
      await expectRefused(json(badCode), 400, /entry\[6\] MedicationStatement status: must be one of active, completed, entered-in-error/);
      await expectRefused(json(broken((e) => (e[11]!.resource.start = '2027-03-04 10:15'))), 400, /entry\[11\] Appointment start: must be a FHIR instant/);
      await expectRefused(
        json(broken((e) => ((e[13]!.resource.content as { attachment: Json }[])[0]!.attachment.data = 'not base64!'))),
        400,
        /entry\[13\] DocumentReference content\.0\.attachment\.data: must be base64/,
      );
      const noType = clinicBundle();
      delete noType.type;
      expect(fhirErrors(noType).length).toBeGreaterThan(0);
      await expectRefused(json(noType), 400, /FHIR Bundle is not valid: Bundle type/);
    });

    it('a resource that is not a Bundle, JSON that is not FHIR, and text that is not JSON', async () => {
      await expectRefused(json({ resourceType: 'Patient', name: [{ text: 'x' }] }), 400, /Only a FHIR Bundle can be imported; this file is a Patient/);
      await expectRefused(json({ hello: 'world' }), 400, /resourceType is missing/);
      await expectRefused(Buffer.from('{"resourceType": "Bundle",'), 400, /not valid JSON/);
      await expectRefused(Buffer.from('{"resourceType":"Bundle","type":"collection","entry":[{"resource":{"resourceType":"Patient","name":[{"text":"A\\u0000"}]}}]}'), 400, /NUL character/);
      await expectRefused(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), 400, /not UTF-8 text/);
    });

    it('a bundle about several patients with nothing saying whose it is', async () => {
      const bundle = clinicBundle();
      (bundle.entry as unknown[]).push({ fullUrl: 'urn:uuid:22222222-2222-4222-8222-222222222222', resource: { resourceType: 'Patient', name: [{ text: 'Other' }] } });
      await expectRefused(json(bundle), 400, /more than one Patient/);
    });

    it('an embedded document of a type Kinchart does not keep, after another was already written', async () => {
      const bundle = clinicBundle();
      (bundle.entry as unknown[]).push({
        fullUrl: 'urn:uuid:d3',
        resource: { resourceType: 'DocumentReference', status: 'current', content: [{ attachment: { contentType: 'text/html', title: 'page.html', data: Buffer.from('<html><script>alert(1)</script></html>').toString('base64') } }] },
      });
      await expectRefused(json(bundle), 415, /DocumentReference "page\.html": This file type is not supported/);
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
});
