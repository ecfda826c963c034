import type { AppointmentValues } from '@kinchart/shared/appointments';
import type { Coding } from '@kinchart/shared/clinical';
import { BLOOD_GROUP_SNOMED } from '@kinchart/shared/clinical';
import {
  BLOOD_TYPES,
  FLAG_OF_DETAIL,
  MAX_HEIGHT_CM,
  MAX_WEIGHT_KG,
  LB_PER_KG,
  type DetailField,
  type ProfileFields,
  type ProfileFlag,
} from '@kinchart/shared/profile';
import { IN_REMISSION_MARK, saysNoAllergies } from '@kinchart/shared/problem-lines';
import type { AllergySeverity } from '@kinchart/shared/allergies';
import { ALLERGY_CODINGS_PER_ENTRY, ALLERGY_REACTIONS_MAX, allergyLine } from '@kinchart/shared/allergies';
import type { AllergyValues } from '../allergies/allergy-entries';
import { stripInvisible } from '@kinchart/shared/text';
import type { ContactValues, MedicationValues, ProviderValues } from '../profiles/list-rows';
import type { ReadType, ResourceOf, ValidatedBundle } from './fhir-bundle';
import { absentReason } from './absent-unknown';
import { FhirValidationError, containedMedication, entriesOfType } from './fhir-bundle';
import type { ClinicalCandidate, Measurement } from './fhir-clinical';
import { performerName, planCondition, planImmunization, planObservation, planProcedure } from './fhir-clinical';
import { dosageOf } from './fhir-dosage';
import { planConsent, planFlag } from './fhir-directives';
import type { ImportTally } from './import-report';
import { createImportTally } from './import-report';
import type { CC, Ref, Resolver } from './fhir-values';
import { bestName, ccText, clean, clip, codingsOf, createResolver, fullDate, hasCode, nameText } from './fhir-values';

// A validated FHIR R4 Bundle → the Kinchart records it maps to, resource by resource (decision
// 0004, DESIGN §12, decision 0022): Patient demographics, AllergyIntolerance, Condition,
// MedicationStatement and MedicationRequest, Immunization, Observation (lab results and vital
// signs), Procedure, Appointment, DocumentReference and DiagnosticReport with embedded data — plus
// what Kinchart's own IPS export writes (height, weight and blood group Observations, emergency
// contacts as Patient.contact, Practitioner/PractitionerRole), so an IPS bundle Kinchart wrote
// comes back as the same records. Every item remembers the entry it came from, and the tally hears
// why an entry is left out. Free text stays free text; nothing is invented.

type Telecom = { system?: string | undefined; value?: string | undefined; rank?: number | undefined }[] | undefined;
type Addr = {
  text?: string | undefined;
  line?: string[] | undefined;
  city?: string | undefined;
  state?: string | undefined;
  postalCode?: string | undefined;
  country?: string | undefined;
};

/** The bundle entry (its index) an item came from: the import report counts by it. */
export interface Sourced {
  from: number;
}

export type PlannedAppointment = AppointmentValues;

export interface PlannedDocument extends Sourced {
  label: string;
  display_name: string;
  data: Buffer;
  record_date: string | null;
  provider_name: string | null;
  visit_location: string | null;
  visit_reason: string | null;
  created_at: string | null;
}

export interface PlannedMedication extends MedicationValues, Sourced {
  codings: Coding[];
}

export type TextField = DetailField;
/** The profile's flags a FHIR import may set: all of them (PROFILE_FLAGS). */
export type FlagField = ProfileFlag;

/** Each details field's flag (one list in packages/shared). */
export const FLAG_OF: Record<TextField, FlagField> = FLAG_OF_DETAIL;

/** A line for a details text (null: the flag only), from one resource. */
export interface PlannedText extends Sourced {
  field: TextField;
  text: string | null;
  /** An allergy line's entry: substance, reactions, severity, criticality and codings (issue 34, docs/decisions/0053). */
  allergy: AllergyValues | null;
}

/** The profile's demographics and measurements (and religious restrictions, from a Flag) a FHIR import may set. */
export const PLAN_FIELDS = [
  'name',
  'date_of_birth',
  'phone_number',
  'email',
  'address',
  'primary_language',
  'religious_restrictions',
  'blood_type',
  'height',
  'weight',
] as const satisfies readonly (keyof ProfileFields)[];
export type PlanFields = Partial<{ [K in (typeof PLAN_FIELDS)[number]]: NonNullable<ProfileFields[K]> }>;

export interface FhirPlan {
  /** Demographics and measurements to set (only what the bundle says). */
  fields: PlanFields;
  /** The entry each field came from (the Patient, or the Observation measured last). */
  fieldFrom: Partial<Record<keyof PlanFields, number>>;
  isPet: boolean;
  /** The Patient entry the bundle is about, if it has one. */
  patient: number | null;
  /** Lines to add to the details texts (each also sets its flag). */
  texts: PlannedText[];
  /** Flags set without a text (vision, hearing). */
  flags: ({ flag: FlagField } & Sourced)[];
  contacts: (ContactValues & Sourced)[];
  providers: (ProviderValues & Sourced)[];
  medications: PlannedMedication[];
  appointments: (PlannedAppointment & Sourced)[];
  documents: PlannedDocument[];
  /** Immunizations, lab results, conditions and procedures, for their kinds' schemas. */
  clinical: ClinicalCandidate[];
  tally: ImportTally;
}

function telecomOf(t: Telecom, system: 'phone' | 'email'): { value: string; rank?: number | undefined } | null {
  const all = (t ?? []).filter((c) => c.system === system && clean(c.value));
  all.sort((a, b) => (a.rank ?? 1e9) - (b.rank ?? 1e9));
  const first = all[0];
  return first?.value ? { value: first.value.trim(), rank: first.rank } : null;
}

function addressText(a: Addr | undefined): string | null {
  if (!a) return null;
  return clean(a.text) ?? clean([...(a.line ?? []), a.city, a.state, a.postalCode, a.country].filter(Boolean).join(', '));
}

const DETAILS_NOT_PROVIDED = /^(.*\(details not provided\)|details not provided)$/i;

// SNOMED CT blood group concepts (IPS value set) → Kinchart's blood types: the export's table, read backwards.
const SNOMED_BLOOD: Record<string, string> = Object.fromEntries(Object.entries(BLOOD_GROUP_SNOMED).map(([type, { code }]) => [code, type]));

function bloodType(cc: CC | undefined, valueString: string | undefined): string | null {
  for (const c of cc?.coding ?? []) if (c.code && SNOMED_BLOOD[c.code]) return SNOMED_BLOOD[c.code] ?? null;
  const text = (ccText(cc) ?? valueString ?? '').trim();
  const m = /^(AB|A|B|O)\s*(?:Rh\s*\(?D\)?\s*)?(\+|-|pos(?:itive)?|neg(?:ative)?)$/i.exec(text);
  if (!m) return null;
  const type = `${m[1]!.toUpperCase()}${m[2]!.startsWith('+') || /^pos/i.test(m[2]!) ? '+' : '-'}`;
  return (BLOOD_TYPES as readonly string[]).includes(type) ? type : null;
}

function heightCm(q: { value?: number | undefined; code?: string | undefined; unit?: string | undefined }): number | null {
  if (q.value === undefined) return null;
  const unit = (q.code ?? q.unit ?? '').toLowerCase();
  const factor: Record<string, number> = { cm: 1, m: 100, mm: 0.1, '[in_i]': 2.54, in: 2.54, '[ft_i]': 30.48, ft: 30.48 };
  const f = factor[unit];
  if (f === undefined) return null;
  const cm = Math.round(q.value * f * 100) / 100;
  return cm > 0 && cm <= MAX_HEIGHT_CM ? cm : null;
}

function weightKg(q: { value?: number | undefined; code?: string | undefined; unit?: string | undefined }): number | null {
  if (q.value === undefined) return null;
  const unit = (q.code ?? q.unit ?? '').toLowerCase();
  let kg: number | null = null;
  if (unit === 'kg') kg = q.value;
  else if (unit === 'g') kg = q.value / 1000;
  else if (unit === '[lb_av]' || unit === 'lb' || unit === 'lbs') kg = Math.round((q.value / LB_PER_KG) * 10) / 10;
  return kg !== null && kg > 0 && kg <= MAX_WEIGHT_KG ? kg : null;
}

/** An entry of the bundle of a type Kinchart reads, with its index (the report counts by it). */
type Entry<T extends ReadType> = { index: number; fullUrl: string | undefined; resource: ResourceOf<T> };

/** What every planner reads and writes: the plan, whose bundle it is, and what planners of related types leave each other. */
interface PlanContext {
  plan: FhirPlan;
  tally: ImportTally;
  resolve: Resolver;
  target: { isSelf: boolean };
  byType: <T extends ReadType>(type: T) => Entry<T>[];
  patients: Entry<'Patient'>[];
  /** The Patient the bundle is about: the Composition's subject, else the only one. */
  patient: Entry<'Patient'> | undefined;
  composition: Entry<'Composition'> | undefined;
  /**
   * Whether a resource is about the chosen patient. With one Patient (or none) in the bundle, every
   * resource is theirs — references in third-party bundles often do not resolve inside the bundle.
   * With several, only what points at the chosen one.
   */
  isAboutPatient: (ref: Ref) => boolean;
  isPatientRef: (ref: string | undefined) => boolean;
  /** Leaves the entry out when it is about someone else; true when it is. */
  forSomeoneElse: (index: number, type: string, ref: Ref) => boolean;
  addText: (field: TextField, text: string | null, from: number, allergy?: AllergyValues) => void;
  setField: <K extends keyof PlanFields>(key: K, value: NonNullable<PlanFields[K]>, from: number) => void;
  /** Medications named by a statement or a request (valid or not): the others are named by nothing. */
  medicationsNamed: Set<number>;
  /** PractitionerRoles read with their Practitioner. */
  rolesRead: Set<number>;
  /** Encounters a DiagnosticReport took its visit from. */
  encountersUsed: Set<number>;
}

/** Reads the entries of one resource type into the plan. */
type Planner<T extends ReadType> = (entries: Entry<T>[], ctx: PlanContext) => void;

function planContext(bundle: ValidatedBundle, target: { isSelf: boolean }): PlanContext {
  const { entries } = bundle;
  const tally = createImportTally(bundle.types);
  for (const r of bundle.rejected) tally.drop(r.index, `not valid FHIR (${r.reason})`);
  for (const r of bundle.repaired)
    tally.part(r.index, `not valid FHIR (${r.reason})`, `${tally.typeOf(r.index)} element left out, not valid FHIR (${r.reason})`);
  const byType = <T extends ReadType>(type: T) => entriesOfType(entries, type);
  const resolve = createResolver(entries);

  // Whose bundle is it? The Composition's subject, else the only Patient.
  const patients = byType('Patient');
  const composition = byType('Composition')[0];
  const refersTo = (entry: { fullUrl: string | undefined; resource: { id?: string | undefined } }, ref: string) =>
    ref === entry.fullUrl ||
    (!!entry.resource.id && (ref === `Patient/${entry.resource.id}` || ref.endsWith(`/Patient/${entry.resource.id}`)));
  let patient = patients.length === 1 ? patients[0] : undefined;
  if (patients.length > 1) {
    const subject = composition?.resource.subject?.reference;
    patient = subject ? patients.find((p) => refersTo(p, subject)) : undefined;
    if (!patient) throw new FhirValidationError("The bundle holds more than one Patient; import one person's bundle at a time.");
  }
  const isAboutPatient = (ref: Ref) => !patient || patients.length <= 1 || (!!ref?.reference && refersTo(patient, ref.reference));

  const plan: FhirPlan = {
    fields: {},
    fieldFrom: {},
    isPet: false,
    patient: patient?.index ?? null,
    texts: [],
    flags: [],
    contacts: [],
    providers: [],
    medications: [],
    appointments: [],
    documents: [],
    clinical: [],
    tally,
  };
  // A Medication named by a statement that was not valid FHIR fares as that statement did.
  const medicationsNamed = new Set<number>();
  for (const r of bundle.rejected) {
    const found = resolve(r.medicationReference, 'Medication');
    if (!found) continue;
    medicationsNamed.add(found.index);
    tally.use(found.index, r.index);
  }
  return {
    plan,
    tally,
    resolve,
    target,
    byType,
    patients,
    patient,
    composition,
    isAboutPatient,
    isPatientRef: (ref) => !!ref && (/(^|\/)Patient\/[^/]+$/.test(ref) || patients.some((p) => refersTo(p, ref))),
    forSomeoneElse: (index, type, ref) => {
      if (isAboutPatient(ref)) return false;
      tally.drop(index, 'for another patient', `${type} for another patient`);
      return true;
    },
    addText: (field, text, from, allergy) => {
      const line = text && !DETAILS_NOT_PROVIDED.test(text) ? text : null;
      plan.texts.push({ field, text: line, allergy: line ? (allergy ?? null) : null, from });
    },
    setField: (key, value, from) => {
      plan.fields[key] = value;
      plan.fieldFrom[key] = from;
    },
    medicationsNamed,
    rolesRead: new Set(),
    encountersUsed: new Set(),
  };
}

/**
 * One planner per resource type Kinchart reads, run in this order: the order is part of the report
 * (parts left out are listed as they are found), and some planners read what an earlier one left —
 * the Medications the statements named, the roles a Practitioner read, the visits a report used.
 * A type without a planner (Organization, Location) is read only through the resources naming it.
 */
const PLANNERS: { [T in ReadType]?: Planner<T> } = {
  Composition: planComposition,
  Patient: planPatients,
  AllergyIntolerance: (entries, ctx) => {
    for (const { index, resource: a } of entries)
      if (!ctx.forSomeoneElse(index, 'AllergyIntolerance', a.patient)) planAllergy(index, a, ctx.tally, ctx.addText);
  },
  Condition: (entries, ctx) => {
    for (const { index, resource: c } of entries)
      if (!ctx.forSomeoneElse(index, 'Condition', c.subject)) planProblem(index, c, ctx.plan, ctx.addText);
  },
  MedicationStatement: planMedicationStatements,
  MedicationRequest: planMedicationRequests,
  Medication: (entries, { tally, medicationsNamed }) => {
    for (const { index } of entries)
      if (!medicationsNamed.has(index)) tally.drop(index, 'not named by any MedicationStatement or MedicationRequest');
  },
  Observation: planObservations,
  Immunization: (entries, ctx) => {
    for (const { index, resource: im } of entries) {
      if (ctx.forSomeoneElse(index, 'Immunization', im.patient)) continue;
      const row = planImmunization(index, im, ctx);
      if (row) ctx.plan.clinical.push(row);
    }
  },
  Procedure: (entries, ctx) => {
    for (const { index, resource: p } of entries) {
      if (ctx.forSomeoneElse(index, 'Procedure', p.subject)) continue;
      const row = planProcedure(index, p, ctx);
      if (row) ctx.plan.clinical.push(row);
    }
  },
  Practitioner: planPractitioners,
  PractitionerRole: (entries, { tally, rolesRead }) => {
    for (const { index } of entries) if (!rolesRead.has(index)) tally.drop(index, 'naming no Practitioner of this bundle');
  },
  Appointment: (entries, ctx) => {
    for (const { index, resource: a } of entries) {
      const patientActors = a.participant.map((p) => p.actor).filter((actor) => ctx.isPatientRef(actor?.reference));
      if (patientActors.length > 0 && !patientActors.some((actor) => ctx.isAboutPatient(actor))) {
        ctx.tally.drop(index, 'for another patient');
        continue;
      }
      const appointment = planAppointment(index, a, ctx.tally, ctx.isPatientRef);
      if (appointment) ctx.plan.appointments.push(appointment);
    }
  },
  Consent: (entries, ctx) => {
    for (const { index, resource: c } of entries) {
      if (c.patient && ctx.forSomeoneElse(index, 'Consent', c.patient)) continue;
      const flag = planConsent(index, c, ctx.tally);
      if (flag) ctx.plan.flags.push({ flag, from: index });
    }
  },
  Flag: (entries, ctx) => {
    for (const { index, resource: f } of entries) {
      if (ctx.forSomeoneElse(index, 'Flag', f.subject)) continue;
      const restrictions = planFlag(index, f, ctx.tally);
      if (restrictions) ctx.setField('religious_restrictions', restrictions, index);
    }
  },
  DocumentReference: planDocumentReferences,
  DiagnosticReport: planDiagnosticReports,
  Encounter: (entries, ctx) => {
    for (const { index, resource: e } of entries) {
      if (ctx.encountersUsed.has(index)) continue;
      if (e.subject && ctx.forSomeoneElse(index, 'Encounter', e.subject)) continue;
      ctx.tally.drop(index, 'a visit without a report attached (Kinchart keeps the documents of visits, not the visits)');
    }
  },
};

export function planFromBundle(bundle: ValidatedBundle, target: { isSelf: boolean }): FhirPlan {
  const ctx = planContext(bundle, target);
  for (const type of Object.keys(PLANNERS) as ReadType[]) {
    // Each planner is filed under its own type, so the entries it is given are of that type.
    const planner = PLANNERS[type] as Planner<ReadType>;
    planner(ctx.byType(type), ctx);
  }
  return ctx.plan;
}

/** The Composition (the first) says whose summary it is: it fares as that Patient does. */
function planComposition(entries: Entry<'Composition'>[], { tally, patient }: PlanContext): void {
  const composition = entries[0];
  if (!composition) return;
  if (patient) tally.use(composition.index, patient.index);
  else tally.drop(composition.index, 'about no Patient of this bundle (nothing of its own to keep)');
}

/** The Patient → the person's demographics, whether it is a pet, and its contacts as emergency contacts; any other Patient is left out. */
function planPatients(entries: Entry<'Patient'>[], { plan, tally, target, patient, setField }: PlanContext): void {
  for (const other of entries) {
    if (other.index !== patient?.index)
      tally.drop(other.index, 'not the subject of this summary', 'other Patient (not the subject of this summary)');
  }
  if (!patient) return;
  const p = patient.resource;
  const at = patient.index;
  const name = bestName(p.name);
  if (name) setField('name', name, at);
  if (p.birthDate) {
    if (fullDate(p.birthDate)) setField('date_of_birth', p.birthDate, at);
    else tally.part(at, 'birth date without a day (Kinchart keeps full dates)', 'birth date without a day (Kinchart keeps full dates)');
  }
  const phone = telecomOf(p.telecom, 'phone');
  if (phone) setField('phone_number', phone.value, at);
  const email = telecomOf(p.telecom, 'email');
  if (email) setField('email', email.value, at);
  const addr = addressText(p.address?.[0]);
  if (addr) setField('address', addr, at);
  const language = ccText((p.communication?.find((c) => c.preferred) ?? p.communication?.[0])?.language);
  if (language) setField('primary_language', language, at);
  if (p.extension?.some((e) => e.url === 'http://hl7.org/fhir/StructureDefinition/patient-animal')) {
    if (target.isSelf) {
      const why = 'animal Patient (your own profile cannot be a pet; import it into a family member)';
      tally.part(at, why, why);
    } else plan.isPet = true;
  }
  for (const c of p.contact ?? []) {
    const contactName = nameText(c.name);
    if (!contactName) {
      tally.part(at, 'contact without a name', 'Patient.contact without a name');
      continue;
    }
    const relations = (c.relationship ?? []).map((r) => ({ text: ccText(r), emergency: hasCode(r, ['C']) }));
    const medicalPower = relations.some((r) => /^medical power of attorney$/i.test(r.text ?? ''));
    const relationship = relations.find((r) => !r.emergency && r.text && !/^medical power of attorney$/i.test(r.text))?.text ?? null;
    const cPhone = telecomOf(c.telecom, 'phone');
    plan.contacts.push({
      name: contactName,
      relationship,
      phone_number: cPhone?.value ?? null,
      email: telecomOf(c.telecom, 'email')?.value ?? null,
      is_primary: cPhone?.rank === 1,
      has_medical_power: medicalPower,
      from: at,
    });
  }
}

/** Height, weight or blood group read from an Observation; null (and a part left out) when its unit or value cannot be used. */
function readMeasurement(o: ResourceOf<'Observation'>, date: string | null, index: number, tally: ImportTally): Measurement | null {
  const unusable = (what: string) => {
    tally.part(index, what, what);
    return null;
  };
  if (hasCode(o.code, ['8302-2', '8306-3', '3137-7'])) {
    const cm = o.valueQuantity ? heightCm(o.valueQuantity) : null;
    return cm !== null ? { field: 'height', value: cm, date, from: index } : unusable('body height in a unit or range Kinchart cannot use');
  }
  if (hasCode(o.code, ['29463-7', '3141-9'])) {
    const kg = o.valueQuantity ? weightKg(o.valueQuantity) : null;
    return kg !== null ? { field: 'weight', value: kg, date, from: index } : unusable('body weight in a unit or range Kinchart cannot use');
  }
  if (hasCode(o.code, ['882-1', '883-9'])) {
    const type = bloodType(o.valueCodeableConcept, o.valueString);
    return type ? { field: 'blood_type', value: type, date, from: index } : unusable('blood group Kinchart cannot read');
  }
  return null;
}

/** Observations → lab results (fhir-clinical.ts), and the profile's latest height, weight and blood group. */
function planObservations(entries: Entry<'Observation'>[], ctx: PlanContext): void {
  const measurements: Measurement[] = [];
  for (const { index, resource: o } of entries) {
    if (ctx.forSomeoneElse(index, 'Observation', o.subject)) continue;
    const { rows, measurement } = planObservation(index, o, ctx, (obs, date) => readMeasurement(obs, date, index, ctx.tally));
    ctx.plan.clinical.push(...rows);
    if (measurement) measurements.push(measurement);
  }
  // The profile keeps the latest of each measurement (DESIGN §4 units).
  for (const field of ['height', 'weight', 'blood_type'] as const) {
    const latest = measurements
      .filter((m) => m.field === field)
      .reduce<Measurement | null>((best, m) => (!best || (m.date ?? '') >= (best.date ?? '') ? m : best), null);
    if (!latest) continue;
    if (field === 'blood_type') ctx.setField(field, String(latest.value), latest.from);
    else ctx.setField(field, Number(latest.value), latest.from);
  }
}

/**
 * Practitioners (with the PractitionerRole naming them) → the person's healthcare providers: the
 * role's specialty, its Organization or Location as the facility, its code as the notes; primary
 * when the Patient names the role or the practitioner as general practitioner (Kinchart's export
 * does). Older Kinchart exports folded the facility and "Primary care provider" into the code:
 * "Primary care provider" there still says primary, and is not kept as a note.
 */
function planPractitioners(entries: Entry<'Practitioner'>[], ctx: PlanContext): void {
  const { plan, tally, resolve, rolesRead } = ctx;
  const authors = new Set((ctx.composition?.resource.author ?? []).map((a) => a?.reference).filter(Boolean));
  const generalPractitioners = (ctx.patient?.resource.generalPractitioner ?? []).map((r) => r.reference).filter((r): r is string => !!r);
  const roles = ctx.byType('PractitionerRole');
  const refsOf = (e: { fullUrl: string | undefined; resource: { resourceType: string; id?: string | undefined } }) =>
    [e.fullUrl, e.resource.id ? `${e.resource.resourceType}/${e.resource.id}` : undefined].filter((x): x is string => !!x);
  const named = (refs: string[]) => generalPractitioners.some((g) => refs.includes(g) || refs.some((r) => g.endsWith(`/${r}`)));
  /** The facility a role names: its Organization, else its first Location; the entry fares as the role does. */
  const facilityOf = (role: { index: number; resource: ResourceOf<'PractitionerRole'> }): string | null => {
    for (const ref of [role.resource.organization, ...(role.resource.location ?? [])]) {
      const found = resolve(ref?.reference);
      const name =
        found && ['Organization', 'Location'].includes(found.resource.resourceType)
          ? clean((found.resource as { name?: string }).name)
          : clean(ref?.display);
      if (found) tally.use(found.index, role.index);
      if (name) return name;
    }
    return null;
  };

  for (const practitioner of entries) {
    const { index, resource: pr } = practitioner;
    const refs = refsOf(practitioner);
    const role = roles.find((r) => !!r.resource.practitioner?.reference && refs.includes(r.resource.practitioner.reference));
    if (role) {
      rolesRead.add(role.index);
      tally.use(role.index, index);
    }
    if (refs.some((r) => authors.has(r))) {
      tally.drop(index, "who wrote the summary (not one of the person's providers)");
      continue;
    }
    const name = bestName(pr.name);
    if (!name) {
      tally.drop(index, 'without a name');
      continue;
    }
    const code = ccText(role?.resource.code?.[0]);
    const legacyPrimary = !!code && /(^|\. )Primary care provider(\. |$)/.test(code);
    const notes = legacyPrimary ? clean(code.replace(/(^|\. )Primary care provider(?=\. |$)/, '').replace(/^\. /, '')) : code;
    plan.providers.push({
      provider_name: name,
      specialty: ccText(role?.resource.specialty?.[0]),
      facility: role ? facilityOf(role) : null,
      phone_number: telecomOf(pr.telecom, 'phone')?.value ?? telecomOf(role?.resource.telecom, 'phone')?.value ?? null,
      email: telecomOf(pr.telecom, 'email')?.value ?? null,
      address: addressText(pr.address?.[0]),
      is_primary: named(refs) || (role ? named(refsOf(role)) : false) || legacyPrimary,
      notes,
      from: index,
    });
  }
}

/** The wall-clock time an instant names where it was written (its own offset): what Kinchart keeps (DESIGN §13). */
const wallClock = (instant: string): string => instant.slice(0, 19);

/**
 * An Appointment → an appointment of the person. Times are the wall clock as written (the
 * appointment's place and the export's zone). Kinchart writes an appointment without times as
 * 00:00:00 to 23:59:59 of its day, and one without an end as ending at 23:59:59: those read back
 * as they were (issue 30).
 */
function planAppointment(
  index: number,
  a: ResourceOf<'Appointment'>,
  tally: ImportTally,
  isPatientRef: (ref: string | undefined) => boolean,
): (PlannedAppointment & Sourced) | null {
  if (a.status === 'cancelled' || a.status === 'entered-in-error' || a.status === 'noshow') {
    tally.drop(index, `with status ${a.status}`);
    return null;
  }
  if (!a.start) {
    tally.drop(index, 'without a start time');
    return null;
  }
  const provider =
    a.participant.map((p) => p.actor).find((actor) => actor && !isPatientRef(actor.reference) && clean(actor.display))?.display ?? null;
  const reason = ccText(a.reasonCode?.[0]);
  const description = clean(a.description);
  const location = a.comment && /^location:\s*/i.test(a.comment) ? clean(a.comment.replace(/^location:\s*/i, '')) : null;
  const date = a.start.slice(0, 10);
  const start = wallClock(a.start);
  const end = a.end ? wallClock(a.end) : null;
  const noEnd = end === `${date}T23:59:59`;
  const allDay = noEnd && start === `${date}T00:00:00`;
  return {
    // The calendar date where the appointment happens (the instant's own offset), not in UTC.
    appointment_date: date,
    start_time: allDay ? null : start,
    end_time: noEnd ? null : end,
    provider_name: (
      clean(provider) ??
      (description && reason ? description.replace(` - ${reason}`, '') : description) ??
      'Healthcare provider'
    ).slice(0, 200),
    reason_for_visit: reason,
    location,
    from: index,
  };
}

/**
 * A Condition → the profile's details, which the SPEC's screens show, and a structured condition
 * (DESIGN §12). The profile's own flags as Kinchart writes them ("Bleeding disorder: …", "Vision
 * impairment", …) are read back into the profile only, so a round trip does not double them.
 * "None known", refuted, and one naming nothing add nothing and are reported as such.
 */
function planProblem(
  index: number,
  c: ResourceOf<'Condition'>,
  plan: FhirPlan,
  addText: (field: TextField, text: string | null, from: number) => void,
): void {
  const { tally } = plan;
  if (hasCode(c.verificationStatus, ['entered-in-error', 'refuted'])) {
    tally.drop(index, 'entered in error or refuted');
    return;
  }
  const absent = absentReason(c.code);
  if (absent) {
    tally.drop(index, absent);
    return;
  }
  const text = ccText(c.code);
  if (!text) {
    tally.drop(index, 'without a code or text naming it');
    return;
  }
  let m: RegExpExecArray | null;
  if ((m = /^bleeding disorder:\s*/i.exec(text))) addText('bleeding_disorder_details', text.slice(m[0].length), index);
  else if ((m = /^mobility issue:\s*/i.exec(text))) addText('mobility_details', text.slice(m[0].length), index);
  else if ((m = /^history of surgery:\s*/i.exec(text))) addText('surgery_details', text.slice(m[0].length), index);
  else if (/^vision impairment$/i.test(text)) plan.flags.push({ flag: 'has_vision_impairment', from: index });
  else if (/^hearing impairment$/i.test(text)) plan.flags.push({ flag: 'has_hearing_impairment', from: index });
  else {
    const row = planCondition(index, c);
    if (row) plan.clinical.push(row);
    // Decision 0035: a problem that is over (resolved, inactive) is not a chronic condition — it
    // stays a structured condition only, off the emergency page; one in remission says so.
    const over = hasCode(c.clinicalStatus, ['inactive', 'resolved']);
    const remission = hasCode(c.clinicalStatus, ['remission']) ? IN_REMISSION_MARK : '';
    if (!over) addText('chronic_condition_details', `${text}${remission}`, index);
  }
}

const SEVERITY_RANK: Record<AllergySeverity, number> = { mild: 1, moderate: 2, severe: 3 };

/**
 * An AllergyIntolerance → an allergy entry and its line of the allergy details (issue 34,
 * docs/decisions/0053): `code` is the substance with its codings, the reactions' manifestations are
 * the reactions, the highest reaction severity is the severity, `criticality` is kept. A resource
 * named only by its reaction takes that as the substance.
 */
function allergyEntry(a: ResourceOf<'AllergyIntolerance'>, named: string | null, substance: string): AllergyValues {
  const seen = new Set<string>();
  const reactions: string[] = [];
  for (const r of a.reaction ?? []) {
    for (const m of r.manifestation) {
      const text = clip(ccText(m), 200);
      if (text && !seen.has(text.toLowerCase()) && (named !== null || text !== substance)) {
        seen.add(text.toLowerCase());
        reactions.push(text);
      }
    }
  }
  const severity = (a.reaction ?? []).reduce<AllergySeverity | null>(
    (best, r) => (r.severity && (best === null || SEVERITY_RANK[r.severity] > SEVERITY_RANK[best]) ? r.severity : best),
    null,
  );
  return {
    substance,
    reactions: reactions.slice(0, ALLERGY_REACTIONS_MAX),
    severity,
    criticality: a.criticality ?? null,
    codings: named ? codingsOf(a.code).slice(0, ALLERGY_CODINGS_PER_ENTRY) : [],
  };
}

/**
 * An AllergyIntolerance → an entry of the allergies (its line in the details), or a line of the
 * anesthesia reaction details. "None known", refuted, and one naming nothing (no code, no reaction)
 * add nothing and are reported as such.
 */
function planAllergy(
  index: number,
  a: ResourceOf<'AllergyIntolerance'>,
  tally: ImportTally,
  addText: (field: TextField, text: string | null, from: number, allergy?: AllergyValues) => void,
): void {
  if (hasCode(a.verificationStatus, ['entered-in-error', 'refuted'])) {
    tally.drop(index, 'entered in error or refuted');
    return;
  }
  const named = ccText(a.code);
  // DESIGN §12: "no known allergies" — coded, or written as "NKDA" (decision 0035) — is never a positive.
  const absent = absentReason(a.code) ?? (named !== null && saysNoAllergies(named) ? 'saying none are known (nothing to add)' : null);
  if (absent) {
    tally.drop(index, absent);
    return;
  }
  const text = named ?? ccText(a.reaction?.[0]?.manifestation[0]);
  if (!text) {
    tally.drop(index, 'without a code or text naming it');
    return;
  }
  const resolved = hasCode(a.clinicalStatus, ['inactive', 'resolved']) ? ' (resolved)' : '';
  const anesthesia = /^anesthesia reaction:\s*/i.exec(text);
  if (anesthesia) addText('anesthesia_reaction_details', `${text.slice(anesthesia[0].length)}${resolved}` || null, index);
  else {
    // The substance's codings stay with its entry; one read from the reaction has none of its own.
    const entry = allergyEntry(a, named, clip(`${text}${resolved}`, 200) ?? text);
    addText('allergy_details', allergyLine(entry), index, entry);
  }
}

/**
 * The medication's concept: its own, a contained Medication's, or the bundle's Medication it names.
 * That Medication fares as the statements naming it do, whatever becomes of them; one that says
 * "none known" is reported for that.
 */
function medicationOf(
  m: {
    medicationCodeableConcept?: CC | undefined;
    medicationReference?: Ref;
    contained?: { resourceType: string; id?: string | undefined }[] | undefined;
  },
  user: number,
  { tally, resolve, medicationsNamed }: PlanContext,
): CC | undefined {
  if (m.medicationCodeableConcept) return m.medicationCodeableConcept;
  const ref = m.medicationReference?.reference;
  if (ref?.startsWith('#')) return containedMedication(m.contained, ref)?.code;
  const found = resolve(ref, 'Medication');
  if (!found) return undefined;
  medicationsNamed.add(found.index);
  tally.use(found.index, user);
  const code = (found.resource as ResourceOf<'Medication'>).code;
  const absent = absentReason(code);
  if (absent) tally.drop(found.index, absent);
  return code;
}

/** Leaves the statement or request out when it says none are known; true when it does. */
function noneKnown(index: number, concept: CC | undefined, tally: ImportTally): boolean {
  const absent = absentReason(concept);
  if (absent) tally.drop(index, absent);
  return absent !== null;
}

/** reasonCode, else the Condition a reasonReference names in the bundle. */
function purposeOf(reasonCode: CC[] | undefined, reasonReference: Ref[] | undefined, resolve: Resolver): string | null {
  const code = ccText(reasonCode?.[0]);
  if (code) return code;
  for (const ref of reasonReference ?? []) {
    const condition = resolve(ref?.reference, 'Condition');
    const text = condition ? ccText((condition.resource as ResourceOf<'Condition'>).code) : clean(ref?.display);
    if (text) return text;
  }
  return null;
}

/**
 * The medication list keeps full dates (SPEC §5's date fields): a start or end given only to the
 * month or year is named in the report as a part left out, never silently lost.
 */
function startAndEnd(index: number, rawStart: string | undefined, rawEnd: string | undefined, tally: ImportTally) {
  const start = fullDate(rawStart);
  const end = fullDate(rawEnd);
  if ((rawStart && !start) || (rawEnd && !end)) {
    const what = 'start or end date without a day (the medication list keeps full dates)';
    tally.part(index, what, what);
  }
  return { start_date: start, end_date: start && end && end < start ? null : end };
}

/** A medication of the person, with its codings (DESIGN §12). */
function addMedication(
  plan: FhirPlan,
  index: number,
  concept: CC | undefined,
  ref: Ref,
  values: Omit<MedicationValues, 'medication_name'>,
): void {
  plan.medications.push({
    medication_name: ccText(concept) ?? clean(ref?.display),
    ...values,
    codings: codingsOf(concept),
    from: index,
  });
}

/** MedicationStatements → the person's medications. */
function planMedicationStatements(entries: Entry<'MedicationStatement'>[], ctx: PlanContext): void {
  const { tally } = ctx;
  for (const { index, resource: m } of entries) {
    const concept = medicationOf(m, index, ctx);
    if (ctx.forSomeoneElse(index, 'MedicationStatement', m.subject)) continue;
    if (m.status === 'entered-in-error' || m.status === 'not-taken') {
      tally.drop(index, `with status ${m.status}`);
      continue;
    }
    if (noneKnown(index, concept, tally)) continue;
    addMedication(ctx.plan, index, concept, m.medicationReference, {
      ...dosageOf(m.dosage?.[0]),
      purpose: purposeOf(m.reasonCode, m.reasonReference, ctx.resolve),
      ...startAndEnd(index, m.effectivePeriod?.start ?? m.effectiveDateTime, m.effectivePeriod?.end, tally),
      is_current: ['active', 'intended', 'on-hold'].includes(m.status),
    });
  }
}

/** MedicationRequests (prescriptions) → the person's medications. */
function planMedicationRequests(entries: Entry<'MedicationRequest'>[], ctx: PlanContext): void {
  const { tally } = ctx;
  for (const { index, resource: m } of entries) {
    const concept = medicationOf(m, index, ctx);
    if (ctx.forSomeoneElse(index, 'MedicationRequest', m.subject)) continue;
    if (m.status === 'entered-in-error' || m.status === 'cancelled' || m.status === 'draft') {
      tally.drop(index, `with status ${m.status}`);
      continue;
    }
    if (noneKnown(index, concept, tally)) continue;
    const instruction = m.dosageInstruction?.[0];
    const bounds = instruction?.timing?.repeat?.boundsPeriod;
    const validity = m.dispenseRequest?.validityPeriod;
    addMedication(ctx.plan, index, concept, m.medicationReference, {
      ...dosageOf(instruction),
      purpose: purposeOf(m.reasonCode, m.reasonReference, ctx.resolve),
      ...startAndEnd(index, m.authoredOn ?? validity?.start ?? bounds?.start, bounds?.end ?? validity?.end, tally),
      // The prescription's status says whether it is taken now: active (or on hold) is current.
      is_current: m.status === 'active' || m.status === 'on-hold',
    });
  }
}

/** A file's name: the first of `names` that says something once invisible characters are gone, at most 255 characters. */
function fileName(...names: (string | null | undefined)[]): string | null {
  for (const n of names) {
    const name = clip(stripInvisible(n ?? ''), 255);
    if (name) return name;
  }
  return null;
}

/** DocumentReference attachments with their bytes → record files of the person (DESIGN §6 rules apply when written). */
function planDocumentReferences(entries: Entry<'DocumentReference'>[], ctx: PlanContext): void {
  const { plan, tally } = ctx;
  entries.forEach(({ index, resource: d }, i) => {
    if (d.subject && ctx.forSomeoneElse(index, 'DocumentReference', d.subject)) return;
    if (d.status === 'entered-in-error') {
      tally.drop(index, 'entered in error');
      return;
    }
    for (const { attachment } of d.content) {
      if (!attachment.data) {
        tally.drop(index, 'without embedded data (only a link, which Kinchart does not fetch)');
        continue;
      }
      const name = fileName(attachment.title, d.description) ?? `Document ${i + 1}`;
      plan.documents.push({
        from: index,
        label: `DocumentReference "${name.slice(0, 80)}"`,
        display_name: name,
        data: Buffer.from(attachment.data.replace(/\s+/g, ''), 'base64'),
        record_date: fullDate(attachment.creation ?? d.context?.period?.start ?? d.date),
        provider_name: clean(d.author?.[0]?.display)?.slice(0, 200) ?? null,
        // A related reference typed Location names the place of the visit; the first other one, its reason.
        visit_location: clip(
          clean(d.context?.related?.find((r) => r.type === 'Location' || /(^|\/)Location\//.test(r.reference ?? ''))?.display),
          200,
        ),
        visit_reason:
          clean(d.context?.related?.find((r) => r.type !== 'Location' && !/(^|\/)Location\//.test(r.reference ?? ''))?.display)?.slice(
            0,
            1000,
          ) ?? null,
        created_at: d.date ? new Date(d.date).toISOString() : null,
      });
    }
  });
}

/** DiagnosticReports with an attached report → record files of the person, with the place and reason of the visit they came from. */
function planDiagnosticReports(entries: Entry<'DiagnosticReport'>[], ctx: PlanContext): void {
  const { plan, tally } = ctx;
  for (const { index, resource: r } of entries) {
    if (r.subject && ctx.forSomeoneElse(index, 'DiagnosticReport', r.subject)) continue;
    if (r.status === 'entered-in-error' || r.status === 'cancelled') {
      tally.drop(index, r.status === 'cancelled' ? 'cancelled' : 'entered in error');
      continue;
    }
    const attached = (r.presentedForm ?? []).filter((a) => !!a.data);
    if (attached.length === 0) {
      tally.drop(index, 'without an attached report (presentedForm with data)');
      continue;
    }
    // The visit it came from gives the file its place and reason (an Encounter has no document of its own).
    const encounter = ctx.resolve(r.encounter?.reference, 'Encounter');
    const visit = encounter?.resource as ResourceOf<'Encounter'> | undefined;
    if (encounter) {
      ctx.encountersUsed.add(encounter.index);
      tally.use(encounter.index, index);
    }
    const title = ccText(r.code);
    attached.forEach((a, n) => {
      const name = fileName(a.title, attached.length > 1 && title ? `${title} (${n + 1})` : title) ?? 'Diagnostic report';
      plan.documents.push({
        from: index,
        label: `DiagnosticReport "${name.slice(0, 80)}"`,
        display_name: name,
        data: Buffer.from(a.data!.replace(/\s+/g, ''), 'base64'),
        record_date: fullDate(r.effectiveDateTime ?? r.effectivePeriod?.start ?? r.issued ?? a.creation),
        provider_name: performerName(ctx, r.performer ?? [], index),
        visit_location: clip(clean(visit?.location?.[0]?.location.display) ?? clean(visit?.serviceProvider?.display), 200),
        visit_reason: clip(ccText(visit?.reasonCode?.[0]) ?? ccText(visit?.type?.[0]), 1000),
        created_at: r.issued ? new Date(r.issued).toISOString() : null,
      });
    });
  }
}
