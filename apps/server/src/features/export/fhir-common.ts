import { createHash } from 'node:crypto';
import type { Coding } from '@kinchart/shared/clinical';
import { SYSTEMS } from '@kinchart/shared/clinical';

// What every part of the FHIR export writes the same way (docs/decisions/0023-ips-document-export.md):
// ids, codes as the user gave them, partial dates, and the data-absent-reason for what is unknown.

export type Json = Record<string, unknown>;
export type Ref = { reference: string };

export const LOINC = SYSTEMS.loinc;
export const SNOMED = SYSTEMS.snomed;
export const UCUM = 'http://unitsofmeasure.org';
/** http://hl7.org/fhir/R4/extension-data-absent-reason.html */
export const DATA_ABSENT_REASON = 'http://hl7.org/fhir/StructureDefinition/data-absent-reason';

/** Deterministic UUIDs from Kinchart ids, so a re-export names each resource the same way. */
export function stableUuid(...parts: string[]): string {
  const h = createHash('sha256').update(parts.join('|')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h.slice(16, 17), 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A Bundle.identifier that is globally unique: the RFC 3986 URI of a UUID (FHIR's own pattern). */
export const uuidIdentifier = (uuid: string) => ({ system: 'urn:ietf:rfc:3986', value: `urn:uuid:${uuid}` });

export const codeable = (text: string) => ({ text });
export const loinc = (code: string, display: string) => ({ coding: [{ system: LOINC, code, display }], text: display });

/** A Kinchart coding as FHIR writes it: only the parts it has. */
function fhirCoding(c: Coding): Json {
  return { ...(c.system ? { system: c.system } : {}), ...(c.code ? { code: c.code } : {}), ...(c.display ? { display: c.display } : {}) };
}

/**
 * A CodeableConcept: the item's own codings (as they came, DESIGN §12), then `extra` codes Kinchart
 * knows for it (a lab result's LOINC code) unless one of the same system and code is already there,
 * and the name the user reads as the text. Never a code the user did not give.
 */
export function coded(text: string, codings: readonly Coding[], extra: Coding[] = []): Json {
  const list = [...codings];
  for (const c of extra) if (!list.some((o) => o.system === c.system && o.code === c.code)) list.push(c);
  const coding = list.filter((c) => c.code || c.display).map(fhirCoding);
  return coding.length ? { coding, text } : { text };
}

/** The data-absent-reason "unknown" on a primitive that has no value (`_effectiveDateTime`). */
export const unknownValue = () => ({ extension: [{ url: DATA_ABSENT_REASON, valueCode: 'unknown' }] });

/**
 * `element` holding a date as precise as it was given (`2015`, `2015-03`, `2015-03-14`: FHIR's
 * date and dateTime both allow it), or the data-absent-reason when there is none. For elements
 * that IPS requires (effective[x], occurrence[x], performed[x]).
 */
export function dateOrUnknown(element: string, value: string | null | undefined): Json {
  return value ? { [element]: value } : { [`_${element}`]: unknownValue() };
}
