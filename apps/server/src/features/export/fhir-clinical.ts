import type { Condition, Immunization, LabResult, Procedure } from '@kinchart/shared/clinical';
import { BLOOD_GROUP_SNOMED, INTERPRETATIONS, isPartialDate, rangeText } from '@kinchart/shared/clinical';
import type { BloodType } from '@kinchart/shared/profile';
import type { Json, Ref } from './fhir-common';
import { LOINC, SNOMED, UCUM, codeable, coded, dateOrUnknown } from './fhir-common';

// DESIGN §12: a person's clinical items as IPS resources (HL7 IPS IG profiles Immunization-uv-ips,
// Observation-results-uv-ips, Condition-uv-ips, Procedure-uv-ips), each with the codings it came
// with and its date as precise as it was given; and each item's row in its section's narrative.

const CONDITION_CLINICAL = 'http://terminology.hl7.org/CodeSystem/condition-clinical';
const CONDITION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/condition-category';
const OBSERVATION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
const INTERPRETATION = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';

/** Statuses of a condition that is over: its section is the History of Past Illness, and only they may carry an abatement (con-4). */
export const PAST_CONDITION = new Set<string>(['inactive', 'remission', 'resolved']);

const notes = (...texts: (string | null)[]) => {
  const list = texts.filter((t): t is string => !!t);
  return list.length ? { note: list.map((text) => ({ text })) } : {};
};

/** Newest first by `date`, undated last — the order the screens list them in. */
export function newestFirst<T>(items: readonly T[], date: (item: T) => string | null): T[] {
  return [...items].sort((a, b) => {
    const x = date(a);
    const y = date(b);
    if (x === y) return 0;
    if (x === null) return 1;
    if (y === null) return -1;
    return x < y ? 1 : -1;
  });
}

export function immunizationResource(i: Immunization, patient: Ref): Json {
  return {
    resourceType: 'Immunization',
    status: 'completed',
    vaccineCode: coded(i.vaccine, i.codings),
    patient,
    ...dateOrUnknown('occurrenceDateTime', i.date),
    ...(i.lot_number ? { lotNumber: i.lot_number } : {}),
    ...(i.site ? { site: codeable(i.site) } : {}),
    ...(i.performer ? { performer: [{ actor: { display: i.performer } }] } : {}),
    ...notes(i.notes),
    ...(i.dose_number !== null ? { protocolApplied: [{ doseNumberPositiveInt: i.dose_number }] } : {}),
  };
}
export const immunizationRow = (i: Immunization) => [
  i.vaccine,
  i.date ?? 'Date unknown',
  i.dose_number,
  i.lot_number,
  i.site,
  i.performer,
  i.notes,
];
export const IMMUNIZATION_HEADERS = ['Vaccine', 'Date', 'Dose', 'Lot', 'Site', 'Given by', 'Notes'];

/**
 * A date for a vital sign: the R4 vital signs profile (vs-1) wants a dateTime to the day at least,
 * so a year or a month is written as the period it names (`2015-03` to `2015-03`).
 */
function vitalDate(date: string | null): Json {
  if (date && isPartialDate(date) && date.length < 10) return { effectivePeriod: { start: date, end: date } };
  return dateOrUnknown('effectiveDateTime', date);
}

/** A lab result or a vital sign (its `category`), with its value, unit, range and interpretation as given. */
/**
 * Units written as UCUM codes too: the vital-sign units the R4 vital signs profile names (it
 * requires a UCUM code). Any other unit is written as the text it was given.
 */
const UCUM_UNITS = new Set(['cm', 'm', '[in_i]', 'kg', 'g', '[lb_av]', 'mm[Hg]', '/min', '%', 'Cel', '[degF]', 'kg/m2']);

/** The blood group's LOINC code (ABO and Rh group): its result is a SNOMED CT blood group. */
export const BLOOD_GROUP_LOINC = '882-1';

/** A result's LOINC code: its own field, else a LOINC coding it carries. */
export const loincOf = (r: LabResult): string | null => r.loinc_code ?? r.codings.find((c) => c.system === LOINC && c.code)?.code ?? null;

export function labResultResource(r: LabResult, patient: Ref): Json {
  const quantity = (value: number) => ({
    value,
    ...(r.unit ? { unit: r.unit } : {}),
    ...(r.unit && UCUM_UNITS.has(r.unit) ? { system: UCUM, code: r.unit } : {}),
  });
  const bloodGroup =
    loincOf(r) === BLOOD_GROUP_LOINC && r.value_text !== null ? BLOOD_GROUP_SNOMED[r.value_text.toUpperCase() as BloodType] : undefined;
  const range: Json = {
    ...(r.reference_low !== null ? { low: quantity(r.reference_low) } : {}),
    ...(r.reference_high !== null ? { high: quantity(r.reference_high) } : {}),
    ...(r.reference_range ? { text: r.reference_range } : {}),
  };
  const value =
    r.value !== null
      ? { valueQuantity: quantity(r.value) }
      : bloodGroup
        ? { valueCodeableConcept: { coding: [{ system: SNOMED, code: bloodGroup.code, display: bloodGroup.display }], text: r.value_text } }
        : r.value_text !== null
          ? { valueString: r.value_text }
          : {};
  return {
    resourceType: 'Observation',
    status: 'final',
    category: [{ coding: [{ system: OBSERVATION_CATEGORY, code: r.category }] }],
    code: coded(r.name, r.codings, r.loinc_code ? [{ system: LOINC, code: r.loinc_code, display: r.name }] : []),
    subject: patient,
    ...(r.category === 'vital-signs' ? vitalDate(r.date) : dateOrUnknown('effectiveDateTime', r.date)),
    ...value,
    ...(r.interpretation
      ? { interpretation: [{ coding: [{ system: INTERPRETATION, code: r.interpretation, display: INTERPRETATIONS[r.interpretation] }] }] }
      : {}),
    // A result given both as a number and as words keeps the words as a note.
    ...notes(r.value !== null && r.value_text !== null ? r.value_text : null, r.notes),
    ...(Object.keys(range).length ? { referenceRange: [range] } : {}),
  };
}
const valueText = (r: LabResult) => [r.value !== null ? String(r.value) : null, r.value_text].filter(Boolean).join(' ');
export const labResultRow = (r: LabResult) => [
  r.name,
  valueText(r),
  r.unit,
  rangeText(r),
  r.interpretation ? INTERPRETATIONS[r.interpretation] : null,
  r.date ?? 'Date unknown',
  r.notes,
];
export const LAB_RESULT_HEADERS = ['Test', 'Result', 'Unit', 'Reference range', 'Interpretation', 'Date', 'Notes'];
/** A vital sign's row: the Vital Signs section's columns (VITAL_HEADERS). */
export const vitalRow = (r: LabResult) => [r.name, valueText(r), r.unit, r.date ?? 'Date unknown'];
export const VITAL_HEADERS = ['Measurement', 'Value', 'Unit', 'Date'];

export function conditionResource(c: Condition, patient: Ref): Json {
  // con-4: only a condition that is over may say when it ended; an active one keeps the date as a note.
  const ended = PAST_CONDITION.has(c.status);
  return {
    resourceType: 'Condition',
    clinicalStatus: { coding: [{ system: CONDITION_CLINICAL, code: c.status }] },
    category: [{ coding: [{ system: CONDITION_CATEGORY, code: 'problem-list-item', display: 'Problem List Item' }] }],
    code: coded(c.name, c.codings),
    subject: patient,
    ...(c.onset_date ? { onsetDateTime: c.onset_date } : {}),
    ...(c.abatement_date && ended ? { abatementDateTime: c.abatement_date } : {}),
    ...notes(c.abatement_date && !ended ? `Resolved date given: ${c.abatement_date}` : null, c.notes),
  };
}
export const conditionRow = (c: Condition) => [
  c.name,
  c.status === 'remission' ? 'In remission' : c.status,
  c.onset_date,
  c.abatement_date,
  c.notes,
];
export const CONDITION_HEADERS = ['Problem', 'Status', 'Onset', 'Resolved', 'Notes'];

export function procedureResource(p: Procedure, patient: Ref): Json {
  return {
    resourceType: 'Procedure',
    status: p.status,
    code: coded(p.name, p.codings),
    subject: patient,
    ...dateOrUnknown('performedDateTime', p.performed_date),
    ...(p.performer ? { performer: [{ actor: { display: p.performer } }] } : {}),
    ...notes(p.notes),
  };
}
export const procedureRow = (p: Procedure) => [p.name, p.status, p.performed_date ?? 'Date unknown', p.performer, p.notes];
export const PROCEDURE_HEADERS = ['Procedure', 'Status', 'Date', 'Performed by', 'Notes'];
