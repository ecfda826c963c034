import { beforeAll, describe, expect, it } from 'vitest';
import { buildIpsBundle } from '../src/features/export/fhir-ips';
import type { ProfileBundle } from '../src/features/profiles/profile.repository';
import { loadFhirValidator } from './fhir-validator';

let fhirErrors: (resource: unknown) => string[];
beforeAll(async () => {
  fhirErrors = await loadFhirValidator();
});

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
  allergy_details: 'Penicillin',
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
};

const full: ProfileBundle = {
  profile: base,
  emergency_contacts: [
    { id: 'c1', contact_id: 'c1', name: 'Sam', relationship: 'spouse', phone_number: '555-0199', email: 's@example.com', is_primary: true, has_medical_power: true },
  ],
  healthcare_providers: [
    { id: 'h1', provider_id: 'h1', provider_name: 'Dr. Chen', name: 'Dr. Chen', specialty: 'Cardiology', facility: 'Riverside', phone_number: '555', email: null, address: '1 Main', is_primary: true, notes: 'Tuesdays' },
  ],
  medications: [
    { id: 'm1', medication_id: 'm1', medication_name: 'Warfarin', dosage: '5 mg', frequency: 'daily', purpose: 'Clots', start_date: '2020-01-01', end_date: null, is_current: true },
    { id: 'm2', medication_id: 'm2', medication_name: 'Old', dosage: null, frequency: null, purpose: null, start_date: '2019-01-01', end_date: '2019-06-01', is_current: false },
  ],
};

const now = new Date('2026-11-21T10:00:00Z');

function allResources(bundle: Record<string, unknown>) {
  return (bundle.entry as { resource: { resourceType: string } }[]).map((e) => e.resource);
}

describe('FHIR R4 International Patient Summary', () => {
  it('produces a document Bundle whose every resource validates against the R4 definitions', () => {
    const bundle = buildIpsBundle({
      person: full,
      appointments: [
        { id: 'a1', appointment_date: '2026-12-03', start_time: '2026-12-03T09:30:00', end_time: null, provider_name: 'Dr. Chen', reason_for_visit: 'Check-up', location: 'Riverside' },
      ],
      documents: [
        { id: 'f1', display_name: 'Lab results.pdf', file_type: 'application/pdf', size: 1234, created_at: '2026-01-01T00:00:00.000Z', record_date: '2026-01-01', provider_name: 'Lab', visit_reason: 'Blood test', url: 'files/Lab results.pdf' },
      ],
      now,
    });
    expect(fhirErrors(bundle)).toEqual([]);
    const resources = allResources(bundle);
    for (const r of resources) expect(fhirErrors(r), r.resourceType).toEqual([]);
    const types = resources.map((r) => r.resourceType);
    expect(types[0]).toBe('Composition');
    for (const t of ['Patient', 'AllergyIntolerance', 'Condition', 'MedicationStatement', 'Observation', 'Practitioner', 'PractitionerRole', 'Appointment', 'DocumentReference']) {
      expect(types).toContain(t);
    }
    const composition = resources[0] as unknown as { type: { coding: { code: string }[] }; section: { code: { coding: { code: string }[] } }[] };
    expect(composition.type.coding[0]?.code).toBe('60591-5');
    const codes = composition.section.map((s) => s.code.coding[0]?.code);
    expect(codes).toEqual(expect.arrayContaining(['48765-2', '11450-4', '10160-0', '42348-3', '104605-1']));
    const obs = resources.filter((r) => r.resourceType === 'Observation') as unknown as { code: { coding: { code: string }[] }; valueQuantity?: { code: string } }[];
    expect(obs.map((o) => o.code.coding[0]?.code)).toEqual(['8302-2', '29463-7', '882-1']);
    expect(obs[0]?.valueQuantity?.code).toBe('cm');
    // Narrative XHTML escapes user text.
    expect(JSON.stringify(bundle)).toContain('No &lt;blood&gt; products');
    expect(JSON.stringify(bundle)).not.toContain('No <blood>');
  });

  it('keeps the three required sections with an empty reason when there is nothing to list, and marks pets', () => {
    const pet: ProfileBundle = {
      profile: { ...base, is_self: false, is_pet: true, relationship: 'dog', has_allergies: false, had_anesthesia_reactions: false, has_chronic_conditions: false, has_bleeding_disorders: false, has_previous_surgeries: false, has_vision_impairment: false, height: null, weight: null, blood_type: null, organ_donor: false, advance_directives: false, religious_restrictions: null },
      emergency_contacts: [],
      healthcare_providers: [],
      medications: [],
    };
    const bundle = buildIpsBundle({ person: pet, appointments: [], documents: [], now });
    expect(fhirErrors(bundle)).toEqual([]);
    for (const r of allResources(bundle)) expect(fhirErrors(r), r.resourceType).toEqual([]);
    const [composition, patient] = allResources(bundle) as unknown as [
      { section: { code: { coding: { code: string }[] }; emptyReason?: unknown; entry?: unknown }[] },
      { extension: { url: string }[] },
    ];
    expect(composition.section).toHaveLength(3);
    for (const s of composition.section) {
      expect(s.emptyReason).toBeDefined();
      expect(s.entry).toBeUndefined();
    }
    expect(patient.extension[0]?.url).toBe('http://hl7.org/fhir/StructureDefinition/patient-animal');
  });

  it('detects an invalid resource (the validator is real)', () => {
    expect(fhirErrors({ resourceType: 'Observation', code: { text: 'x' } }).length).toBeGreaterThan(0);
    expect(fhirErrors({ resourceType: 'Patient', birthDate: 'yesterday' }).length).toBeGreaterThan(0);
    expect(fhirErrors({ resourceType: 'Patient', unknownField: 1 }).length).toBeGreaterThan(0);
  });
});
