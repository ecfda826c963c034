import { randomUUID } from 'node:crypto';
import { convertCcdaToFhir, convertXmlToCcda } from '@medplum/ccda';
import type { ImportReportRow } from '@kinchart/shared/export';
import { badRequest } from '../../lib/http-errors';

// An HL7 C-CDA R2.1 ClinicalDocument (a portal's "Download my record"), decision 0050: checked by a
// linear scan before any parser sees it (no DOCTYPE or ENTITY at all, a nesting limit, balanced
// tags, the root in the urn:hl7-org:v3 namespace), converted by @medplum/ccda to a FHIR Bundle, and
// corrected where the converter loses meaning: a negated entry (negationInd="true": a refused
// vaccine, "no known allergies") and a "no information" section (nullFlavor) become nothing
// positive, and a year- or month-only date keeps its precision. The Bundle then takes the FHIR path.

export const MAX_XML_DEPTH = 256;
const HL7_V3 = 'urn:hl7-org:v3';

/** True when the first non-blank byte (after a UTF-8 BOM) is '<'. */
export function looksLikeXml(head: Buffer): boolean {
  let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (i < head.length && [0x20, 0x09, 0x0a, 0x0d].includes(head[i]!)) i += 1;
  return head[i] === 0x3c;
}

const NAME_END = new Set([' ', '\t', '\n', '\r', '/', '>']);

/**
 * One pass over the text, index by index (no regular expressions): refuses a DOCTYPE or ENTITY
 * declaration, unbalanced or unclosed tags, text outside the root and nesting deeper than
 * MAX_XML_DEPTH; returns the root element's start tag.
 */
export function checkXml(text: string): { rootName: string; rootTag: string } {
  const malformed = (why: string) => badRequest(`The file is not well-formed XML: ${why}.`);
  const stack: string[] = [];
  let root: { rootName: string; rootTag: string } | null = null;
  let closedRoot = false;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const lt = text.indexOf('<', i);
    const between = text.slice(i, lt < 0 ? n : lt);
    if (stack.length === 0 && between.trim() !== '') throw malformed('there is text outside the root element');
    if (lt < 0) break;
    if (text.startsWith('<!--', lt)) {
      const end = text.indexOf('-->', lt + 4);
      if (end < 0) throw malformed('a comment is not closed');
      i = end + 3;
      continue;
    }
    if (text.startsWith('<![CDATA[', lt)) {
      if (stack.length === 0) throw malformed('CDATA outside the root element');
      const end = text.indexOf(']]>', lt + 9);
      if (end < 0) throw malformed('a CDATA section is not closed');
      i = end + 3;
      continue;
    }
    if (text.startsWith('<!', lt)) {
      const word = text.slice(lt + 2, lt + 9).toUpperCase();
      if (word.startsWith('DOCTYPE') || word.startsWith('ENTITY'))
        throw badRequest('The file declares a DOCTYPE or an ENTITY: documents with a DTD are not accepted.');
      throw malformed('an unknown <! declaration');
    }
    if (text.startsWith('<?', lt)) {
      const end = text.indexOf('?>', lt + 2);
      if (end < 0) throw malformed('a processing instruction is not closed');
      i = end + 2;
      continue;
    }
    // A tag: find its '>' outside quoted attribute values.
    let j = lt + 1;
    let quote = '';
    while (j < n) {
      const c = text[j]!;
      if (quote) {
        if (c === quote) quote = '';
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '<') throw malformed('a tag is not closed');
      else if (c === '>') break;
      j += 1;
    }
    if (j >= n) throw malformed('a tag is not closed');
    const tag = text.slice(lt, j + 1);
    const closing = tag[1] === '/';
    let k = closing ? 2 : 1;
    while (k < tag.length && !NAME_END.has(tag[k]!)) k += 1;
    const name = tag.slice(closing ? 2 : 1, k);
    if (name === '') throw malformed('a tag has no name');
    if (closing) {
      const open = stack.pop();
      if (open !== name) throw malformed(open ? `</${name}> closes <${open}>` : `</${name}> closes nothing`);
      if (stack.length === 0) closedRoot = true;
    } else {
      if (stack.length === 0) {
        if (root) throw malformed('there is more than one root element');
        root = { rootName: name, rootTag: tag };
      }
      if (tag[tag.length - 2] !== '/') {
        stack.push(name);
        if (stack.length > MAX_XML_DEPTH) throw badRequest(`The XML nests deeper than ${MAX_XML_DEPTH} elements.`);
      } else if (stack.length === 0) closedRoot = true;
    }
    i = j + 1;
  }
  if (!root) throw malformed('there is no root element');
  if (stack.length > 0 || !closedRoot) throw malformed(`<${stack[stack.length - 1] ?? root.rootName}> is not closed`);
  return root;
}

/** The root is ClinicalDocument in the HL7 v3 namespace (default or prefixed). */
export function isClinicalDocument(root: { rootName: string; rootTag: string }): boolean {
  const colon = root.rootName.indexOf(':');
  const local = colon < 0 ? root.rootName : root.rootName.slice(colon + 1);
  if (local !== 'ClinicalDocument') return false;
  const attr = colon < 0 ? 'xmlns=' : `xmlns:${root.rootName.slice(0, colon)}=`;
  const at = root.rootTag.indexOf(attr);
  if (at < 0) return false;
  const q = root.rootTag[at + attr.length];
  if (q !== '"' && q !== "'") return false;
  const end = root.rootTag.indexOf(q, at + attr.length + 1);
  return root.rootTag.slice(at + attr.length + 1, end) === HL7_V3;
}

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => v !== null && typeof v === 'object' && !Array.isArray(v);
const list = (v: unknown): Node[] => (Array.isArray(v) ? v.filter(isNode) : isNode(v) ? [v] : []);
const ENTRY_KINDS = ['act', 'observation', 'substanceAdministration', 'supply', 'procedure', 'encounter', 'organizer'];
const TIME_KEYS = new Set(['effectiveTime', 'low', 'high', 'center', 'time']);

/** What the corrections found: marked entries' resource ids, partial dates by their stand-in, what was left out. */
interface Marks {
  negated: Set<string>;
  noInformation: Set<string>;
  planned: Set<string>;
  dates: Map<string, string>;
  leftOut: LeftOut[];
}

/** A converted resource left out before the FHIR path, for the import report. */
export interface LeftOut {
  type: string;
  reason: string;
}

const NO_INFORMATION = 'in a section that says there is no information (nullFlavor)';
const NEGATED = 'that the document says did not happen (negationInd)';
const PLANNED = 'that the document plans or orders, not one done (moodCode)';

function negated(el: Node): boolean {
  return el['@_negationInd'] === 'true';
}

/**
 * Gives an entry an id its resource can be told by afterwards: every entry of a "no information"
 * section, and a negated entry (or a concern act whose own statement is negated).
 */
function markEntry(entry: Node, marks: Marks, noInformation: boolean): void {
  for (const kind of ENTRY_KINDS) {
    for (const el of list(entry[kind])) {
      const inner = kind === 'act' ? list(el.entryRelationship).flatMap((r) => list(r.observation)) : [];
      const set = noInformation
        ? marks.noInformation
        : negated(el) || inner.some(negated)
          ? marks.negated
          : kind === 'procedure' && planned(el)
            ? marks.planned
            : null;
      if (kind === 'procedure') keepProcedureTime(el);
      if (!set) continue;
      const id = randomUUID();
      set.add(id);
      el.id = [{ '@_root': id }];
    }
  }
}

/** A procedure the document orders, plans or proposes (moodCode other than EVN): the converter reads it as one done. */
function planned(el: Node): boolean {
  const mood = el['@_moodCode'];
  return typeof mood === 'string' && mood !== 'EVN';
}

/**
 * The converter reads a procedure's time only as a low/high interval: a single `effectiveTime
 * value` (HL7's CCD 1 writes its procedures so) would arrive without a date. It becomes the
 * interval's start, which the FHIR path reads as the procedure's date.
 */
function keepProcedureTime(el: Node): void {
  const time = list(el.effectiveTime)[0];
  if (!time || typeof time['@_value'] !== 'string' || time.low || time.high) return;
  const { '@_value': value, ...rest } = time;
  el.effectiveTime = [{ ...rest, low: { '@_value': value } }];
}

function twoDigits(v: number): string {
  return String(v).padStart(2, '0');
}

/**
 * The converter turns `2024` and `202403` into 2024-01-01: each such value is replaced by a unique
 * full stand-in (year 0001, one minute apart) that is mapped back to `2024` / `2024-03` afterwards.
 */
function markDates(node: unknown, marks: Marks, key = ''): void {
  if (Array.isArray(node)) {
    for (const item of node) markDates(item, marks, key);
    return;
  }
  if (!isNode(node)) return;
  const value = node['@_value'];
  if (TIME_KEYS.has(key) && typeof value === 'string' && /^\d{4}(\d{2})?$/.test(value)) {
    const minute = marks.dates.size + 1;
    const stand = `0001-01-${twoDigits(1 + Math.floor(minute / 1440))}T${twoDigits(Math.floor(minute / 60) % 24)}:${twoDigits(minute % 60)}`;
    marks.dates.set(stand, value.length === 4 ? value : `${value.slice(0, 4)}-${value.slice(4, 6)}`);
    node['@_value'] = stand.replace(/[-T:]/g, '');
  }
  for (const [k, v] of Object.entries(node)) if (!k.startsWith('@_')) markDates(v, marks, k);
}

function sectionsOf(ccda: Node): Node[] {
  const body = list(ccda.component).flatMap((c) => list(c.structuredBody));
  const out: Node[] = [];
  const walk = (components: Node[]) => {
    for (const c of components) {
      for (const s of list(c.section)) {
        out.push(s);
        walk(list(s.component));
      }
    }
  };
  walk(body.flatMap((b) => list(b.component)));
  return out;
}

function restoreDates(value: unknown, dates: Map<string, string>): unknown {
  if (typeof value === 'string') {
    if (!value.startsWith('0001-01-')) return value;
    return dates.get(value.slice(0, 16)) ?? value;
  }
  if (Array.isArray(value)) return value.map((v) => restoreDates(v, dates));
  if (isNode(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, restoreDates(v, dates)]));
  return value;
}

const REFUTED = (system: string) => ({ coding: [{ system, code: 'refuted' }] });

/** A negated resource as FHIR says "not": not-done, refuted — or left out when its type has no such word. */
function negate(resource: Node, leftOut: LeftOut[]): Node | null {
  switch (resource.resourceType) {
    case 'Immunization':
    case 'Procedure':
      return { ...resource, status: 'not-done' };
    case 'AllergyIntolerance':
      return { ...resource, verificationStatus: REFUTED('http://terminology.hl7.org/CodeSystem/allergyintolerance-verification') };
    case 'Condition':
      return { ...resource, verificationStatus: REFUTED('http://terminology.hl7.org/CodeSystem/condition-ver-status') };
    default:
      leftOut.push({ type: String(resource.resourceType), reason: NEGATED });
      return null;
  }
}

/**
 * A checked ClinicalDocument's text as a FHIR Bundle Kinchart's FHIR import reads, with what was
 * left out of it (for the import report: addLeftOut).
 */
export function ccdaToBundle(xml: string): { bundle: unknown; leftOut: LeftOut[] } {
  let ccda: Node;
  try {
    ccda = convertXmlToCcda(xml) as unknown as Node;
  } catch {
    throw badRequest('The C-CDA document could not be read.');
  }
  // C-CDA requires the patient (recordTarget/patientRole): without one nothing says whose record it is.
  if (!isNode(ccda) || !list(ccda.recordTarget).some((r) => isNode(list(r.patientRole)[0])))
    throw badRequest('The C-CDA document names no patient (recordTarget).');
  const marks: Marks = { negated: new Set(), noInformation: new Set(), planned: new Set(), dates: new Map(), leftOut: [] };
  for (const section of sectionsOf(ccda)) {
    // "No information" (nullFlavor on the section): nothing in it is a statement about the patient.
    const noInformation = typeof section['@_nullFlavor'] === 'string';
    for (const entry of list(section.entry)) markEntry(entry, marks, noInformation);
  }
  markDates(ccda.component, marks, 'component');
  let bundle: Node;
  try {
    bundle = convertCcdaToFhir(ccda as never) as unknown as Node;
  } catch {
    throw badRequest('The C-CDA document could not be converted: it is not a complete ClinicalDocument.');
  }
  const entries = list(bundle.entry).flatMap((e) => {
    const resource = isNode(e.resource) ? e.resource : null;
    if (!resource) return [];
    const id = typeof resource.id === 'string' ? resource.id : '';
    if (marks.noInformation.has(id)) {
      marks.leftOut.push({ type: String(resource.resourceType), reason: NO_INFORMATION });
      return [];
    }
    if (marks.planned.has(id)) {
      marks.leftOut.push({ type: String(resource.resourceType), reason: PLANNED });
      return [];
    }
    const fixed = marks.negated.has(id) ? negate(resource, marks.leftOut) : resource;
    return fixed ? [{ ...e, resource: restoreDates(fixed, marks.dates) }] : [];
  });
  return { bundle: { ...bundle, entry: entries }, leftOut: marks.leftOut };
}

/** What ccdaToBundle left out, added to the FHIR path's report rows and `skipped` lines in their words. */
export function addLeftOut(
  result: { report: ImportReportRow[]; skipped: string[] },
  leftOut: LeftOut[],
): { report: ImportReportRow[]; skipped: string[] } {
  const report = result.report.map((r) => ({ ...r, dropped: [...r.dropped] }));
  const lines = new Map<string, number>();
  for (const { type, reason } of leftOut) {
    let row = report.find((r) => r.resource_type === type);
    if (!row) {
      row = { resource_type: type, imported: 0, merged: 0, already_present: 0, dropped: [], parts_left_out: [] };
      report.push(row);
    }
    const drop = row.dropped.find((d) => d.reason === reason);
    if (drop) drop.count += 1;
    else row.dropped.push({ reason, count: 1 });
    lines.set(`${type} ${reason}`, (lines.get(`${type} ${reason}`) ?? 0) + 1);
  }
  return { report, skipped: [...[...lines].map(([line, n]) => `${n} ${line}`), ...result.skipped] };
}
