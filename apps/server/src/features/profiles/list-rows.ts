import type { Selectable } from 'kysely';
import type { EmergencyContact, HealthcareProvider, Medication, ProfileFlag, ProfileValues } from '@kinchart/shared/profile';
import { PROFILE_FIELD_NAMES, PROFILE_FLAGS } from '@kinchart/shared/profile';
import type { EmergencyContactsTable, HealthcareProvidersTable, MedicationsTable, ProfilesTable } from '../../db/schema';
import { fromFlag, toFlag } from '../../lib/flags';

/*
 * A person's profile values and three lists — emergency contacts, healthcare providers,
 * medications — between their rows and the API's answers, in one place: the profile routes, the
 * emergency view, the export and the import all map through here (flags are 0/1 in the database
 * and booleans everywhere else).
 */

/** A row with the profile's flag columns (PROFILE_FLAGS) as booleans. */
export type WithProfileFlags<T> = { [K in keyof T]: K extends ProfileFlag ? boolean : T[K] };

/** The profile's flag columns of `row` (those it has) as booleans; every other column as it is. */
export function withProfileFlags<T extends object>(row: T): WithProfileFlags<T> {
  const values = { ...row } as Record<string, unknown>;
  for (const key of PROFILE_FLAGS) if (key in values) values[key] = fromFlag(values[key] as number);
  return values as WithProfileFlags<T>;
}

/** A profile row's own values as they leave the server (no ids, no lists): the profile's fields, flags as booleans. */
export function profileValuesOf(row: Selectable<ProfilesTable>): ProfileValues {
  const values: Partial<Record<keyof ProfileValues, unknown>> = {};
  for (const key of PROFILE_FIELD_NAMES) values[key] = row[key];
  return withProfileFlags(values) as ProfileValues;
}

/** Values a nested record is written with (a list replace pairs them with a client id: `WithClientId`): its answer without the ids. */
export type ContactValues = Omit<EmergencyContact, 'id' | 'contact_id'>;
export type ProviderValues = Omit<HealthcareProvider, 'id' | 'provider_id' | 'name'>;
export type MedicationValues = Omit<Medication, 'id' | 'medication_id'>;

export const toContact = (r: Selectable<EmergencyContactsTable>): EmergencyContact => ({
  id: r.id,
  contact_id: r.id,
  name: r.name,
  relationship: r.relationship,
  phone_number: r.phone_number,
  email: r.email,
  is_primary: fromFlag(r.is_primary),
  has_medical_power: fromFlag(r.has_medical_power),
});

export const toProvider = (r: Selectable<HealthcareProvidersTable>): HealthcareProvider => ({
  id: r.id,
  provider_id: r.id,
  provider_name: r.provider_name,
  name: r.provider_name,
  specialty: r.specialty,
  facility: r.facility,
  phone_number: r.phone_number,
  email: r.email,
  address: r.address,
  is_primary: fromFlag(r.is_primary),
  notes: r.notes,
});

export const toMedication = (r: Selectable<MedicationsTable>): Medication => ({
  id: r.id,
  medication_id: r.id,
  medication_name: r.medication_name,
  dosage: r.dosage,
  frequency: r.frequency,
  purpose: r.purpose,
  start_date: r.start_date,
  end_date: r.end_date,
  is_current: fromFlag(r.is_current),
});

export const contactColumns = (v: ContactValues) => ({
  name: v.name,
  relationship: v.relationship,
  phone_number: v.phone_number,
  email: v.email,
  is_primary: toFlag(v.is_primary),
  has_medical_power: toFlag(v.has_medical_power),
});

export const providerColumns = (v: ProviderValues) => ({
  provider_name: v.provider_name,
  specialty: v.specialty,
  facility: v.facility,
  phone_number: v.phone_number,
  email: v.email,
  address: v.address,
  is_primary: toFlag(v.is_primary),
  notes: v.notes,
});

export const medicationColumns = (v: MedicationValues) => ({
  medication_name: v.medication_name,
  dosage: v.dosage,
  frequency: v.frequency,
  purpose: v.purpose,
  start_date: v.start_date,
  end_date: v.end_date,
  is_current: toFlag(v.is_current),
});
