import { BLOOD_TYPES, FLAG_OF_DETAIL, MAX_HEIGHT_CM, MAX_WEIGHT_KG, LB_PER_KG, type DetailField } from '@kinchart/shared/profile';
import { stripInvisible } from '@kinchart/shared/text';
import type { ContactValues, MedicationValues, ProviderValues } from '../profiles/profile.repository';
import type { ParsedEntry, ReadType, ResourceOf } from './fhir-bundle';
import { isAbsentOrUnknown } from './absent-unknown';
import { FhirValidationError, entriesOfType, isReadType } from './fhir-bundle';

// A validated FHIR R4 Bundle → the Kinchart records it maps to (decision 0004): Patient demographics,
// AllergyIntolerance, Condition, MedicationStatement, Appointment, DocumentReference with embedded
// data — plus what Kinchart's own IPS export writes (height, weight and blood group Observations,
// emergency contacts as Patient.contact, Practitioner/PractitionerRole), so an IPS bundle Kinchart
// wrote comes back as the same records. Free text stays free text; nothing is invented.

type CC = { text?: string | undefined; coding?: { system?: string | undefined; code?: string | undefined; display?: string | undefined }[] | undefined };
type Name = { text?: string | undefined; family?: string | undefined; given?: string[] | undefined; prefix?: string[] | undefined; suffix?: string[] | undefined; use?: string | undefined };
type Telecom = { system?: string | undefined; value?: string | undefined; rank?: number | undefined }[] | undefined;
type Addr = { text?: string | undefined; line?: string[] | undefined; city?: string | undefined; state?: string | undefined; postalCode?: string | undefined; country?: string | undefined };

export interface PlannedAppointment {
  appointment_date: string;
  start_time: string | null;
  end_time: string | null;
  provider_name: string;
  reason_for_visit: string | null;
  location: string | null;
}

export interface PlannedDocument {
  label: string;
  display_name: string;
  data: Buffer;
  record_date: string | null;
  provider_name: string | null;
  visit_reason: string | null;
  created_at: string | null;
}

export type TextField = DetailField;
export type FlagField =
  | 'has_allergies'
  | 'had_anesthesia_reactions'
  | 'has_chronic_conditions'
  | 'has_bleeding_disorders'
  | 'has_previous_surgeries'
  | 'has_mobility_issues'
  | 'has_vision_impairment'
  | 'has_hearing_impairment';

/** Each details field's flag (one list in packages/shared). */
export const FLAG_OF: Record<TextField, FlagField> = FLAG_OF_DETAIL;

export interface FhirPlan {
  /** Demographics and measurements to set (only what the bundle says). */
  fields: Partial<{ name: string; date_of_birth: string; phone_number: string; email: string; address: string; primary_language: string; blood_type: string; height: number; weight: number }>;
  isPet: boolean;
  /** Lines to add to the details texts (each also sets its flag). */
  texts: Record<TextField, string[]>;
  flags: Set<FlagField>;
  contacts: ContactValues[];
  providers: ProviderValues[];
  medications: MedicationValues[];
  appointments: PlannedAppointment[];
  documents: PlannedDocument[];
  allergies: number;
  conditions: number;
  skipped: string[];
}

const clean = (s: string | undefined | null): string | null => (s && s.trim() ? s.trim() : null);

export function ccText(cc: CC | undefined): string | null {
  if (!cc) return null;
  return clean(cc.text) ?? clean(cc.coding?.find((c) => clean(c.display))?.display) ?? clean(cc.coding?.find((c) => clean(c.code))?.code);
}

function nameText(n: Name | undefined): string | null {
  if (!n) return null;
  return clean(n.text) ?? clean([...(n.prefix ?? []), ...(n.given ?? []), n.family ?? '', ...(n.suffix ?? [])].filter(Boolean).join(' '));
}

function bestName(names: Name[] | undefined): string | null {
  if (!names?.length) return null;
  const preferred = names.find((n) => n.use === 'official') ?? names.find((n) => n.use === 'usual') ?? names[0];
  return nameText(preferred);
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

const hasCode = (cc: CC | undefined, codes: string[]) => !!cc?.coding?.some((c) => c.code && codes.includes(c.code));
const fullDate = (v: string | undefined): string | null => (v && /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : null);
const DETAILS_NOT_PROVIDED = /^(.*\(details not provided\)|details not provided)$/i;

// SNOMED CT blood group concepts (IPS value set) → Kinchart's blood types.
const SNOMED_BLOOD: Record<string, string> = {
  '278149003': 'A+',
  '278152006': 'A-',
  '278150003': 'B+',
  '278153001': 'B-',
  '278151004': 'AB+',
  '278154007': 'AB-',
  '278147001': 'O+',
  '278148006': 'O-',
};

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

/** "2 Condition for another patient" — one line per kind of thing left out. */
function tally(): { add(what: string): void; lines(): string[] } {
  const counts = new Map<string, number>();
  return {
    add: (what) => counts.set(what, (counts.get(what) ?? 0) + 1),
    lines: () => [...counts].map(([what, n]) => `${n} ${what}`),
  };
}

export function planFromBundle(entries: ParsedEntry[], target: { isSelf: boolean }): FhirPlan {
  const skipped = tally();
  const byType = <T extends ReadType>(type: T) => entriesOfType(entries, type);

  // Whose bundle is it? The Composition's subject, else the only Patient.
  const patients = byType('Patient');
  const composition = byType('Composition')[0]?.resource;
  const refersTo = (entry: { fullUrl: string | undefined; resource: { id?: string | undefined } }, ref: string) =>
    ref === entry.fullUrl || (!!entry.resource.id && (ref === `Patient/${entry.resource.id}` || ref.endsWith(`/Patient/${entry.resource.id}`)));
  let patient = patients.length === 1 ? patients[0] : undefined;
  if (patients.length > 1) {
    const subject = composition?.subject?.reference;
    patient = subject ? patients.find((p) => refersTo(p, subject)) : undefined;
    if (!patient) throw new FhirValidationError("The bundle holds more than one Patient; import one person's bundle at a time.");
  }
  /**
   * Whether a resource is about the chosen patient. With one Patient (or none) in the bundle, every
   * resource is theirs — references in third-party bundles often do not resolve inside the bundle.
   * With several, only what points at the chosen one.
   */
  const isAboutPatient = (ref: { reference?: string | undefined } | undefined) =>
    !patient || patients.length <= 1 || (!!ref?.reference && refersTo(patient, ref.reference));
  const isPatientRef = (ref: string | undefined) => !!ref && (/(^|\/)Patient\/[^/]+$/.test(ref) || patients.some((p) => refersTo(p, ref)));

  const plan: FhirPlan = {
    fields: {},
    isPet: false,
    texts: { allergy_details: [], anesthesia_reaction_details: [], chronic_condition_details: [], bleeding_disorder_details: [], surgery_details: [], mobility_details: [] },
    flags: new Set(),
    contacts: [],
    providers: [],
    medications: [],
    appointments: [],
    documents: [],
    allergies: 0,
    conditions: 0,
    skipped: [],
  };
  const addText = (field: TextField, text: string | null) => {
    plan.flags.add(FLAG_OF[field]);
    if (text && !DETAILS_NOT_PROVIDED.test(text)) plan.texts[field].push(text);
  };

  if (patient) {
    const p = patient.resource;
    const name = bestName(p.name);
    if (name) plan.fields.name = name;
    if (p.birthDate) {
      if (fullDate(p.birthDate)) plan.fields.date_of_birth = p.birthDate;
      else skipped.add('birth date without a day (Kinchart keeps full dates)');
    }
    const phone = telecomOf(p.telecom, 'phone');
    if (phone) plan.fields.phone_number = phone.value;
    const email = telecomOf(p.telecom, 'email');
    if (email) plan.fields.email = email.value;
    const addr = addressText(p.address?.[0]);
    if (addr) plan.fields.address = addr;
    const language = ccText((p.communication?.find((c) => c.preferred) ?? p.communication?.[0])?.language);
    if (language) plan.fields.primary_language = language;
    if (p.extension?.some((e) => e.url === 'http://hl7.org/fhir/StructureDefinition/patient-animal')) {
      if (target.isSelf) skipped.add('animal Patient (your own profile cannot be a pet; import it into a family member)');
      else plan.isPet = true;
    }
    for (const c of p.contact ?? []) {
      const contactName = nameText(c.name);
      if (!contactName) {
        skipped.add('Patient.contact without a name');
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
      });
    }
  }
  if (patients.length > 1) skipped.add('other Patient (not the subject of this summary)');

  for (const { resource: a } of byType('AllergyIntolerance')) {
    if (!isAboutPatient(a.patient)) {
      skipped.add('AllergyIntolerance for another patient');
      continue;
    }
    if (hasCode(a.verificationStatus, ['entered-in-error', 'refuted'])) {
      skipped.add('AllergyIntolerance entered in error or refuted');
      continue;
    }
    if (isAbsentOrUnknown(a.code)) {
      skipped.add('AllergyIntolerance saying none are known (nothing to add)');
      continue;
    }
    const text = ccText(a.code) ?? ccText(a.reaction?.[0]?.manifestation[0]);
    const resolved = hasCode(a.clinicalStatus, ['inactive', 'resolved']) ? ' (resolved)' : '';
    const anesthesia = text ? /^anesthesia reaction:\s*/i.exec(text) : null;
    if (anesthesia && text) addText('anesthesia_reaction_details', `${text.slice(anesthesia[0].length)}${resolved}` || null);
    else addText('allergy_details', text ? `${text}${resolved}` : null);
    plan.allergies += 1;
  }

  for (const { resource: c } of byType('Condition')) {
    if (!isAboutPatient(c.subject)) {
      skipped.add('Condition for another patient');
      continue;
    }
    if (hasCode(c.verificationStatus, ['entered-in-error', 'refuted'])) {
      skipped.add('Condition entered in error or refuted');
      continue;
    }
    if (isAbsentOrUnknown(c.code)) {
      skipped.add('Condition saying none are known (nothing to add)');
      continue;
    }
    const text = ccText(c.code);
    plan.conditions += 1;
    const prefixed = (re: RegExp) => (text ? re.exec(text) : null);
    let m: RegExpExecArray | null;
    if ((m = prefixed(/^bleeding disorder:\s*/i))) addText('bleeding_disorder_details', text!.slice(m[0].length));
    else if ((m = prefixed(/^mobility issue:\s*/i))) addText('mobility_details', text!.slice(m[0].length));
    else if ((m = prefixed(/^history of surgery:\s*/i))) addText('surgery_details', text!.slice(m[0].length));
    else if (text && /^vision impairment$/i.test(text)) plan.flags.add('has_vision_impairment');
    else if (text && /^hearing impairment$/i.test(text)) plan.flags.add('has_hearing_impairment');
    else {
      const resolved = hasCode(c.clinicalStatus, ['inactive', 'resolved', 'remission']) ? ' (resolved)' : '';
      addText('chronic_condition_details', text ? `${text}${resolved}` : null);
    }
  }

  const medicationsById = new Map<string, ResourceOf<'Medication'>>();
  for (const { fullUrl, resource } of byType('Medication')) {
    if (fullUrl) medicationsById.set(fullUrl, resource);
    if (resource.id) medicationsById.set(`Medication/${resource.id}`, resource);
  }
  for (const { resource: m } of byType('MedicationStatement')) {
    if (!isAboutPatient(m.subject)) {
      skipped.add('MedicationStatement for another patient');
      continue;
    }
    if (m.status === 'entered-in-error' || m.status === 'not-taken') {
      skipped.add(`MedicationStatement with status ${m.status}`);
      continue;
    }
    if (isAbsentOrUnknown(m.medicationCodeableConcept)) {
      skipped.add('MedicationStatement saying none are known (nothing to add)');
      continue;
    }
    const name =
      ccText(m.medicationCodeableConcept) ??
      (m.medicationReference?.reference ? ccText(medicationsById.get(m.medicationReference.reference)?.code) : null) ??
      clean(m.medicationReference?.display);
    const frequency = ccText(m.dosage?.[0]?.timing?.code);
    let dosage = clean(m.dosage?.[0]?.text);
    // Kinchart's own export writes "dose, frequency" as the text and the frequency as timing.code.
    if (dosage && frequency && dosage.endsWith(`, ${frequency}`)) dosage = dosage.slice(0, -`, ${frequency}`.length) || null;
    else if (dosage && frequency && dosage === frequency) dosage = null;
    plan.medications.push({
      medication_name: name,
      dosage,
      frequency,
      purpose: ccText(m.reasonCode?.[0]),
      start_date: fullDate(m.effectivePeriod?.start ?? m.effectiveDateTime),
      end_date: fullDate(m.effectivePeriod?.end),
      is_current: ['active', 'intended', 'on-hold'].includes(m.status),
    });
  }

  for (const { resource: o } of byType('Observation')) {
    if (!isAboutPatient(o.subject) || o.status === 'entered-in-error' || o.status === 'cancelled') continue;
    if (hasCode(o.code, ['8302-2', '8306-3', '3137-7'])) {
      const cm = o.valueQuantity ? heightCm(o.valueQuantity) : null;
      if (cm !== null) plan.fields.height = cm;
      else skipped.add('body height in a unit or range Kinchart cannot use');
    } else if (hasCode(o.code, ['29463-7', '3141-9'])) {
      const kg = o.valueQuantity ? weightKg(o.valueQuantity) : null;
      if (kg !== null) plan.fields.weight = kg;
      else skipped.add('body weight in a unit or range Kinchart cannot use');
    } else if (hasCode(o.code, ['882-1', '883-9'])) {
      const type = bloodType(o.valueCodeableConcept, o.valueString);
      if (type) plan.fields.blood_type = type;
      else skipped.add('blood group Kinchart cannot read');
    } else skipped.add('Observation other than height, weight or blood group');
  }

  const compositionAuthors = new Set((composition?.author ?? []).map((a) => a.reference).filter(Boolean));
  const roles = byType('PractitionerRole').map((r) => r.resource);
  for (const { fullUrl, resource: pr } of byType('Practitioner')) {
    const refs = [fullUrl, pr.id ? `Practitioner/${pr.id}` : undefined].filter((x): x is string => !!x);
    if (refs.some((r) => compositionAuthors.has(r))) continue; // the summary's author, not the patient's provider
    const name = bestName(pr.name);
    if (!name) {
      skipped.add('Practitioner without a name');
      continue;
    }
    const role = roles.find((r) => !!r.practitioner?.reference && refs.includes(r.practitioner.reference));
    const notes = ccText(role?.code?.[0]);
    plan.providers.push({
      provider_name: name,
      specialty: ccText(role?.specialty?.[0]),
      facility: null,
      phone_number: telecomOf(pr.telecom, 'phone')?.value ?? telecomOf(role?.telecom, 'phone')?.value ?? null,
      email: telecomOf(pr.telecom, 'email')?.value ?? null,
      address: addressText(pr.address?.[0]),
      is_primary: !!notes && /primary care provider/i.test(notes),
      notes,
    });
  }

  for (const { resource: a } of byType('Appointment')) {
    const patientActors = a.participant.map((p) => p.actor).filter((actor) => isPatientRef(actor?.reference));
    if (patientActors.length > 0 && !patientActors.some((actor) => isAboutPatient(actor))) {
      skipped.add('Appointment for another patient');
      continue;
    }
    if (a.status === 'cancelled' || a.status === 'entered-in-error' || a.status === 'noshow') {
      skipped.add(`Appointment with status ${a.status}`);
      continue;
    }
    if (!a.start) {
      skipped.add('Appointment without a start time');
      continue;
    }
    const provider = a.participant.map((p) => p.actor).find((actor) => actor && !isPatientRef(actor.reference) && clean(actor.display))?.display ?? null;
    const reason = ccText(a.reasonCode?.[0]);
    const description = clean(a.description);
    const location = a.comment && /^location:\s*/i.test(a.comment) ? clean(a.comment.replace(/^location:\s*/i, '')) : null;
    const start = new Date(a.start).toISOString();
    plan.appointments.push({
      // The calendar date where the appointment happens (the instant's own offset), not in UTC.
      appointment_date: a.start.slice(0, 10),
      start_time: start,
      end_time: a.end ? new Date(a.end).toISOString() : null,
      provider_name: (clean(provider) ?? (description && reason ? description.replace(` - ${reason}`, '') : description) ?? 'Healthcare provider').slice(0, 200),
      reason_for_visit: reason,
      location,
    });
  }

  byType('DocumentReference').forEach(({ resource: d }, i) => {
    if (d.subject && !isAboutPatient(d.subject)) {
      skipped.add('DocumentReference for another patient');
      return;
    }
    if (d.status === 'entered-in-error') {
      skipped.add('DocumentReference entered in error');
      return;
    }
    for (const { attachment } of d.content) {
      if (!attachment.data) {
        skipped.add('DocumentReference without embedded data (only a link, which Kinchart does not fetch)');
        continue;
      }
      const name = clean(stripInvisible(attachment.title ?? '')) ?? clean(stripInvisible(d.description ?? '')) ?? `Document ${i + 1}`;
      plan.documents.push({
        label: `DocumentReference "${name.slice(0, 80)}"`,
        display_name: name.slice(0, 255),
        data: Buffer.from(attachment.data.replace(/\s+/g, ''), 'base64'),
        record_date: fullDate(attachment.creation ?? d.context?.period?.start ?? d.date),
        provider_name: clean(d.author?.[0]?.display)?.slice(0, 200) ?? null,
        visit_reason: clean(d.context?.related?.[0]?.display)?.slice(0, 1000) ?? null,
        created_at: d.date ? new Date(d.date).toISOString() : null,
      });
    }
  });

  for (const e of entries) if (!isReadType(e.resource.resourceType)) skipped.add(`${e.resource.resourceType} (not something Kinchart keeps)`);
  plan.skipped = skipped.lines();
  return plan;
}
