import type { ResourceOf } from './fhir-bundle';
import type { ImportTally } from './import-report';
import { clean } from './fhir-values';

// Consent and Flag → the profile's organ donation, advance directive and living will answers and
// its religious restrictions (issue 30), by the codes Kinchart's export writes them with
// (export/fhir-directives.ts names the sources): a Consent of category LOINC 75781-5 (organ and
// tissue donation) that permits, HL7 consent category "acd" (advance directive) or "hcd" (health
// care directive: the living will); a Flag whose text begins "Religious restrictions: ". Only an
// active one says something; anything else is left out and said why.

const LOINC = 'http://loinc.org';
const CONSENT_CATEGORY = 'http://terminology.hl7.org/CodeSystem/consentcategorycodes';
const ORGAN_DONATION = '75781-5';
const RELIGIOUS = /^religious restrictions:\s*/i;

export type DirectiveFlag = 'organ_donor' | 'advance_directives' | 'living_will';

const codedAs = (cc: { coding?: { system?: string | undefined; code?: string | undefined }[] | undefined }, system: string, code: string) =>
  !!cc.coding?.some((c) => c.system === system && c.code === code);

/** The profile answer one Consent gives, or null (the tally hears why). */
export function planConsent(index: number, c: ResourceOf<'Consent'>, tally: ImportTally): DirectiveFlag | null {
  if (c.status !== 'active') {
    tally.drop(index, `with status ${c.status}`);
    return null;
  }
  const categories = c.category;
  if (categories.some((cc) => codedAs(cc, LOINC, ORGAN_DONATION))) {
    if (c.provision?.type === 'deny') {
      tally.drop(index, 'declining organ donation (Kinchart keeps only that a person is a donor)');
      return null;
    }
    return 'organ_donor';
  }
  if (categories.some((cc) => codedAs(cc, CONSENT_CATEGORY, 'hcd'))) return 'living_will';
  if (categories.some((cc) => codedAs(cc, CONSENT_CATEGORY, 'acd'))) return 'advance_directives';
  tally.drop(index, 'a consent that is not an advance directive or organ donation');
  return null;
}

/** The religious restrictions one Flag states, or null (the tally hears why). */
export function planFlag(index: number, f: ResourceOf<'Flag'>, tally: ImportTally): string | null {
  if (f.status !== 'active') {
    tally.drop(index, `with status ${f.status}`);
    return null;
  }
  const text = clean(f.code.text);
  const m = text ? RELIGIOUS.exec(text) : null;
  const restrictions = m && text ? clean(text.slice(m[0].length)) : null;
  if (!restrictions) {
    tally.drop(index, 'an alert Kinchart does not keep (it keeps religious restrictions)');
    return null;
  }
  return restrictions;
}
