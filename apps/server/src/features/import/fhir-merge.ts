import type { z } from 'zod';
import { appointmentValuesOf } from '@kinchart/shared/appointments';
import { appointmentInputSchema } from '@kinchart/shared/appointments';
import type { Coding } from '@kinchart/shared/clinical';
import { CLINICAL_CAP, CLINICAL_LABELS } from '@kinchart/shared/clinical';
import {
  DETAILS_MAX,
  LIST_CAPS,
  emergencyContactRecordSchema,
  healthcareProviderInputSchema,
  medicationInputSchema,
  profileFieldsSchema,
} from '@kinchart/shared/profile';
import type { AllergyValues } from '../allergies/allergy-entries';
import { isKnownAllergy } from '../allergies/allergy-entries';
import type { ClinicalTable } from '../clinical/clinical-kinds';
import { KINDS, parseCodings } from '../clinical/clinical-kinds';
import { newId } from '../../lib/ids';
import type { StoredImportFile } from './blob-writer';
import type { FhirPlan, FlagField, PlanFields, PlannedAppointment, PlannedDocument, Sourced } from './fhir-plan';
import { FLAG_OF } from './fhir-plan';
import type { ImportTally } from './import-report';
import type { ListValues, NewAppointment, NewImportedFile, NewListRow, ProfileChange, ProfileState } from './import.repository';
import type { ListTable } from './kinchart-match';
import { identity, keyOf } from './kinchart-match';

// A FHIR plan (fhir-plan.ts) merged into one person (decision 0004, DESIGN §12, decision 0022):
// only what Kinchart's own rules accept is kept, each item checked on its own; demographics the
// bundle states are set; allergy and condition texts are added as new lines (a line already there
// is not repeated), an allergy line with its entry (issue 34, docs/decisions/0053); contacts,
// providers, medications, appointments, documents and clinical items are added unless the same one
// is already there (the identity keys of kinchart-match.ts, decision 0012, and `clinicalKeys`
// below) — so importing one bundle twice changes nothing the second time.
// A list that is full takes what fits; the rest is left out and said so. Every outcome is told to
// the plan's tally by the entry it came from. import.service.ts reads and writes in one transaction.

/** The four clinical tables, in the order an import writes them. */
export const CLINICAL_TABLES: readonly ClinicalTable[] = KINDS.map((k) => k.table);

/** A clinical item ready to write: its kind's columns and codings, and the keys it is recognised by. */
export interface ClinicalItem extends Sourced {
  table: ClinicalTable;
  columns: Record<string, unknown>;
  codings: Coding[];
  keys: string[];
  component: boolean;
}

export type SanitizedPlan = Omit<FhirPlan, 'clinical'> & { clinical: ClinicalItem[] };

const firstMessage = (error: z.ZodError) => error.issues[0]?.message ?? 'not valid';

/** What identifies a clinical item on re-import: its codes and date (and value), or its name and date (and value). */
export function clinicalKeys(
  table: ClinicalTable,
  item: { name: string | null; date: string | null; value: string | null; codings: readonly Coding[] },
): string[] {
  const codes = item.codings
    .filter((c) => c.code)
    .map((c) => `${c.system ?? ''}|${c.code}`)
    .sort();
  const keys = [identity(table, 'name', item.name, item.date, item.value)];
  if (codes.length > 0) keys.push(identity(table, 'codes', codes.join(' '), item.date, item.value));
  return keys;
}

/** The name, date and value a clinical row is recognised by, whatever its kind. */
export function clinicalIdentity(
  table: ClinicalTable,
  row: Record<string, unknown>,
): { name: string | null; date: string | null; value: string | null } {
  const text = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);
  switch (table) {
    case 'immunizations':
      return { name: text(row.vaccine), date: text(row.date), value: null };
    case 'lab_results':
      return {
        name: text(row.name),
        date: text(row.date),
        value: row.value !== null && row.value !== undefined ? String(Number(row.value)) : text(row.value_text),
      };
    case 'conditions':
      return { name: text(row.name), date: text(row.onset_date), value: null };
    case 'procedures':
      return { name: text(row.name), date: text(row.performed_date), value: null };
  }
}

/** Keeps only what Kinchart's own rules accept; anything else is left out and the tally hears why. */
export function sanitizePlan(plan: FhirPlan): SanitizedPlan {
  const { tally } = plan;
  const fields: PlanFields = {};
  const fieldFrom: FhirPlan['fieldFrom'] = {};
  for (const [key, value] of Object.entries(plan.fields) as [keyof PlanFields, string | number][]) {
    const parsed = profileFieldsSchema.shape[key].safeParse(value);
    const from = plan.fieldFrom[key] ?? -1;
    if (parsed.success && parsed.data !== null) {
      (fields as Record<string, unknown>)[key] = parsed.data;
      fieldFrom[key] = from;
    } else {
      const why = `${key.replace(/_/g, ' ')} (${parsed.success ? 'empty' : firstMessage(parsed.error)})`;
      tally.part(from, why, `Patient ${why}`);
    }
  }
  /** The items `schema` accepts, with their source; each other one is left out (`asPart`: only that part of its resource). */
  const keep = <S extends z.ZodType, T extends Sourced>(schema: S, items: T[], what: string, asPart = false): (z.output<S> & Sourced)[] =>
    items.flatMap((item) => {
      const parsed = schema.safeParse(item);
      if (parsed.success) return [{ ...(parsed.data as object), from: item.from } as z.output<S> & Sourced];
      const message = firstMessage(parsed.error);
      if (asPart) tally.part(item.from, `${what} (${message})`, `${what} (${message})`);
      else tally.drop(item.from, `not kept (${message})`, `${tally.typeOf(item.from)} (${message})`);
      return [];
    });

  const clinical: ClinicalItem[] = [];
  for (const candidate of plan.clinical) {
    const spec = KINDS.find((k) => k.table === candidate.table)!;
    const parsed = spec.input.safeParse(candidate.input);
    if (!parsed.success) {
      const why = `${CLINICAL_LABELS[spec.kind].one.toLowerCase()} not kept (${firstMessage(parsed.error)})`;
      if (candidate.component) tally.part(candidate.from, why);
      else tally.drop(candidate.from, why);
      continue;
    }
    const columns = spec.columns(parsed.data);
    const codings = (parsed.data as { codings?: Coding[] }).codings ?? [];
    clinical.push({
      from: candidate.from,
      table: candidate.table,
      columns,
      codings,
      keys: clinicalKeys(candidate.table, { ...clinicalIdentity(candidate.table, columns), codings }),
      component: candidate.component,
    });
  }

  return {
    ...plan,
    fields,
    fieldFrom,
    // Only the record's own values: the input schemas also carry client ids, which must not reach a row.
    contacts: keep(emergencyContactRecordSchema, plan.contacts, 'emergency contact', true).map((c) => ({
      name: c.name,
      relationship: c.relationship,
      phone_number: c.phone_number,
      email: c.email,
      is_primary: c.is_primary,
      has_medical_power: c.has_medical_power,
      from: c.from,
    })),
    providers: keep(healthcareProviderInputSchema, plan.providers, 'healthcare provider').map((h) => ({
      provider_name: h.provider_name,
      specialty: h.specialty,
      facility: h.facility,
      phone_number: h.phone_number,
      email: h.email,
      address: h.address,
      is_primary: h.is_primary,
      notes: h.notes,
      from: h.from,
    })),
    medications: plan.medications.flatMap((m) =>
      keep(medicationInputSchema, [m], 'medication').map((v) => ({
        medication_name: v.medication_name,
        dosage: v.dosage,
        frequency: v.frequency,
        purpose: v.purpose,
        start_date: v.start_date,
        end_date: v.end_date,
        is_current: v.is_current,
        codings: m.codings,
        from: m.from,
      })),
    ),
    appointments: keep(appointmentInputSchema, plan.appointments, 'appointment').map((a) => ({ ...appointmentValuesOf(a), from: a.from })),
    clinical,
  };
}

/** The items whose key `seen` does not hold yet, each once (`seen` takes their keys); the others are `present`. */
function split<T>(items: T[], seen: Set<string>, keys: (item: T) => string[]): { fresh: T[]; present: T[] } {
  const fresh: T[] = [];
  const present: T[] = [];
  for (const item of items) {
    const k = keys(item);
    if (k.some((x) => seen.has(x))) present.push(item);
    else fresh.push(item);
    for (const x of k) seen.add(x);
  }
  return { fresh, present };
}

const fileKey = (name: string, size: number): string => `${name}\u0000${size}`;

/** The documents the account does not hold yet (a file of the same name and size is the same one), and the others. */
export function splitDocuments(
  documents: PlannedDocument[],
  have: { display_name: string; size: number }[],
): { fresh: PlannedDocument[]; present: PlannedDocument[] } {
  return split(documents, new Set(have.map((f) => fileKey(f.display_name, f.size))), (d) => [fileKey(d.display_name, d.data.length)]);
}

const same = (a: unknown, b: unknown) => (typeof a === 'number' || typeof b === 'number' ? Number(a) === Number(b) : a === b);

/**
 * What the plan sets on a profile whose state is `current`; tells the tally which entries merged
 * something and which found it there. A details text takes the new lines that fit in DETAILS_MAX;
 * a line that does not fit is left out and said so.
 */
export function profileChange(plan: SanitizedPlan, current: ProfileState, now: string): ProfileChange {
  const { tally } = plan;
  const change: ProfileChange = { updated_at: now };
  for (const [key, value] of Object.entries(plan.fields) as [keyof PlanFields, string | number][]) {
    const from = plan.fieldFrom[key] ?? -1;
    if (same(current[key], value)) tally.record(from, 'already_present');
    else {
      (change as Record<string, unknown>)[key] = value;
      tally.record(from, 'merged');
    }
  }
  if (plan.patient !== null) {
    const patient = plan.patient;
    const saysSomething = Object.values(plan.fieldFrom).includes(patient) || plan.contacts.some((c) => c.from === patient) || plan.isPet;
    if (saysSomething) tally.record(patient, 'already_present');
    else tally.drop(patient, 'with nothing Kinchart keeps (no name, birth date, contact details or language)');
  }
  if (plan.isPet && !current.is_pet && plan.patient !== null) {
    change.is_pet = true;
    tally.record(plan.patient, 'merged');
  }

  const raised = new Set<FlagField>();
  const raise = (flag: FlagField) => {
    if (current[flag] || raised.has(flag)) return false;
    change[flag] = true;
    raised.add(flag);
    return true;
  };
  for (const { flag, from } of plan.flags) tally.record(from, raise(flag) ? 'merged' : 'already_present');

  const allergies: AllergyValues[] = [...current.allergies];
  const incoming = new Map<string, AllergyValues>();
  const fields = [...new Set(plan.texts.map((t) => t.field))];
  for (const field of fields) {
    let text = current[field] ?? '';
    const flagRaised = raise(FLAG_OF[field]);
    const added = new Set<string>();
    for (const t of plan.texts.filter((x) => x.field === field)) {
      const line = t.text?.trim() ?? '';
      // Issue 34: an allergy is there when an entry has its substance or one of its codes, whatever its line says now.
      const there =
        line === '' ||
        text.toLowerCase().includes(line.toLowerCase()) ||
        added.has(line.toLowerCase()) ||
        (t.allergy !== null && isKnownAllergy(t.allergy, allergies));
      if (there) {
        tally.record(t.from, flagRaised ? 'merged' : 'already_present');
        continue;
      }
      const next = text ? `${text}\n${line}` : line;
      if (next.length > DETAILS_MAX) {
        tally.drop(t.from, `not kept (${field.replace(/_/g, ' ')} would pass ${DETAILS_MAX} characters)`);
        continue;
      }
      text = next;
      added.add(line.toLowerCase());
      if (t.allergy) {
        allergies.push(t.allergy);
        incoming.set(line, t.allergy);
      }
      tally.record(t.from, 'merged');
    }
    if (added.size > 0) change[field] = text;
  }
  // Issue 34 (docs/decisions/0053): each new allergy line becomes its resource's entry (reactions,
  // severity, criticality, codings); the person's other entries follow their lines as ever.
  if (incoming.size > 0) change.incomingAllergies = incoming;
  return change;
}

/**
 * What of `items` one profile's list (`rows`) lacks, placed after its rows; a list that would pass
 * its cap takes what fits and the tally hears about the rest. `present` are the items already there.
 */
export function listAdditions<T extends ListTable, K>(
  table: T,
  profileId: string,
  items: NoInfer<ListValues[T] & K & Sourced>[],
  rows: NoInfer<K & { position: number }>[],
  key: (item: K) => string,
  now: string,
  tally: ImportTally,
): { rows: NewListRow<T>[]; fresh: NoInfer<ListValues[T] & K & Sourced>[]; present: NoInfer<ListValues[T] & K & Sourced>[] } {
  const { fresh, present } = split(items, new Set(rows.map(key)), (item) => [key(item)]);
  const room = Math.max(0, LIST_CAPS[table] - rows.length);
  for (const item of fresh.slice(room))
    tally.drop(item.from, `not kept (the profile already has ${LIST_CAPS[table]} ${table.replace(/_/g, ' ')}, the most it may have)`);
  const kept = fresh.slice(0, room);
  let position = rows.reduce((max, r) => Math.max(max, r.position + 1), 0);
  return {
    rows: kept.map((values) => ({ profileId, values, position: position++, created_at: now })),
    fresh: kept,
    present,
  };
}

/**
 * The appointments the person (`profileId`) does not hold yet, each once, with calendar UIDs of their
 * own; `have` are the person's (DESIGN §4: an appointment belongs to one person).
 */
export function newAppointments(
  planned: (PlannedAppointment & Sourced)[],
  profileId: string,
  have: Parameters<typeof keyOf.appointment>[0][],
  now: string,
): { rows: NewAppointment[]; fresh: Sourced[]; present: Sourced[] } {
  const key = (a: PlannedAppointment) => keyOf.appointment({ ...a, profile_id: profileId });
  const { fresh, present } = split(planned, new Set(have.map(keyOf.appointment)), (a) => [key(a)]);
  return {
    rows: fresh.map((a) => ({ profile_id: profileId, ...appointmentValuesOf(a), uid: newId(), created_at: now })),
    fresh,
    present,
  };
}

/**
 * The clinical items of one kind the person lacks (`have` are their rows), each once, up to
 * CLINICAL_CAP with the `count` they hold; the rest is left out and said so.
 */
export function clinicalAdditions(
  table: ClinicalTable,
  items: ClinicalItem[],
  have: Record<string, unknown>[],
  count: number,
  tally: ImportTally,
): { fresh: ClinicalItem[]; present: ClinicalItem[] } {
  const seen = new Set(
    have.flatMap((row) => clinicalKeys(table, { ...clinicalIdentity(table, row), codings: parseCodings(row.codings as string | null) })),
  );
  const { fresh, present } = split(items, seen, (item) => item.keys);
  const room = Math.max(0, CLINICAL_CAP - count);
  const label = CLINICAL_LABELS[KINDS.find((k) => k.table === table)!.kind].many.toLowerCase();
  for (const item of fresh.slice(room)) {
    const why = `not kept (the person already has ${CLINICAL_CAP} ${label}, the most Kinchart keeps)`;
    if (item.component) tally.part(item.from, why);
    else tally.drop(item.from, why);
  }
  return { fresh: fresh.slice(0, room), present };
}

/** The rows of the documents whose blobs were written, filed under the profile. */
export function documentRows(
  documents: { stored: StoredImportFile; doc: PlannedDocument }[],
  profileId: string,
  now: string,
): NewImportedFile[] {
  return documents.map(({ stored, doc }) => ({
    id: stored.id,
    profile_id: profileId,
    display_name: doc.display_name,
    original_name: doc.display_name,
    file_type: stored.mime,
    size: stored.size,
    storage_key: stored.id,
    wrapped_key: stored.wrappedKey,
    record_date: doc.record_date ?? doc.created_at ?? now,
    provider_name: doc.provider_name,
    visit_location: doc.visit_location,
    visit_reason: doc.visit_reason,
    created_at: now,
    updated_at: now,
  }));
}
