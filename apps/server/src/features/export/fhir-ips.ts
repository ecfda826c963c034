import { createHash } from 'node:crypto';
import type { ProfileBundle } from '../profiles/profile.repository';
import { escapeHtml } from '../../lib/html';

// A FHIR R4 Bundle per person, shaped as an International Patient Summary document
// (HL7 IPS IG, http://hl7.org/fhir/uv/ips/): Composition first, then every resource it cites.
// Kinchart's free text stays free text (CodeableConcept.text): we never invent codes the user
// did not give us.

type Json = Record<string, unknown>;

export interface IpsAppointment {
  id: string;
  appointment_date: string;
  start_time: string | null;
  end_time: string | null;
  provider_name: string;
  reason_for_visit: string | null;
  location: string | null;
}

export interface IpsDocument {
  id: string;
  display_name: string;
  file_type: string;
  size: number;
  created_at: string;
  record_date: string | null;
  provider_name: string | null;
  visit_reason: string | null;
  /** Where the bytes are: a path inside the export zip, or an absolute URL. */
  url: string;
}

export interface IpsInput {
  person: ProfileBundle;
  appointments: IpsAppointment[];
  documents: IpsDocument[];
  now: Date;
  /** Patient.identifier carries Kinchart's profile id; left out of summaries shown to strangers. */
  withIdentifier?: boolean;
}

const LOINC = 'http://loinc.org';
const UCUM = 'http://unitsofmeasure.org';

/** Deterministic UUIDs from Kinchart ids, so a re-export names each resource the same way. */
export function stableUuid(...parts: string[]): string {
  const h = createHash('sha256').update(parts.join('|')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h.slice(16, 17), 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const narrative = (text: string) => ({ status: 'generated', div: `<div xmlns="http://www.w3.org/1999/xhtml">${escapeHtml(text)}</div>` });
const codeable = (text: string) => ({ text });
const loinc = (code: string, display: string) => ({ coding: [{ system: LOINC, code, display }], text: display });

/** A wall-clock time without zone is read as UTC; FHIR instants need a zone. */
const instant = (value: string) => new Date(/(Z|[+-]\d{2}:\d{2})$/.test(value) ? value : `${value}Z`).toISOString();

export function buildIpsBundle({ person, appointments, documents, now, withIdentifier = true }: IpsInput): Json {
  const p = person.profile;
  const id = (kind: string, key: string) => `urn:uuid:${stableUuid('kinchart', p.id, kind, key)}`;
  const patientRef = { reference: id('Patient', p.id) };
  const entries: { fullUrl: string; resource: Json }[] = [];
  const add = (fullUrl: string, resource: Json) => {
    entries.push({ fullUrl, resource });
    return { reference: fullUrl };
  };

  // Patient, with emergency contacts as Patient.contact (v2-0131 "C": emergency contact).
  const patient: Json = {
    resourceType: 'Patient',
    ...(withIdentifier ? { identifier: [{ system: 'urn:kinchart:profile', value: p.id }] } : {}),
    active: true,
    name: [{ text: p.name ?? 'Unnamed' }],
  };
  if (p.date_of_birth) patient.birthDate = p.date_of_birth;
  const telecom: Json[] = [];
  if (p.phone_number) telecom.push({ system: 'phone', value: p.phone_number });
  if (p.email) telecom.push({ system: 'email', value: p.email });
  if (telecom.length) patient.telecom = telecom;
  if (p.address) patient.address = [{ text: p.address }];
  if (p.primary_language) patient.communication = [{ language: codeable(p.primary_language), preferred: true }];
  if (person.emergency_contacts.length) {
    patient.contact = person.emergency_contacts.map((c) => {
      const contact: Json = {
        relationship: [
          { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0131', code: 'C', display: 'Emergency Contact' }] },
          ...(c.relationship ? [codeable(c.relationship)] : []),
          ...(c.has_medical_power ? [codeable('Medical power of attorney')] : []),
        ],
        name: { text: c.name },
      };
      const t: Json[] = [];
      if (c.phone_number) t.push({ system: 'phone', value: c.phone_number, ...(c.is_primary ? { rank: 1 } : {}) });
      if (c.email) t.push({ system: 'email', value: c.email });
      if (t.length) contact.telecom = t;
      return contact;
    });
  }
  if (p.is_pet) {
    // http://hl7.org/fhir/StructureDefinition/patient-animal: species is required; Kinchart keeps
    // only that the person is a pet, so the species is stated as text.
    patient.extension = [
      {
        url: 'http://hl7.org/fhir/StructureDefinition/patient-animal',
        extension: [{ url: 'species', valueCodeableConcept: codeable(p.relationship ? `Pet (${p.relationship})` : 'Pet') }],
      },
    ];
  }
  const patientEntry = { fullUrl: patientRef.reference, resource: patient };

  // Allergies and anesthesia reactions.
  const allergies: { reference: string }[] = [];
  if (p.has_allergies) {
    allergies.push(
      add(id('AllergyIntolerance', 'allergies'), {
        resourceType: 'AllergyIntolerance',
        clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: 'active' }] },
        verificationStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-verification', code: 'unconfirmed' }] },
        code: codeable(p.allergy_details ?? 'Allergy (details not provided)'),
        patient: patientRef,
      }),
    );
  }
  if (p.had_anesthesia_reactions) {
    allergies.push(
      add(id('AllergyIntolerance', 'anesthesia'), {
        resourceType: 'AllergyIntolerance',
        clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: 'active' }] },
        verificationStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-verification', code: 'unconfirmed' }] },
        category: ['medication'],
        code: codeable(`Anesthesia reaction: ${p.anesthesia_reaction_details ?? 'details not provided'}`),
        patient: patientRef,
      }),
    );
  }

  // Problems: chronic conditions and bleeding disorders are active; surgeries are history.
  const condition = (key: string, text: string, status: 'active' | 'resolved') =>
    add(id('Condition', key), {
      resourceType: 'Condition',
      clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: status }] },
      category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-category', code: 'problem-list-item' }] }],
      code: codeable(text),
      subject: patientRef,
    });
  const problems: { reference: string }[] = [];
  const history: { reference: string }[] = [];
  if (p.has_chronic_conditions) problems.push(condition('chronic', p.chronic_condition_details ?? 'Chronic condition (details not provided)', 'active'));
  if (p.has_bleeding_disorders) problems.push(condition('bleeding', `Bleeding disorder: ${p.bleeding_disorder_details ?? 'details not provided'}`, 'active'));
  if (p.has_mobility_issues) problems.push(condition('mobility', `Mobility issue: ${p.mobility_details ?? 'details not provided'}`, 'active'));
  if (p.has_vision_impairment) problems.push(condition('vision', 'Vision impairment', 'active'));
  if (p.has_hearing_impairment) problems.push(condition('hearing', 'Hearing impairment', 'active'));
  if (p.has_previous_surgeries) history.push(condition('surgeries', `History of surgery: ${p.surgery_details ?? 'details not provided'}`, 'resolved'));

  // Medications.
  const meds = person.medications.map((m) => {
    const statement: Json = {
      resourceType: 'MedicationStatement',
      status: m.is_current ? 'active' : 'completed',
      medicationCodeableConcept: codeable(m.medication_name ?? 'Unnamed medication'),
      subject: patientRef,
    };
    if (m.start_date || m.end_date) {
      statement.effectivePeriod = { ...(m.start_date ? { start: m.start_date } : {}), ...(m.end_date ? { end: m.end_date } : {}) };
    }
    // The text reads as a clinician expects ("5 mg, daily"); the frequency also stands alone in
    // timing.code, so an import can take the two apart again.
    const dose = [m.dosage, m.frequency].filter(Boolean).join(', ');
    if (dose) statement.dosage = [{ text: dose, ...(m.frequency ? { timing: { code: codeable(m.frequency) } } : {}) }];
    if (m.purpose) statement.reasonCode = [codeable(m.purpose)];
    return add(id('MedicationStatement', m.id), statement);
  });

  // Vital signs and blood group, with UCUM units.
  const observations: { reference: string }[] = [];
  const vital = (key: string, code: string, display: string, value: Json) =>
    add(id('Observation', key), {
      resourceType: 'Observation',
      status: 'final',
      category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: key === 'blood' ? 'laboratory' : 'vital-signs' }] }],
      code: loinc(code, display),
      subject: patientRef,
      effectiveDateTime: now.toISOString(),
      ...value,
    });
  if (p.height !== null) observations.push(vital('height', '8302-2', 'Body height', { valueQuantity: { value: p.height, unit: 'cm', system: UCUM, code: 'cm' } }));
  if (p.weight !== null) observations.push(vital('weight', '29463-7', 'Body weight', { valueQuantity: { value: p.weight, unit: 'kg', system: UCUM, code: 'kg' } }));
  if (p.blood_type) observations.push(vital('blood', '882-1', 'ABO and Rh group [Type] in Blood', { valueCodeableConcept: codeable(p.blood_type) }));

  // Providers.
  for (const h of person.healthcare_providers) {
    const practitioner: Json = { resourceType: 'Practitioner', name: [{ text: h.provider_name }] };
    const t: Json[] = [];
    if (h.phone_number) t.push({ system: 'phone', value: h.phone_number });
    if (h.email) t.push({ system: 'email', value: h.email });
    if (t.length) practitioner.telecom = t;
    if (h.address) practitioner.address = [{ text: h.address }];
    const ref = add(id('Practitioner', h.id), practitioner);
    const role: Json = { resourceType: 'PractitionerRole', active: true, practitioner: ref };
    if (h.specialty) role.specialty = [codeable(h.specialty)];
    const notes = [h.facility, h.is_primary ? 'Primary care provider' : null, h.notes].filter(Boolean).join('. ');
    if (notes) role.code = [codeable(notes)];
    add(id('PractitionerRole', h.id), role);
  }

  // Appointments and documents.
  for (const a of appointments) {
    const start = instant(a.start_time ?? `${a.appointment_date}T00:00:00`);
    const end = instant(a.end_time ?? `${a.appointment_date}T23:59:59`);
    const future = Date.parse(start) > now.getTime();
    add(id('Appointment', a.id), {
      resourceType: 'Appointment',
      status: future ? 'booked' : 'fulfilled',
      description: a.reason_for_visit ? `${a.provider_name} - ${a.reason_for_visit}` : a.provider_name,
      ...(a.reason_for_visit ? { reasonCode: [codeable(a.reason_for_visit)] } : {}),
      start,
      end,
      ...(a.location ? { comment: `Location: ${a.location}` } : {}),
      participant: [
        { actor: patientRef, status: 'accepted' },
        { actor: { display: a.provider_name }, status: 'accepted' },
      ],
    });
  }
  for (const d of documents) {
    add(id('DocumentReference', d.id), {
      resourceType: 'DocumentReference',
      status: 'current',
      subject: patientRef,
      date: d.created_at,
      description: d.display_name,
      ...(d.provider_name ? { author: [{ display: d.provider_name }] } : {}),
      content: [
        {
          attachment: {
            contentType: d.file_type,
            url: encodeURI(d.url),
            size: d.size,
            title: d.display_name,
            ...(d.record_date ? { creation: instant(d.record_date.length === 10 ? `${d.record_date}T00:00:00` : d.record_date) } : {}),
          },
        },
      ],
      ...(d.visit_reason ? { context: { related: [{ display: d.visit_reason }] } } : {}),
    });
  }

  // Composition: the IPS sections, the three required ones always present.
  const section = (title: string, code: string, display: string, refs: { reference: string }[], emptyText: string): Json =>
    refs.length
      ? { title, code: loinc(code, display), text: narrative(`${title}: ${refs.length} entr${refs.length === 1 ? 'y' : 'ies'}`), entry: refs }
      : {
          title,
          code: loinc(code, display),
          text: narrative(emptyText),
          emptyReason: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/list-empty-reason', code: 'unavailable', display: 'Unavailable' }] },
        };
  const directives = [
    p.organ_donor ? 'Organ donor' : null,
    p.advance_directives ? 'Has advance directives' : null,
    p.living_will ? 'Has a living will' : null,
    p.religious_restrictions ? `Religious restrictions: ${p.religious_restrictions}` : null,
  ].filter((x): x is string => x !== null);
  const alerts = [
    p.has_bleeding_disorders ? 'Bleeding disorder' : null,
    p.had_anesthesia_reactions ? 'Anesthesia reactions' : null,
    p.has_allergies ? 'Allergies' : null,
  ].filter((x): x is string => x !== null);
  const sections: Json[] = [
    section('Allergies and Intolerances', '48765-2', 'Allergies and adverse reactions Document', allergies, 'No information about allergies'),
    section('Problem List', '11450-4', 'Problem list - Reported', problems, 'No information about current problems'),
    section('Medication Summary', '10160-0', 'History of Medication use Narrative', meds, 'No information about medications'),
  ];
  if (history.length) sections.push(section('History of Past Illness', '11348-0', 'History of Past illness Narrative', history, ''));
  if (observations.length) sections.push(section('Vital Signs', '8716-3', 'Vital signs', observations, ''));
  if (directives.length) sections.push({ title: 'Advance Directives', code: loinc('42348-3', 'Advance directives'), text: narrative(directives.join('. ')) });
  if (alerts.length) sections.push({ title: 'Alerts', code: loinc('104605-1', 'Alert'), text: narrative(alerts.join('. ')) });

  const composition = {
    fullUrl: id('Composition', 'ips'),
    resource: {
      resourceType: 'Composition',
      status: 'final',
      type: loinc('60591-5', 'Patient summary Document'),
      subject: patientRef,
      date: now.toISOString(),
      author: [{ display: 'Kinchart (patient-entered)' }],
      title: `Patient Summary: ${p.name ?? 'Unnamed'}`,
      confidentiality: 'N',
      section: sections,
    },
  };

  return {
    resourceType: 'Bundle',
    identifier: { system: 'urn:kinchart:ips', value: stableUuid('kinchart', p.id, 'bundle', now.toISOString()) },
    type: 'document',
    timestamp: now.toISOString(),
    entry: [composition, patientEntry, ...entries],
  };
}
