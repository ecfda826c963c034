// DESIGN §12: an absent or unknown statement ("no known allergies", "no known medications", "no
// current problems") means none known — never a positive. The HL7 IPS expresses them with its own
// code system, or with SNOMED CT concepts for "no known …"; both are recognised here.

type Coded = { coding?: { system?: string | undefined; code?: string | undefined }[] | undefined } | undefined;

/** HL7 IPS's code system for absent and unknown data (absent-unknown-uv-ips). */
export const IPS_ABSENT_UNKNOWN_SYSTEM = 'http://hl7.org/fhir/uv/ips/CodeSystem/absent-unknown-uv-ips';
const SNOMED = 'http://snomed.info/sct';

/**
 * SNOMED CT "no known …" concepts: no known allergy (716186003), no known drug, food and
 * environmental allergy (409137002, 429625007, 428607008), no known medications (777451002, as the
 * IPS examples code it) and no current problems or disability (160245001).
 */
const SNOMED_NONE_KNOWN = new Set(['716186003', '409137002', '429625007', '428607008', '777451002', '160245001']);

/** True when `cc` says the patient has none known (or it is unknown) rather than naming a thing they have. */
export function isAbsentOrUnknown(cc: Coded): boolean {
  return absentReason(cc) !== null;
}

/**
 * Why an entry coded as absent or unknown adds nothing, in the import report's words: the IPS
 * "no … info" codes (`no-procedure-info`, `no-immunization-info`, …) say nothing is known, every
 * other absent code says none are known; null when `cc` names a thing the patient has.
 */
export function absentReason(cc: Coded): string | null {
  const codings = cc?.coding ?? [];
  if (codings.some((c) => c.system === IPS_ABSENT_UNKNOWN_SYSTEM && !!c.code && c.code.startsWith('no-') && c.code.endsWith('-info')))
    return 'saying nothing is known (nothing to add)';
  const noneKnown = codings.some(
    (c) => c.system === IPS_ABSENT_UNKNOWN_SYSTEM || (c.system === SNOMED && c.code !== undefined && SNOMED_NONE_KNOWN.has(c.code)),
  );
  return noneKnown ? 'saying none are known (nothing to add)' : null;
}
