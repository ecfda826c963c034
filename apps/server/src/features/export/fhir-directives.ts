import type { Json, Ref } from './fhir-common';
import { LOINC } from './fhir-common';

// The profile's organ donation, advance directive and living will answers as Consent resources of
// the IPS Advance Directives section, and its religious restrictions as a Flag of the Alerts section
// (issue 30: a narrative alone was lost on a FHIR round trip). Codes are those of published code
// systems, named here; the import (import/fhir-directives.ts) reads the same codes back.

/** HL7 Terminology, Consent Scope Codes (R4 http://hl7.org/fhir/R4/codesystem-consent-scope.html): "adr", Advanced Care Directive. */
export const CONSENT_SCOPE = 'http://terminology.hl7.org/CodeSystem/consentscope';
/**
 * HL7 Terminology, Consent Category Codes (R4 http://hl7.org/fhir/R4/codesystem-consent-category.html):
 * "acd" Advance Directive; "hcd" Health Care Directive, which R4 describes as the living will.
 */
export const CONSENT_CATEGORY = 'http://terminology.hl7.org/CodeSystem/consentcategorycodes';
/**
 * LOINC 75781-5 "Thoughts on organ and tissue donations [Reported]": the code of HL7's PACIO Advance
 * Directive Interoperability IG for organ donation (its value set PADIOrganDonationVS).
 */
export const ORGAN_DONATION_LOINC = '75781-5';
/** HL7 v3 ActCode OPTIN (ActConsentDirective): the person opts in — to donation. */
const V3_ACT_CODE = 'http://terminology.hl7.org/CodeSystem/v3-ActCode';
/** HL7 Terminology, Flag Category (R4 http://hl7.org/fhir/R4/codesystem-flag-category.html): "advance-directive". */
export const FLAG_CATEGORY = 'http://terminology.hl7.org/CodeSystem/flag-category';
/** The Flag's text starts with this; the rest is the person's own words. */
export const RELIGIOUS_RESTRICTIONS = 'Religious restrictions: ';

export interface DirectiveAnswers {
  organ_donor: boolean;
  advance_directives: boolean;
  living_will: boolean;
  religious_restrictions: string | null;
}

export interface Directives {
  /** Consent resources for the Advance Directives section, with the line each says. */
  consents: { key: string; line: string; resource: Json }[];
  /** The Flag for the Alerts section, with its line, when the person has religious restrictions. */
  flag: { line: string; resource: Json } | null;
}

function consent(patient: Ref, line: string, category: Json, policyRule: Json, provision?: Json): Json {
  return {
    resourceType: 'Consent',
    status: 'active',
    scope: { coding: [{ system: CONSENT_SCOPE, code: 'adr', display: 'Advanced Care Directive' }] },
    category: [{ ...category, text: line }],
    patient,
    // ppc-1: a Consent names a policy or a policy rule.
    policyRule,
    ...(provision ? { provision } : {}),
  };
}

/** The person's answers as resources; nothing for an answer that is "no" (Kinchart cannot tell "no" from "not answered"). */
export function directiveResources(p: DirectiveAnswers, patient: Ref): Directives {
  const own = { text: "The person's own directive, as they told Kinchart" };
  const consents: Directives['consents'] = [];
  if (p.organ_donor) {
    const line = 'Organ donor';
    consents.push({
      key: 'organ-donor',
      line,
      resource: consent(
        patient,
        line,
        { coding: [{ system: LOINC, code: ORGAN_DONATION_LOINC, display: 'Thoughts on organ and tissue donations [Reported]' }] },
        { coding: [{ system: V3_ACT_CODE, code: 'OPTIN', display: 'opt-in' }] },
        { type: 'permit' },
      ),
    });
  }
  if (p.advance_directives) {
    const line = 'Has advance directives';
    consents.push({
      key: 'advance-directives',
      line,
      resource: consent(patient, line, { coding: [{ system: CONSENT_CATEGORY, code: 'acd', display: 'Advance Directive' }] }, own),
    });
  }
  if (p.living_will) {
    const line = 'Has a living will';
    consents.push({
      key: 'living-will',
      line,
      resource: consent(patient, line, { coding: [{ system: CONSENT_CATEGORY, code: 'hcd', display: 'Health Care Directive' }] }, own),
    });
  }
  const restrictions = p.religious_restrictions?.trim();
  const flag = restrictions
    ? {
        line: `${RELIGIOUS_RESTRICTIONS}${restrictions}`,
        resource: {
          resourceType: 'Flag',
          status: 'active',
          category: [{ coding: [{ system: FLAG_CATEGORY, code: 'advance-directive', display: 'Advance Directive' }] }],
          code: { text: `${RELIGIOUS_RESTRICTIONS}${restrictions}` },
          subject: patient,
        },
      }
    : null;
  return { consents, flag };
}
