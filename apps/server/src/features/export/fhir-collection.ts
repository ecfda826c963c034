import type { AppointmentValues } from '@kinchart/shared/appointments';
import { appointmentSpan, appointmentTitle } from '@kinchart/shared/appointments';
import { toInstant, withOffset } from '../../lib/time-zone';
import type { Json } from './fhir-common';
import { codeable, stableUuid, uuidIdentifier } from './fhir-common';

// The collection Bundle beside each person's IPS document (docs/decisions/0023-ips-document-export.md):
// what belongs to no IPS section — appointments, a DocumentReference for each file and a
// MedicationAdministration for each logged dose (decision 0046) — with the
// Patient, so every reference in it resolves inside it.

export interface IpsAppointment extends AppointmentValues {
  id: string;
}

export interface IpsDocument {
  id: string;
  display_name: string;
  file_type: string;
  size: number;
  created_at: string;
  record_date: string | null;
  provider_name: string | null;
  visit_location?: string | null;
  visit_reason: string | null;
  /** Where the bytes are: a path inside the export zip, or an absolute URL. */
  url: string;
  /**
   * What stands in the attachment's `data` for the bytes: the export writes the file there in
   * base64 as the zip is streamed (issue 30: a FHIR import of the collection alone keeps the files).
   */
  data?: string;
}

/** A logged dose (issue 32, decision 0046): a MedicationAdministration of the person's. */
export interface IpsAdministration {
  /** The dose id. */
  id: string;
  /** The medication as the MedicationStatement names it (a CodeableConcept). */
  medication: Json;
  status: 'taken' | 'skipped';
  /** When it was taken (or, skipped, when it was due), with the person's offset. */
  effective: string;
}

/** A record date as FHIR dateTime: a date stays a date; anything else is read as an instant (UTC when it has no zone). */
function recordDate(value: string): string {
  if (/^\d{4}(-\d{2}(-\d{2})?)?$/.test(value)) return value;
  return new Date(/(Z|[+-]\d{2}:\d{2})$/.test(value) ? value : `${value}Z`).toISOString();
}

export interface CollectionInput {
  /** The fullUrl of a resource of the person's (the same as the document's). */
  id: (kind: string, key: string) => string;
  patientEntry: { fullUrl: string; resource: Json };
  appointments: readonly IpsAppointment[];
  documents: readonly IpsDocument[];
  administrations: readonly IpsAdministration[];
  now: Date;
  timeZone: string;
}

/** The person's collection Bundle, or null when they have no appointment and no file. */
export function buildCollection({
  id,
  patientEntry,
  appointments,
  documents,
  administrations,
  now,
  timeZone,
}: CollectionInput): Json | null {
  const patientRef = { reference: patientEntry.fullUrl };
  // The document's Patient, less its links to the care team, which lives in the document.
  const { generalPractitioner: _, ...patient } = patientEntry.resource;
  const others: { fullUrl: string; resource: Json }[] = [];
  for (const a of appointments) {
    // A wall-clock time is the person's own (their browser's zone); written with its offset, so a
    // clinician's system shows the time the person booked and still knows the instant.
    const span = appointmentSpan(a);
    const start = toInstant(span.start, timeZone);
    const end = toInstant(span.end, timeZone);
    others.push({
      fullUrl: id('Appointment', a.id),
      resource: {
        resourceType: 'Appointment',
        status: start.getTime() > now.getTime() ? 'booked' : 'fulfilled',
        description: appointmentTitle(a),
        ...(a.reason_for_visit ? { reasonCode: [codeable(a.reason_for_visit)] } : {}),
        start: withOffset(start, timeZone),
        end: withOffset(end, timeZone),
        ...(a.location ? { comment: `Location: ${a.location}` } : {}),
        participant: [
          { actor: patientRef, status: 'accepted' },
          { actor: { display: a.provider_name }, status: 'accepted' },
        ],
      },
    });
  }
  for (const d of documents) {
    others.push({
      fullUrl: id('DocumentReference', d.id),
      resource: {
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
              ...(d.data ? { data: d.data } : {}),
              size: d.size,
              title: d.display_name,
              ...(d.record_date ? { creation: recordDate(d.record_date) } : {}),
            },
          },
        ],
        // The visit: its reason, and where it was (a reference typed Location that names the place).
        ...(d.visit_reason || d.visit_location
          ? {
              context: {
                related: [
                  ...(d.visit_reason ? [{ display: d.visit_reason }] : []),
                  ...(d.visit_location ? [{ type: 'Location', display: d.visit_location }] : []),
                ],
              },
            }
          : {}),
      },
    });
  }
  for (const d of administrations) {
    // FHIR R4 MedicationAdministration: a skipped dose is "not-done", with the reason it was not given.
    others.push({
      fullUrl: id('MedicationAdministration', d.id),
      resource: {
        resourceType: 'MedicationAdministration',
        status: d.status === 'taken' ? 'completed' : 'not-done',
        ...(d.status === 'skipped' ? { statusReason: [codeable('Dose skipped')] } : {}),
        medicationCodeableConcept: d.medication,
        subject: patientRef,
        // No dosage: FHIR's requires a dose or rate as a quantity (mad-1), and Kinchart's is free
        // text, which the MedicationStatement of the IPS document already carries.
        effectiveDateTime: d.effective,
      },
    });
  }
  if (others.length === 0) return null;
  return {
    resourceType: 'Bundle',
    identifier: uuidIdentifier(stableUuid(patientEntry.fullUrl, 'collection', now.toISOString())),
    type: 'collection',
    timestamp: now.toISOString(),
    entry: [{ fullUrl: patientEntry.fullUrl, resource: patient }, ...others],
  };
}
