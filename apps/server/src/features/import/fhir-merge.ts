import type { z } from 'zod';
import { appointmentValuesOf } from '@kinchart/shared/appointments';
import { appointmentInputSchema } from '@kinchart/shared/appointments';
import {
  DETAILS_MAX,
  LIST_CAPS,
  emergencyContactRecordSchema,
  healthcareProviderInputSchema,
  medicationInputSchema,
  profileFieldsSchema,
} from '@kinchart/shared/profile';
import { HttpError, badRequest } from '../../lib/http-errors';
import { newId } from '../../lib/ids';
import type { StoredImportFile } from './blob-writer';
import type { FhirPlan, PlannedAppointment, PlannedDocument, TextField } from './fhir-plan';
import { FLAG_OF } from './fhir-plan';
import type { ListValues, NewAppointment, NewImportedFile, NewListRow, ProfileChange } from './import.repository';
import type { ListTable } from './kinchart-match';
import { keyOf } from './kinchart-match';

// A FHIR plan (fhir-plan.ts) merged into one profile (decision 0004): only what Kinchart's own rules
// accept is kept; demographics the bundle states are set; allergy and condition texts are added as
// new lines (a line already there is not repeated); contacts, providers, medications, appointments
// and documents are added unless the same one is already there (the identity keys of
// kinchart-match.ts, decision 0012) — so importing one bundle twice changes nothing the second
// time. import.service.ts reads the profile and has the outcome written.

/** Keeps only what Kinchart's own rules accept; anything else is left out and said so. */
export function sanitizePlan(plan: FhirPlan): FhirPlan {
  const skipped = [...plan.skipped];
  const fields: FhirPlan['fields'] = {};
  for (const [key, value] of Object.entries(plan.fields) as [keyof FhirPlan['fields'], string | number][]) {
    const parsed = profileFieldsSchema.shape[key].safeParse(value);
    if (parsed.success && parsed.data !== null) (fields as Record<string, unknown>)[key] = parsed.data;
    else skipped.push(`Patient ${key.replace(/_/g, ' ')} (${parsed.success ? 'empty' : (parsed.error.issues[0]?.message ?? 'not valid')})`);
  }
  const keep = <S extends z.ZodType>(schema: S, items: unknown[], what: string): z.output<S>[] =>
    items.flatMap((item) => {
      const parsed = schema.safeParse(item);
      if (parsed.success) return [parsed.data];
      skipped.push(`${what} (${parsed.error.issues[0]?.message ?? 'not valid'})`);
      return [];
    });
  return {
    ...plan,
    fields,
    // Only the record's own values: the input schemas also carry client ids, which must not reach a row.
    contacts: keep(emergencyContactRecordSchema, plan.contacts, 'emergency contact').map((c) => ({
      name: c.name,
      relationship: c.relationship,
      phone_number: c.phone_number,
      email: c.email,
      is_primary: c.is_primary,
      has_medical_power: c.has_medical_power,
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
    })),
    medications: keep(medicationInputSchema, plan.medications, 'MedicationStatement').map((m) => ({
      medication_name: m.medication_name,
      dosage: m.dosage,
      frequency: m.frequency,
      purpose: m.purpose,
      start_date: m.start_date,
      end_date: m.end_date,
      is_current: m.is_current,
    })),
    appointments: keep(appointmentInputSchema, plan.appointments, 'Appointment'),
    skipped,
  };
}

/** The items whose key `seen` does not hold yet, each once (`seen` takes their keys). */
function unseen<T>(items: T[], seen: Set<string>, key: (item: T) => string): T[] {
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

const fileKey = (name: string, size: number): string => `${name}\u0000${size}`;

/** The documents the account does not hold yet: a file of the same name and size is the same one. */
export function newDocuments(documents: PlannedDocument[], have: { display_name: string; size: number }[]): PlannedDocument[] {
  return unseen(documents, new Set(have.map((f) => fileKey(f.display_name, f.size))), (d) => fileKey(d.display_name, d.data.length));
}

/** What the plan sets on a profile whose details texts are `current` (400 when one grows past DETAILS_MAX). */
export function profileChange(plan: FhirPlan, current: Record<TextField, string | null>, now: string): ProfileChange {
  const change: ProfileChange = { ...plan.fields, updated_at: now };
  if (plan.isPet) change.is_pet = true;
  for (const flag of plan.flags) change[flag] = true;
  for (const [field, lines] of Object.entries(plan.texts) as [TextField, string[]][]) {
    const text = current[field];
    const fresh = lines.filter((l) => !(text ?? '').toLowerCase().includes(l.trim().toLowerCase()));
    if (fresh.length === 0) continue;
    const next = [text, ...[...new Set(fresh)]].filter(Boolean).join('\n');
    if (next.length > DETAILS_MAX) throw badRequest(`${field.replace(/_/g, ' ')} would be longer than ${DETAILS_MAX} characters after this import.`);
    change[field] = next;
    change[FLAG_OF[field]] = true;
  }
  return change;
}

/**
 * What of `items` one profile's list (`rows`) lacks, placed after its rows; refused when the list
 * would pass its cap. `present` counts the items already there.
 */
export function listAdditions<T extends ListTable, K>(
  table: T,
  profileId: string,
  items: NoInfer<ListValues[T] & K>[],
  rows: NoInfer<K & { position: number }>[],
  key: (item: K) => string,
  now: string,
): { rows: NewListRow<T>[]; present: number } {
  const fresh = unseen(items, new Set(rows.map(key)), key);
  if (rows.length + fresh.length > LIST_CAPS[table]) {
    throw new HttpError(400, `This import would give the profile more than ${LIST_CAPS[table]} ${table.replace(/_/g, ' ')}.`);
  }
  let position = rows.reduce((max, r) => Math.max(max, r.position + 1), 0);
  return { rows: fresh.map((values) => ({ profileId, values, position: position++, created_at: now })), present: items.length - fresh.length };
}

/**
 * The appointments the person (`profileId`) does not hold yet, each once, with calendar UIDs of their
 * own; `have` are the person's (DESIGN §4: an appointment belongs to one person).
 */
export function newAppointments(planned: PlannedAppointment[], profileId: string, have: Parameters<typeof keyOf.appointment>[0][], now: string): NewAppointment[] {
  const key = (a: PlannedAppointment) => keyOf.appointment({ ...a, profile_id: profileId });
  return unseen(planned, new Set(have.map(keyOf.appointment)), key).map((a) => ({
    profile_id: profileId,
    ...appointmentValuesOf(a),
    uid: newId(),
    created_at: now,
  }));
}

/** The rows of the documents whose blobs were written, filed under the profile. */
export function documentRows(documents: { stored: StoredImportFile; doc: PlannedDocument }[], profileId: string, now: string): NewImportedFile[] {
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
    visit_location: null,
    visit_reason: doc.visit_reason,
    created_at: now,
    updated_at: now,
  }));
}
