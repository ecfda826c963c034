import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { buildTestApp, signedInUser } from './helpers';
import { importFile } from './export-helpers';
import { loadFhirValidator } from './fhir-validator';
import { clinicalOf, expectReportAddsUp, rowOf } from './fhir-import-helpers';

// Issue 30 (items 13–15), DESIGN §12, decision 0022: an import says only what the summary says —
// "none known" and "no information" are never a positive, for every kind; one malformed element
// costs that element, not a medication whose identity is valid; and the report gives each entry
// once, with its true reason, and `imported` counts only what was added.

let t: TestApp;
let fhirErrors: (resource: unknown) => string[];
beforeAll(async () => {
  t = await buildTestApp();
  fhirErrors = await loadFhirValidator();
});
afterAll(async () => {
  await t.close();
});

type Json = Record<string, unknown>;
const PATIENT = 'urn:uuid:22222222-2222-4222-8222-222222222222';
const subject = { reference: PATIENT };
const ABSENT = 'http://hl7.org/fhir/uv/ips/CodeSystem/absent-unknown-uv-ips';
const json = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8');
const bundleOf = (...entries: { fullUrl: string; resource: Json }[]) => ({
  resourceType: 'Bundle',
  type: 'collection',
  entry: [{ fullUrl: PATIENT, resource: { resourceType: 'Patient', name: [{ family: 'Okafor', given: ['Ngozi'] }] } }, ...entries],
});
const absent = (code: string, display: string) => ({ coding: [{ system: ABSENT, code, display }] });

describe('"none known" and "no information" are never a positive', () => {
  it('a user whose summary says "no known procedures", "no procedure info" or "no result info", or lists a procedure not done, gets no procedure and no result', async () => {
    const bundle = bundleOf(
      {
        fullUrl: 'urn:uuid:p1',
        resource: {
          resourceType: 'Procedure',
          status: 'completed',
          code: absent('no-known-procedures', 'No known procedures'),
          subject,
          performedDateTime: '2020',
        },
      },
      {
        fullUrl: 'urn:uuid:p2',
        resource: {
          resourceType: 'Procedure',
          status: 'unknown',
          code: absent('no-procedure-info', 'No information about past history of procedures'),
          subject,
        },
      },
      {
        fullUrl: 'urn:uuid:p3',
        resource: {
          resourceType: 'Procedure',
          status: 'not-done',
          code: { coding: [{ system: 'http://snomed.info/sct', code: '80146002', display: 'Appendectomy' }] },
          subject,
        },
      },
      {
        fullUrl: 'urn:uuid:o1',
        resource: {
          resourceType: 'Observation',
          status: 'final',
          code: absent('no-known-problems', 'No known problems'),
          subject,
          valueString: 'none',
        },
      },
      {
        fullUrl: 'urn:uuid:i1',
        resource: {
          resourceType: 'Immunization',
          status: 'completed',
          vaccineCode: absent('no-immunization-info', 'No information about immunizations'),
          patient: subject,
          occurrenceDateTime: '2020',
        },
      },
      {
        fullUrl: 'urn:uuid:p4',
        resource: { resourceType: 'Procedure', status: 'completed', code: { text: 'Tonsillectomy' }, subject, performedDateTime: '1990' },
      },
    );
    for (const e of bundle.entry) expect(fhirErrors(e.resource)).toEqual([]);
    const user = await signedInUser(t.app);
    const res = await importFile(user.client, json(bundle), 'none.json');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expectReportAddsUp(body, bundle);
    expect(rowOf(body, 'Procedure')).toMatchObject({
      imported: 1,
      dropped: [
        { reason: 'saying none are known (nothing to add)', count: 1 },
        { reason: 'saying nothing is known (nothing to add)', count: 1 },
        { reason: 'not done (status not-done)', count: 1 },
      ],
    });
    expect(rowOf(body, 'Observation').dropped).toEqual([{ reason: 'saying none are known (nothing to add)', count: 1 }]);
    expect(rowOf(body, 'Immunization').dropped).toEqual([{ reason: 'saying nothing is known (nothing to add)', count: 1 }]);
    const clinical = await clinicalOf(t.database.db, user.id);
    expect(clinical.procedures.map((p) => p.name)).toEqual(['Tonsillectomy']);
    expect(clinical.lab_results).toEqual([]);
    expect(clinical.immunizations).toEqual([]);
    expect(body.imported).toMatchObject({ procedures: 1, lab_results: 0, immunizations: 0 });
  });
});

describe('one malformed element costs that element only', () => {
  const load = () =>
    JSON.parse(readFileSync(path.join(import.meta.dirname, 'fixtures', 'fhir', 'ips-bundle-with-immunization.json'), 'utf8')) as {
      entry: { resource: Json }[];
    };

  it('HL7\'s "IPS-bundle-with-immunization" with doseQuantity.value written as a string still gives the anastrozole statement, and names the dose as left out', async () => {
    const bundle = load();
    const anastrozole = bundle.entry.find(
      (e) => e.resource.resourceType === 'MedicationStatement' && JSON.stringify(e.resource).includes('"doseQuantity"'),
    )!.resource;
    // As the issue found it: the dose's value as text ("1"), which FHIR JSON forbids (decimal is a number).
    const dose = ((anastrozole.dosage as Json[])[0]!.doseAndRate as Json[])[0]!.doseQuantity as Json;
    dose.value = String(dose.value);
    expect(fhirErrors(anastrozole).length).toBeGreaterThan(0);

    const user = await signedInUser(t.app);
    const res = await importFile(user.client, json(bundle), 'ips-with-immunization.json');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expectReportAddsUp(body, bundle);
    expect(rowOf(body, 'MedicationStatement')).toMatchObject({ imported: 2, dropped: [] });
    expect(rowOf(body, 'MedicationStatement').parts_left_out).toContainEqual({
      reason: 'not valid FHIR (dosage.0.doseAndRate.0.doseQuantity.value: must be number)',
      count: 1,
    });
    expect(rowOf(body, 'Medication')).toMatchObject({ merged: 2, dropped: [] });
    const medications = (await user.client.get('/api/user/getPatientProfile')).json<{ medications: Json[] }>().medications;
    expect(medications.map((m) => [m.medication_name, m.dosage, m.frequency, m.is_current])).toEqual([
      ['Product containing anastrozole (medicinal product)', null, 'once a day', true],
      ['Black Cohosh Extract herbal supplement', null, null, true],
    ]);
  });

  it('a medication whose medication itself is malformed is still left out whole, with the element and the rule', async () => {
    const bundle = bundleOf({
      fullUrl: 'urn:uuid:m1',
      resource: {
        resourceType: 'MedicationStatement',
        status: 'active',
        medicationCodeableConcept: { coding: [{ system: 'not a uri', code: 'x' }] },
        subject,
      },
    });
    const user = await signedInUser(t.app);
    const res = await importFile(user.client, json(bundle), 'bad-med.json');
    expect(res.statusCode, res.body).toBe(200);
    expect(rowOf(res.json(), 'MedicationStatement')).toMatchObject({
      imported: 0,
      dropped: [{ reason: 'not valid FHIR (medicationCodeableConcept.coding.0.system: must be a URI)', count: 1 }],
    });
  });
});

describe('the report gives each entry once, with its true reason', () => {
  const medication = (id: string, text: string) => ({
    fullUrl: `urn:uuid:${id}`,
    resource: { resourceType: 'Medication', code: { text } },
  });

  it('a Medication named only by a statement refused, or by a "none known" statement, is reported for that, not as named by none', async () => {
    const bundle = bundleOf(
      medication('med-a', 'Aspirin 100 mg'),
      {
        fullUrl: 'urn:uuid:s1',
        resource: {
          resourceType: 'MedicationStatement',
          status: 'not-taken',
          medicationReference: { reference: 'urn:uuid:med-a' },
          subject,
        },
      },
      { fullUrl: 'urn:uuid:med-b', resource: { resourceType: 'Medication', code: absent('no-known-medications', 'No known medications') } },
      {
        fullUrl: 'urn:uuid:s2',
        resource: { resourceType: 'MedicationStatement', status: 'active', medicationReference: { reference: 'urn:uuid:med-b' }, subject },
      },
      medication('med-c', 'Unused'),
    );
    const user = await signedInUser(t.app);
    const res = await importFile(user.client, json(bundle), 'meds.json');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expectReportAddsUp(body, bundle);
    expect(rowOf(body, 'Medication').dropped).toEqual([
      { reason: 'named only by resources that were left out', count: 1 },
      { reason: 'saying none are known (nothing to add)', count: 1 },
      { reason: 'not named by any MedicationStatement or MedicationRequest', count: 1 },
    ]);
    expect(rowOf(body, 'MedicationStatement').dropped).toEqual([
      { reason: 'with status not-taken', count: 1 },
      { reason: 'saying none are known (nothing to add)', count: 1 },
    ]);
  });

  it('an allergy with no code and no reaction, or a condition with no code, is left out as such, not counted as merged, and raises no flag', async () => {
    const bundle = bundleOf(
      {
        fullUrl: 'urn:uuid:a1',
        resource: {
          resourceType: 'AllergyIntolerance',
          clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: 'active' }] },
          patient: subject,
        },
      },
      {
        fullUrl: 'urn:uuid:c1',
        resource: {
          resourceType: 'Condition',
          clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
          subject,
        },
      },
    );
    for (const e of bundle.entry) expect(fhirErrors(e.resource)).toEqual([]);
    const user = await signedInUser(t.app);
    const res = await importFile(user.client, json(bundle), 'allergy.json');
    expect(res.statusCode, res.body).toBe(200);
    expect(rowOf(res.json(), 'AllergyIntolerance')).toMatchObject({
      merged: 0,
      dropped: [{ reason: 'without a code or text naming it', count: 1 }],
    });
    expect(rowOf(res.json(), 'Condition')).toMatchObject({
      merged: 0,
      imported: 0,
      dropped: [{ reason: 'without a code or text naming it', count: 1 }],
    });
    expect(res.json().imported).toMatchObject({ allergies: 0, conditions: 0 });
    expect((await user.client.get('/api/user/getPatientProfile')).json()).toMatchObject({
      has_allergies: false,
      allergy_details: null,
      has_chronic_conditions: false,
    });
  });

  it('a re-import answers imported: 0 for everything already there, and counts it as already present', async () => {
    const bundle = bundleOf(
      {
        fullUrl: 'urn:uuid:a1',
        resource: {
          resourceType: 'AllergyIntolerance',
          clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: 'active' }] },
          code: { text: 'Latex' },
          patient: subject,
        },
      },
      {
        fullUrl: 'urn:uuid:c1',
        resource: {
          resourceType: 'Condition',
          clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
          code: { text: 'Asthma' },
          subject,
        },
      },
    );
    const user = await signedInUser(t.app);
    const first = await importFile(user.client, json(bundle), 'a.json');
    expect(first.json().imported).toMatchObject({ allergies: 1, conditions: 1 });
    const again = await importFile(user.client, json(bundle), 'a.json');
    expect(again.statusCode, again.body).toBe(200);
    expect(Object.values(again.json().imported).every((n) => n === 0)).toBe(true);
    expect(again.json().already_present).toMatchObject({ conditions: 1 });
    expect(rowOf(again.json(), 'AllergyIntolerance')).toMatchObject({ merged: 0, already_present: 1 });
  });

  it('a re-imported Flag of religious restrictions the profile already holds is already present, not merged again', async () => {
    const bundle = bundleOf({
      fullUrl: 'urn:uuid:f1',
      resource: { resourceType: 'Flag', status: 'active', code: { text: 'Religious restrictions: No blood products' }, subject },
    });
    const user = await signedInUser(t.app);
    const first = await importFile(user.client, json(bundle), 'f.json');
    expect(first.statusCode, first.body).toBe(200);
    expect(rowOf(first.json(), 'Flag')).toMatchObject({ merged: 1, already_present: 0 });
    expect((await user.client.get('/api/user/getPatientProfile')).json()).toMatchObject({ religious_restrictions: 'No blood products' });
    const again = await importFile(user.client, json(bundle), 'f.json');
    expect(again.statusCode, again.body).toBe(200);
    expect(rowOf(again.json(), 'Flag')).toMatchObject({ merged: 0, already_present: 1 });
  });
});
