import type { Selectable } from 'kysely';
import { appointmentValuesOf } from '@kinchart/shared/appointments';
import { reminderMinutesSchema } from '@kinchart/shared/care';
import type { KinchartExport } from '@kinchart/shared/export';
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION } from '@kinchart/shared/export';
import type { NotificationsTable, ProfilesTable } from '../../db/schema';
import { fromFlag } from '../../lib/flags';
import type { AllergyEntry } from '../allergies/allergy-entries';
import { conditions, immunizations, labResults, parseCodings, procedures } from '../clinical/clinical-kinds';
import { profileValuesOf, toContact, toMedication, toProvider } from '../profiles/list-rows';
import type { ProfileBundle } from '../profiles/profile.service';
import type { AccountCare } from '../care/care-transfer';
import type { AccountData } from './export.repository';
import type { IpsClinical } from './fhir-ips';
import { isLanguage } from '@kinchart/shared/i18n';

// kinchart.json, format version 2 (docs/decisions/0004-export-format.md; schema in
// packages/shared/src/export.ts). Values are exactly what is stored; booleans are JSON booleans.

/** An appointment's stored reminder lead times (JSON text), or null for the default (issue 32). */
function reminderMinutes(column: string | null): number[] | null {
  if (column === null) return null;
  try {
    const parsed = reminderMinutesSchema.safeParse(JSON.parse(column));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The message of a stored notification (JSON `{ message }`, or plain text in older rows). */
export function notificationMessage(row: Pick<Selectable<NotificationsTable>, 'data'>): string {
  try {
    const parsed = JSON.parse(row.data ?? '{}') as { message?: unknown };
    return typeof parsed.message === 'string' ? parsed.message : '';
  } catch {
    return row.data ?? '';
  }
}

/** One person as the IPS builder reads them (the same shape loadProfileBundle gives). */
export function personBundle(data: AccountData, profile: Selectable<ProfilesTable>): ProfileBundle {
  const mine = <T extends { profile_id: string }>(rows: T[]) => rows.filter((r) => r.profile_id === profile.id);
  return {
    profile: {
      ...profileValuesOf(profile),
      id: profile.id,
      is_self: fromFlag(profile.is_self),
      relationship: profile.relationship,
      is_pet: fromFlag(profile.is_pet),
    },
    emergency_contacts: mine(data.contacts).map(toContact),
    healthcare_providers: mine(data.providers).map(toProvider),
    medications: mine(data.medications).map(toMedication),
  };
}

/** One person's clinical items (DESIGN §12) as the API answers them: what the IPS builder and kinchart.json read. */
export function personClinical(data: AccountData, profileId: string): IpsClinical {
  const mine = <T extends { profile_id: string; codings: string }, A>(
    rows: T[],
    answer: (row: T, codings: ReturnType<typeof parseCodings>) => A,
  ) => rows.filter((r) => r.profile_id === profileId).map((r) => answer(r, parseCodings(r.codings)));
  return {
    immunizations: mine(data.clinical.immunizations, immunizations.answer),
    labResults: mine(data.clinical.lab_results, labResults.answer),
    conditions: mine(data.clinical.conditions, conditions.answer),
    procedures: mine(data.clinical.procedures, procedures.answer),
  };
}

/** Each medication's codings by id; only those an import gave any. */
export function medicationCodings(data: AccountData): Map<string, ReturnType<typeof parseCodings>> {
  return new Map(data.medications.filter((m) => m.codings !== null).map((m) => [m.id, parseCodings(m.codings)]));
}

export function buildKinchartDocument(
  data: AccountData,
  paths: { fhir: Map<string, string>; other: Map<string, string>; files: Map<string, string> },
  now: Date,
  care: AccountCare,
  allergies: ReadonlyMap<string, readonly AllergyEntry[]>,
): KinchartExport {
  const byProfile = <T extends { profile_id: string }>(rows: T[], profileId: string) => rows.filter((r) => r.profile_id === profileId);
  // The API's answer less what only the API says (whose it is, whether it is out of range, its point on a trend).
  const item = <T extends { person_id: string }>({ person_id: _, ...rest }: T) => rest;
  const clinicalOf = (c: IpsClinical) => ({
    immunizations: c.immunizations.map(item),
    lab_results: c.labResults.map(({ out_of_range: _, trend: _trend, ...r }) => item(r)),
    conditions: c.conditions.map(item),
    procedures: c.procedures.map(item),
  });
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_FORMAT_VERSION,
    exported_at: now.toISOString(),
    account: data.account,
    profiles: data.profiles.map((p) => ({
      id: p.id,
      is_self: fromFlag(p.is_self),
      relationship: p.relationship,
      is_pet: fromFlag(p.is_pet),
      ...profileValuesOf(p),
      created_at: p.created_at,
      updated_at: p.updated_at,
      fhir: paths.fhir.get(p.id),
      emergency_contacts: byProfile(data.contacts, p.id).map((c) => ({
        id: c.id,
        name: c.name,
        relationship: c.relationship,
        phone_number: c.phone_number,
        email: c.email,
        is_primary: fromFlag(c.is_primary),
        has_medical_power: fromFlag(c.has_medical_power),
        position: Number(c.position),
        created_at: c.created_at,
      })),
      healthcare_providers: byProfile(data.providers, p.id).map((h) => ({
        id: h.id,
        provider_name: h.provider_name,
        specialty: h.specialty,
        facility: h.facility,
        phone_number: h.phone_number,
        email: h.email,
        address: h.address,
        is_primary: fromFlag(h.is_primary),
        notes: h.notes,
        position: Number(h.position),
        created_at: h.created_at,
      })),
      medications: byProfile(data.medications, p.id).map((m) => ({
        id: m.id,
        medication_name: m.medication_name,
        dosage: m.dosage,
        frequency: m.frequency,
        purpose: m.purpose,
        start_date: m.start_date,
        end_date: m.end_date,
        is_current: fromFlag(m.is_current),
        position: Number(m.position),
        created_at: m.created_at,
        updated_at: m.updated_at,
        codings: m.codings === null ? null : parseCodings(m.codings),
        // Version 3 (decision 0046): the schedule and the dose log.
        schedule: care.schedules.get(m.id) ?? null,
        doses: care.doses.get(m.id) ?? [],
      })),
      ...(paths.other.has(p.id) ? { fhir_other: paths.other.get(p.id) } : {}),
      ...clinicalOf(personClinical(data, p.id)),
      // Issue 34 (docs/decisions/0053): the allergies as entries, in the person's order.
      allergies: (allergies.get(p.id) ?? []).map((e) => ({
        substance: e.substance,
        reactions: e.reactions,
        severity: e.severity,
        criticality: e.criticality,
        codings: e.codings,
        created_at: e.created_at,
        updated_at: e.updated_at,
      })),
    })),
    appointments: data.appointments.map((a) => ({
      id: a.id,
      profile_id: a.profile_id,
      uid: a.uid,
      ...appointmentValuesOf(a),
      created_at: a.created_at,
      reminder_minutes: reminderMinutes(a.reminder_minutes),
    })),
    notifications: data.notifications.map((n) => ({
      id: n.id,
      type: n.type,
      level: n.level,
      title: n.title,
      message: notificationMessage(n),
      is_read: fromFlag(n.is_read),
      is_hidden: fromFlag(n.is_hidden),
      created_at: n.created_at,
    })),
    files: data.files.map((f) => ({
      id: f.id,
      profile_id: f.profile_id,
      path: paths.files.get(f.id) ?? '',
      display_name: f.display_name,
      original_name: f.original_name,
      file_type: f.file_type,
      size: Number(f.size),
      record_date: f.record_date,
      provider_name: f.provider_name,
      visit_location: f.visit_location,
      visit_reason: f.visit_reason,
      created_at: f.created_at,
      updated_at: f.updated_at,
    })),
    preferences: {
      time_zone: data.preferences.time_zone,
      reminder_email: fromFlag(data.preferences.reminder_email),
      reminder_push: fromFlag(data.preferences.reminder_push),
      reminder_minimal: fromFlag(data.preferences.reminder_minimal),
      // Issue 35: null when never chosen (or not a language this server speaks).
      language: isLanguage(data.preferences.language) ? data.preferences.language : null,
      units: data.preferences.units === 'metric' || data.preferences.units === 'imperial' ? data.preferences.units : null,
    },
    reminder_settings: data.reminderSettings.map((r) => ({
      person_id: r.profile_id,
      dose_reminders: fromFlag(r.dose_reminders),
      missed_dose_alerts: fromFlag(r.missed_dose_alerts),
      appointment_reminders: fromFlag(r.appointment_reminders),
    })),
    // Settings only: a feed's secret address is never exported; an import makes each feed again with a
    // fresh token nobody knows, which its account renews to get an address (decision 0045).
    calendar_feeds: data.calendarFeeds.map((f) => ({
      id: f.id,
      person_id: f.person_id,
      include_medications: fromFlag(f.include_medications),
      minimal: fromFlag(f.minimal),
      created_at: f.created_at,
      last_read_at: f.last_read_at,
    })),
  };
}
