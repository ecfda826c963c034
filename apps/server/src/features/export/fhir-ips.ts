import type { Coding, Condition, Immunization, LabResult, Procedure } from '@kinchart/shared/clinical';
import { BLOOD_GROUP_SNOMED } from '@kinchart/shared/clinical';
import { allergyLine } from '@kinchart/shared/allergies';
import { IN_REMISSION_MARK, RESOLVED_MARK, detailsLines, isResolvedLine, saysNoAllergies } from '@kinchart/shared/problem-lines';
import { BLOOD_TYPES, fieldsForKind, type BloodType } from '@kinchart/shared/profile';
import type { AllergyValues } from '../allergies/allergy-entries';
import type { ProfileBundle } from '../profiles/profile.service';
import type { Json, Ref } from './fhir-common';
import { SNOMED, UCUM, codeable, coded, dateOrUnknown, loinc, stableUuid, unknownValue, uuidIdentifier } from './fhir-common';
import {
  CONDITION_HEADERS,
  IMMUNIZATION_HEADERS,
  BLOOD_GROUP_LOINC,
  LAB_RESULT_HEADERS,
  PAST_CONDITION,
  PROCEDURE_HEADERS,
  conditionResource,
  conditionRow,
  immunizationResource,
  immunizationRow,
  labResultResource,
  labResultRow,
  loincOf,
  newestFirst,
  procedureResource,
  procedureRow,
  VITAL_HEADERS,
  vitalRow,
} from './fhir-clinical';
import type { IpsAppointment, IpsDocument } from './fhir-collection';
import { buildCollection } from './fhir-collection';
import { directiveResources } from './fhir-directives';
import { listNarrative, sentenceNarrative, tableNarrative } from './fhir-narrative';

// Each person's FHIR R4 export (docs/decisions/0023-ips-document-export.md):
// - an International Patient Summary *document* (HL7 IPS IG, http://hl7.org/fhir/uv/ips/): a
//   Bundle of type document whose first entry is the Composition, and every other entry is reached
//   from it — its subject and author (the Patient), a section's entries, or what those refer to;
//   each section's narrative lists the items themselves;
// - a *collection* Bundle beside it for what belongs to no IPS section: appointments and a
//   DocumentReference for each file (with the Patient, so its references resolve).
// Kinchart's free text stays free text (CodeableConcept.text); codes are only those the item came
// with, or the fixed ones of IPS sections and Kinchart's own fields (blood group, height, weight).

/** DESIGN §12: the person's clinical items, as the API answers them. */
export interface IpsClinical {
  immunizations: readonly Immunization[];
  labResults: readonly LabResult[];
  conditions: readonly Condition[];
  procedures: readonly Procedure[];
}

export interface IpsInput {
  person: ProfileBundle;
  /** Absent: none (the emergency summary shows none). */
  clinical?: IpsClinical;
  /** Each medication's codings (what an import brought), by medication id. */
  medicationCodings?: ReadonlyMap<string, readonly Coding[]>;
  /** The person's allergy entries (issue 34, docs/decisions/0053), in their order. Absent: each line of the details alone. */
  allergies?: readonly AllergyValues[];
  /**
   * When the profile was last saved: the date of its height, weight and blood group, which carry
   * no date of their own. Absent: those observations say their date is unknown.
   */
  profileUpdatedAt?: string;
  /** For the collection bundle. */
  appointments?: IpsAppointment[];
  /** For the collection bundle. */
  documents?: IpsDocument[];
  /** For the collection bundle: the person's logged doses (decision 0046), `effective` with the person's offset. */
  doses?: IpsDose[];
  now: Date;
  /** IANA zone the person's wall-clock appointment times are in (the browser's); UTC when absent. */
  timeZone?: string;
  /** Patient.identifier carries Kinchart's profile id; left out of summaries shown to strangers. */
  withIdentifier?: boolean;
}

/** A logged dose of one of the person's medications. */
export interface IpsDose {
  id: string;
  medication_id: string;
  status: 'taken' | 'skipped';
  effective: string;
}

export interface PersonBundles {
  /** The IPS document. */
  document: Json;
  /** Appointments and files, or null when the person has neither. */
  other: Json | null;
}

const ALLERGY_CLINICAL = 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical';
const ALLERGY_VERIFICATION = 'http://terminology.hl7.org/CodeSystem/allergyintolerance-verification';
const CONDITION_CLINICAL = 'http://terminology.hl7.org/CodeSystem/condition-clinical';
const CONDITION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/condition-category';
const OBSERVATION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
const LIST_EMPTY_REASON = 'http://terminology.hl7.org/CodeSystem/list-empty-reason';

interface Section {
  title: string;
  code: string;
  display: string;
  entries: Ref[];
  text: Json;
  /** Why a section has no entries: nothing is known (the default), or none are known ("NKDA"). */
  empty?: 'unavailable' | 'nilknown';
}

const EMPTY_REASONS = {
  unavailable: { display: 'Unavailable', text: 'No information available' },
  nilknown: { display: 'Nil Known', text: 'None known' },
} as const;

function sectionOf(s: Section): Json {
  const empty = EMPTY_REASONS[s.empty ?? 'unavailable'];
  return {
    title: s.title,
    code: loinc(s.code, s.display),
    text: s.text,
    ...(s.entries.length
      ? { entry: s.entries }
      : // IPS 1.1+: a required section with nothing known says so (ips-comp-1).
        {
          emptyReason: {
            coding: [{ system: LIST_EMPTY_REASON, code: s.empty ?? 'unavailable', display: empty.display }],
            text: empty.text,
          },
        }),
  };
}

export function buildPersonBundles(input: IpsInput): PersonBundles {
  const { person, now, withIdentifier = true } = input;
  // A pet has no blood type, language or directives, even if an older save left some (decision 0037).
  const p = fieldsForKind(person.profile, person.profile.is_pet);
  const clinical: IpsClinical = input.clinical ?? { immunizations: [], labResults: [], conditions: [], procedures: [] };
  const timeZone = input.timeZone ?? 'UTC';
  const id = (kind: string, key: string) => `urn:uuid:${stableUuid('kinchart', p.id, kind, key)}`;
  const patientRef: Ref = { reference: id('Patient', p.id) };
  const entries: { fullUrl: string; resource: Json }[] = [];
  const add = (fullUrl: string, resource: Json): Ref => {
    entries.push({ fullUrl, resource });
    return { reference: fullUrl };
  };

  // ---------- Patient, with emergency contacts as Patient.contact (v2-0131 "C": emergency contact) ----------
  const patient: Json = {
    resourceType: 'Patient',
    ...(withIdentifier ? { identifier: [{ system: 'urn:kinchart:profile', value: p.id }] } : {}),
    active: true,
    // IPS: name 1..* with text, family or given (ips-pat-1). A profile without a name gets none
    // invented: the text is there and says it is unknown (data-absent-reason), so an import of
    // this file names nobody.
    name: [p.name?.trim() ? { text: p.name } : { _text: unknownValue() }],
  };
  const telecom: Json[] = [];
  if (p.phone_number) telecom.push({ system: 'phone', value: p.phone_number });
  if (p.email) telecom.push({ system: 'email', value: p.email });
  if (telecom.length) patient.telecom = telecom;
  // IPS: birthDate 1..1 — the date, or the data-absent-reason when it is not known.
  Object.assign(patient, dateOrUnknown('birthDate', p.date_of_birth));
  if (p.address) patient.address = [{ text: p.address }];
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
  if (p.primary_language) patient.communication = [{ language: codeable(p.primary_language), preferred: true }];
  // The primary providers' PractitionerRoles (written with the care team below).
  const primary = person.healthcare_providers.filter((h) => h.is_primary).map((h): Ref => ({ reference: id('PractitionerRole', h.id) }));
  if (primary.length) patient.generalPractitioner = primary;
  if (p.is_pet) {
    // http://hl7.org/fhir/StructureDefinition/patient-animal: species is required. The pet's own
    // species and breed as text (docs/decisions/0037); without a species, only that it is a pet.
    patient.extension = [
      {
        url: 'http://hl7.org/fhir/StructureDefinition/patient-animal',
        extension: [
          { url: 'species', valueCodeableConcept: codeable(p.species ?? (p.relationship ? `Pet (${p.relationship})` : 'Pet')) },
          ...(p.breed ? [{ url: 'breed', valueCodeableConcept: codeable(p.breed) }] : []),
        ],
      },
    ];
  }
  const patientEntry = { fullUrl: patientRef.reference, resource: patient };

  // ---------- allergies and anesthesia reactions (the profile's flags and details) ----------
  const allergies: Ref[] = [];
  const allergyRows: string[][] = [];
  const allergy = (key: string, text: string, category: string | null, entry?: AllergyValues) => {
    allergyRows.push([text, category ? 'Medication' : 'Allergy or intolerance', 'Active', 'Unconfirmed (patient-reported)']);
    // Issue 34: the entry's substance with its codings, its reactions (FHIR needs a manifestation
    // for a reaction, so a severity without reactions is not written) and its criticality.
    const reactions = entry?.reactions ?? [];
    allergies.push(
      add(id('AllergyIntolerance', key), {
        resourceType: 'AllergyIntolerance',
        clinicalStatus: { coding: [{ system: ALLERGY_CLINICAL, code: 'active' }] },
        verificationStatus: { coding: [{ system: ALLERGY_VERIFICATION, code: 'unconfirmed' }] },
        ...(category ? { category: [category] } : {}),
        ...(entry?.criticality ? { criticality: entry.criticality } : {}),
        code: entry ? coded(entry.substance, entry.codings) : coded(text, []),
        patient: patientRef,
        ...(reactions.length
          ? { reaction: [{ manifestation: reactions.map((r) => ({ text: r })), ...(entry?.severity ? { severity: entry.severity } : {}) }] }
          : {}),
      }),
    );
  };
  // One AllergyIntolerance per line of the details, written from the line's entry (issue 34,
  // docs/decisions/0053): the entries and the lines are kept in step. A line the person wrote
  // ("Penicillin; peanuts") stays one, with no codes.
  // Decision 0035: a line that says none are known ("NKDA") is not an allergy.
  const allergyLines = detailsLines(p.allergy_details);
  const unusedEntries = [...(input.allergies ?? [])];
  const entryOfLine = (line: string) => {
    const at = unusedEntries.findIndex((e) => allergyLine(e) === line);
    return at >= 0 ? unusedEntries.splice(at, 1)[0] : undefined;
  };
  const noneKnown = p.has_allergies ? allergyLines.filter(saysNoAllergies) : [];
  const knownAllergies = allergyLines.filter((line) => !saysNoAllergies(line));
  if (p.has_allergies && (knownAllergies.length > 0 || noneKnown.length === 0)) {
    const lines = knownAllergies;
    if (lines.length === 0) allergy('allergies', 'Allergy (details not provided)', null);
    // The first keeps the id a single allergy always had.
    lines.forEach((line, i) => allergy(i === 0 ? 'allergies' : `allergies-${i}`, line, null, entryOfLine(line)));
  }
  if (p.had_anesthesia_reactions)
    allergy('anesthesia', `Anesthesia reaction: ${p.anesthesia_reaction_details ?? 'details not provided'}`, 'medication');

  // ---------- problems: the profile's flags and details, and the structured conditions ----------
  const problems: Ref[] = [];
  const history: Ref[] = [];
  const problemRows: (string | null)[][] = [];
  const historyRows: (string | null)[][] = [];
  const flagCondition = (key: string, text: string, status: 'active' | 'resolved') => {
    (status === 'active' ? problemRows : historyRows).push([text, status, null, null, null]);
    (status === 'active' ? problems : history).push(
      add(id('Condition', key), {
        resourceType: 'Condition',
        clinicalStatus: { coding: [{ system: CONDITION_CLINICAL, code: status }] },
        category: [{ coding: [{ system: CONDITION_CATEGORY, code: 'problem-list-item', display: 'Problem List Item' }] }],
        code: codeable(text),
        subject: patientRef,
      }),
    );
  };
  // The details' lines that name a structured condition are that condition (an import writes both).
  const named = new Set(
    clinical.conditions.flatMap((c) => [c.name, `${c.name}${RESOLVED_MARK}`, `${c.name}${IN_REMISSION_MARK}`].map((n) => n.toLowerCase())),
  );
  const ownLines = (p.chronic_condition_details ?? '')
    .split('\n')
    .filter((line) => line.trim() !== '' && !named.has(line.trim().toLowerCase()));
  // Decision 0035: a line marked "(resolved)" is over — a past illness, not a current problem.
  const pastLines = ownLines.filter(isResolvedLine);
  const currentLines = ownLines.filter((line) => !isResolvedLine(line));
  if (p.has_chronic_conditions && (currentLines.length > 0 || (clinical.conditions.length === 0 && pastLines.length === 0))) {
    flagCondition('chronic', currentLines.length > 0 ? currentLines.join('\n') : 'Chronic condition (details not provided)', 'active');
  }
  if (p.has_chronic_conditions && pastLines.length > 0) flagCondition('chronic-past', pastLines.join('\n'), 'resolved');
  if (p.has_bleeding_disorders)
    flagCondition('bleeding', `Bleeding disorder: ${p.bleeding_disorder_details ?? 'details not provided'}`, 'active');
  if (p.has_mobility_issues) flagCondition('mobility', `Mobility issue: ${p.mobility_details ?? 'details not provided'}`, 'active');
  if (p.has_vision_impairment) flagCondition('vision', 'Vision impairment', 'active');
  if (p.has_hearing_impairment) flagCondition('hearing', 'Hearing impairment', 'active');
  if (p.has_previous_surgeries)
    flagCondition('surgeries', `History of surgery: ${p.surgery_details ?? 'details not provided'}`, 'resolved');
  for (const c of newestFirst(clinical.conditions, (x) => x.onset_date)) {
    // Decision 0035: a problem in remission is not over — a current problem, like the emergency page's.
    const past = PAST_CONDITION.has(c.status) && c.status !== 'remission';
    (past ? history : problems).push(add(id('Condition', c.id), conditionResource(c, patientRef)));
    (past ? historyRows : problemRows).push(conditionRow(c));
  }

  // ---------- medications ----------
  const medRows: (string | null)[][] = [];
  const meds = person.medications.map((m) => {
    const name = m.medication_name ?? 'Unnamed medication';
    const statement: Json = {
      resourceType: 'MedicationStatement',
      status: m.is_current ? 'active' : 'completed',
      medicationCodeableConcept: coded(name, input.medicationCodings?.get(m.id) ?? []),
      subject: patientRef,
      // IPS: effective[x] is required — the period taken, or said to be unknown.
      ...(m.start_date || m.end_date
        ? { effectivePeriod: { ...(m.start_date ? { start: m.start_date } : {}), ...(m.end_date ? { end: m.end_date } : {}) } }
        : dateOrUnknown('effectiveDateTime', null)),
    };
    // The text reads as a clinician expects ("5 mg, daily"); the frequency also stands alone in
    // timing.code, so an import can take the two apart again.
    const dose = [m.dosage, m.frequency].filter(Boolean).join(', ');
    if (dose) statement.dosage = [{ text: dose, ...(m.frequency ? { timing: { code: codeable(m.frequency) } } : {}) }];
    if (m.purpose) statement.reasonCode = [codeable(m.purpose)];
    medRows.push([name, dose || null, m.is_current ? 'Current' : 'Past', m.start_date, m.end_date, m.purpose]);
    return add(id('MedicationStatement', m.id), statement);
  });

  // ---------- immunizations and procedures ----------
  const immunizations = newestFirst(clinical.immunizations, (i) => i.date);
  const immunizationRefs = immunizations.map((i) => add(id('Immunization', i.id), immunizationResource(i, patientRef)));
  const procedures = newestFirst(clinical.procedures, (x) => x.performed_date);
  const procedureRefs = procedures.map((x) => add(id('Procedure', x.id), procedureResource(x, patientRef)));

  // ---------- results (lab results and the blood group) and vital signs ----------
  // The profile's height, weight and blood group have no date of their own: they are dated when the
  // profile was last saved (decision 0023), never the export time.
  // A day, like the results' own dates: what an import keeps of it, so a round trip keeps it equal.
  const profileDate = input.profileUpdatedAt?.slice(0, 10) ?? null;
  const profileDateText = profileDate ? `${profileDate.slice(0, 10)} (profile last saved)` : 'Date unknown';
  const profileObservation = (key: string, category: 'laboratory' | 'vital-signs', code: Json, value: Json) =>
    add(id('Observation', key), {
      resourceType: 'Observation',
      status: 'final',
      category: [{ coding: [{ system: OBSERVATION_CATEGORY, code: category }] }],
      code,
      subject: patientRef,
      ...dateOrUnknown('effectiveDateTime', profileDate),
      ...value,
    });

  const results: Ref[] = [];
  const resultRows: (string | number | null)[][] = [];
  // A measurement the results list already holds (the same code and value, say one an import
  // brought) is written once, as that result with its own date.
  const held = (code: string, value: number | string) =>
    clinical.labResults.some(
      (r) => loincOf(r) === code && (typeof value === 'number' ? r.value === value : r.value_text?.toUpperCase() === value.toUpperCase()),
    );
  const bloodType = BLOOD_TYPES.includes(p.blood_type as BloodType) ? (p.blood_type as BloodType) : null;
  if (p.blood_type && !held(BLOOD_GROUP_LOINC, p.blood_type)) {
    const snomed = bloodType ? BLOOD_GROUP_SNOMED[bloodType] : null;
    results.push(
      profileObservation('blood', 'laboratory', loinc('882-1', 'ABO and Rh group [Type] in Blood'), {
        valueCodeableConcept: {
          ...(snomed ? { coding: [{ system: SNOMED, code: snomed.code, display: snomed.display }] } : {}),
          text: p.blood_type,
        },
      }),
    );
    resultRows.push(['Blood group (ABO and Rh)', p.blood_type, null, null, null, profileDateText, null]);
  }
  const vitals: Ref[] = [];
  const vitalRows: (string | number | null)[][] = [];
  if (p.height !== null && !held('8302-2', p.height)) {
    vitals.push(
      profileObservation('height', 'vital-signs', loinc('8302-2', 'Body height'), {
        valueQuantity: { value: p.height, unit: 'cm', system: UCUM, code: 'cm' },
      }),
    );
    vitalRows.push(['Body height', p.height, 'cm', profileDateText]);
  }
  if (p.weight !== null && !held('29463-7', p.weight)) {
    vitals.push(
      profileObservation('weight', 'vital-signs', loinc('29463-7', 'Body weight'), {
        valueQuantity: { value: p.weight, unit: 'kg', system: UCUM, code: 'kg' },
      }),
    );
    vitalRows.push(['Body weight', p.weight, 'kg', profileDateText]);
  }
  for (const r of newestFirst(clinical.labResults, (x) => x.date)) {
    const ref = add(id('Observation', r.id), labResultResource(r, patientRef));
    if (r.category === 'vital-signs') {
      vitals.push(ref);
      vitalRows.push(vitalRow(r));
    } else {
      results.push(ref);
      resultRows.push(labResultRow(r));
    }
  }

  // ---------- care team: every provider (the primary ones are also the Patient's generalPractitioner) ----------
  const careTeam: Ref[] = [];
  for (const h of person.healthcare_providers) {
    const practitioner: Json = { resourceType: 'Practitioner', name: [{ text: h.provider_name }] };
    const t: Json[] = [];
    if (h.phone_number) t.push({ system: 'phone', value: h.phone_number });
    if (h.email) t.push({ system: 'email', value: h.email });
    if (t.length) practitioner.telecom = t;
    if (h.address) practitioner.address = [{ text: h.address }];
    const ref = add(id('Practitioner', h.id), practitioner);
    const role: Json = { resourceType: 'PractitionerRole', active: true, practitioner: ref };
    // Where they practise: an Organization of its own (issue 30: not folded into the role's code).
    if (h.facility) role.organization = add(id('Organization', h.id), { resourceType: 'Organization', name: h.facility });
    if (h.specialty) role.specialty = [codeable(h.specialty)];
    // The person's notes about the provider. Being the primary one is said by Patient.generalPractitioner.
    if (h.notes) role.code = [codeable(h.notes)];
    careTeam.push(add(id('PractitionerRole', h.id), role));
  }

  // ---------- the Composition: the three required sections always, the others when they hold something ----------
  const sections: Section[] = [
    {
      title: 'Allergies and Intolerances',
      code: '48765-2',
      display: 'Allergies and adverse reactions Document',
      entries: allergies,
      text: allergies.length
        ? tableNarrative(['Allergy or intolerance', 'Type', 'Status', 'Verification'], allergyRows)
        : noneKnown.length
          ? sentenceNarrative(`No known allergies (recorded as: ${noneKnown.join('; ')}).`)
          : sentenceNarrative('No information about allergies.'),
      ...(allergies.length === 0 && noneKnown.length ? { empty: 'nilknown' as const } : {}),
    },
    {
      title: 'Medication Summary',
      code: '10160-0',
      display: 'History of Medication use Narrative',
      entries: meds,
      text: meds.length
        ? tableNarrative(['Medication', 'Dose', 'Status', 'Started', 'Stopped', 'Reason'], medRows)
        : sentenceNarrative('No information about medications.'),
    },
    {
      title: 'Problem List',
      code: '11450-4',
      display: 'Problem list - Reported',
      entries: problems,
      text: problems.length ? tableNarrative(CONDITION_HEADERS, problemRows) : sentenceNarrative('No information about current problems.'),
    },
  ];
  const optional = (s: Section) => {
    if (s.entries.length) sections.push(s);
  };
  optional({
    title: 'Immunizations',
    code: '11369-6',
    display: 'History of Immunization Narrative',
    entries: immunizationRefs,
    text: tableNarrative(IMMUNIZATION_HEADERS, immunizations.map(immunizationRow)),
  });
  optional({
    title: 'History of Procedures',
    code: '47519-4',
    display: 'History of Procedures Document',
    entries: procedureRefs,
    text: tableNarrative(PROCEDURE_HEADERS, procedures.map(procedureRow)),
  });
  optional({
    title: 'Results',
    code: '30954-2',
    display: 'Relevant diagnostic tests/laboratory data Narrative',
    entries: results,
    text: tableNarrative(LAB_RESULT_HEADERS, resultRows),
  });
  optional({
    title: 'Vital Signs',
    code: '8716-3',
    display: 'Vital signs',
    entries: vitals,
    text: tableNarrative(VITAL_HEADERS, vitalRows),
  });
  optional({
    title: 'History of Past Illness',
    code: '11348-0',
    display: 'History of Past illness Narrative',
    entries: history,
    text: tableNarrative(CONDITION_HEADERS, historyRows),
  });
  // Not an IPS section (IPS allows others): who looks after the person. Its entries bring the
  // providers into the document, referenced like everything else (LOINC 85847-2, as C-CDA's Care Teams section).
  optional({
    title: 'Care Team',
    code: '85847-2',
    display: 'Patient Care team information',
    entries: careTeam,
    text: tableNarrative(
      ['Provider', 'Specialty', 'Facility', 'Phone', 'Email', 'Primary'],
      person.healthcare_providers.map((h) => [
        h.provider_name,
        h.specialty,
        h.facility,
        h.phone_number,
        h.email,
        h.is_primary ? 'Yes' : 'No',
      ]),
    ),
  });

  const composed = sections.map(sectionOf);
  // Organ donation and directives as Consents, religious restrictions as a Flag (fhir-directives.ts).
  const directives = directiveResources(p, patientRef);
  const consentRefs = directives.consents.map((c) => add(id('Consent', c.key), c.resource));
  const flagRef = directives.flag ? add(id('Flag', 'religious-restrictions'), directives.flag.resource) : null;
  const alerts = [
    p.has_bleeding_disorders ? `Bleeding disorder${p.bleeding_disorder_details ? `: ${p.bleeding_disorder_details}` : ''}` : null,
    p.had_anesthesia_reactions ? `Anesthesia reactions${p.anesthesia_reaction_details ? `: ${p.anesthesia_reaction_details}` : ''}` : null,
    p.has_allergies && (knownAllergies.length > 0 || noneKnown.length === 0)
      ? `Allergies${knownAllergies.length ? `: ${knownAllergies.join('\n')}` : ''}`
      : null,
    directives.flag?.line ?? null,
  ].filter((x): x is string => x !== null);
  if (consentRefs.length) {
    composed.push({
      title: 'Advance Directives',
      code: loinc('42348-3', 'Advance directives'),
      text: listNarrative(directives.consents.map((c) => c.line)),
      entry: consentRefs,
    });
  }
  // The other alerts are the profile's allergies and conditions, entries of their own sections.
  if (alerts.length)
    composed.push({
      title: 'Alerts',
      code: loinc('104605-1', 'Alert'),
      text: listNarrative(alerts),
      ...(flagRef ? { entry: [flagRef] } : {}),
    });

  const composition = {
    fullUrl: id('Composition', 'ips'),
    resource: {
      resourceType: 'Composition',
      status: 'final',
      type: loinc('60591-5', 'Patient summary Document'),
      subject: patientRef,
      date: now.toISOString(),
      // IPS: who is responsible for the content. Everything in Kinchart is entered by the person
      // (or their family), so the author is the Patient.
      author: [patientRef],
      title: p.name?.trim() ? `Patient Summary: ${p.name}` : 'Patient Summary',
      confidentiality: 'N',
      section: composed,
    },
  };
  const document: Json = {
    resourceType: 'Bundle',
    identifier: uuidIdentifier(stableUuid('kinchart', p.id, 'bundle', now.toISOString())),
    type: 'document',
    timestamp: now.toISOString(),
    entry: [composition, patientEntry, ...entries],
  };

  const medicationsById = new Map(person.medications.map((m) => [m.id, m]));
  const other = buildCollection({
    id,
    patientEntry,
    appointments: input.appointments ?? [],
    documents: input.documents ?? [],
    // Each names its medication as the MedicationStatement does (that lives in the document, so a
    // reference would not resolve inside the collection).
    administrations: (input.doses ?? []).flatMap((d) => {
      const m = medicationsById.get(d.medication_id);
      if (!m) return [];
      const medication = coded(m.medication_name ?? 'Unnamed medication', input.medicationCodings?.get(m.id) ?? []);
      return [{ id: d.id, medication, status: d.status, effective: d.effective }];
    }),
    now,
    timeZone,
  });
  return { document, other };
}

/** The person's IPS document alone (the emergency summary's; the export also writes the collection). */
export function buildIpsBundle(input: IpsInput): Json {
  return buildPersonBundles(input).document;
}
