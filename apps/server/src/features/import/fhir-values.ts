import type { Coding } from '@kinchart/shared/clinical';
import { partialDateOf } from '@kinchart/shared/clinical';
import { stripInvisible } from '@kinchart/shared/text';
import type { ParsedEntry } from './fhir-bundle';

// Small readers of FHIR data types shared by the import's planners (fhir-plan.ts,
// fhir-clinical.ts, fhir-dosage.ts): texts, codings, dates and references inside one bundle.

export type CC = {
  text?: string | undefined;
  coding?: { system?: string | undefined; code?: string | undefined; display?: string | undefined }[] | undefined;
};
export type Ref = { reference?: string | undefined; display?: string | undefined } | undefined;

export const clean = (s: string | undefined | null): string | null => (s && s.trim() ? s.trim() : null);

/** The text a person reads for a CodeableConcept: its text, else a coding's display, else a code. */
export function ccText(cc: CC | undefined): string | null {
  if (!cc) return null;
  return clean(cc.text) ?? clean(cc.coding?.find((c) => clean(c.display))?.display) ?? clean(cc.coding?.find((c) => clean(c.code))?.code);
}

/** Text cut to `max` characters (an ellipsis says it was cut), invisible characters removed. */
export function clip(text: string | null, max: number): string | null {
  const t = text === null ? null : clean(stripInvisible(text));
  if (t === null || t.length <= max) return t;
  return `${t.slice(0, max - 1).trimEnd()}…`;
}

/** The codings of a CodeableConcept as Kinchart keeps them (DESIGN §12), at most 20, each with a code or a display. */
export function codingsOf(cc: CC | undefined): Coding[] {
  return (cc?.coding ?? [])
    .map((c) => ({ system: clip(c.system ?? null, 500), code: clip(c.code ?? null, 200), display: clip(c.display ?? null, 500) }))
    .filter((c) => c.code !== null || c.display !== null)
    .slice(0, 20);
}

/** A calendar date of a FHIR date or dateTime, as precise as it was given (`2015`, `2015-03`, `2015-03-14`). */
export const partialDate = (...values: (string | undefined)[]): string | null => {
  for (const v of values) {
    const d = partialDateOf(v);
    if (d) return d;
  }
  return null;
};

/** A full calendar date (YYYY-MM-DD) of a FHIR date or dateTime; null for `2015` or `2015-03`. */
export const fullDate = (v: string | undefined): string | null => (v && /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : null);

/** Annotation texts, one a line. */
export function notesOf(notes: { text: string }[] | undefined): string | null {
  return clean(
    (notes ?? [])
      .map((n) => n.text.trim())
      .filter(Boolean)
      .join('\n'),
  );
}

export function hasCode(cc: CC | undefined, codes: readonly string[]): boolean {
  return !!cc?.coding?.some((c) => c.code && codes.includes(c.code));
}

/**
 * Finds the entries a reference points at inside the bundle: by fullUrl (`urn:uuid:…`, an absolute
 * URL) or as `Type/id` (relative, or the end of an absolute URL). References that leave the bundle
 * find nothing: an import never fetches.
 */
export function createResolver(entries: ParsedEntry[]) {
  const byKey = new Map<string, ParsedEntry>();
  for (const e of entries) {
    if (e.fullUrl) byKey.set(e.fullUrl, e);
    if (e.resource.id) byKey.set(`${e.resource.resourceType}/${e.resource.id}`, e);
  }
  return (ref: string | undefined, type?: string): ParsedEntry | undefined => {
    if (!ref) return undefined;
    let found = byKey.get(ref);
    if (!found) {
      const parts = ref.split('/');
      if (parts.length >= 2) found = byKey.get(`${parts[parts.length - 2]}/${parts[parts.length - 1]}`);
    }
    return found && (!type || found.resource.resourceType === type) ? found : undefined;
  };
}
export type Resolver = ReturnType<typeof createResolver>;

export type Name = {
  text?: string | undefined;
  family?: string | undefined;
  given?: string[] | undefined;
  prefix?: string[] | undefined;
  suffix?: string[] | undefined;
  use?: string | undefined;
};

export function nameText(n: Name | undefined): string | null {
  if (!n) return null;
  return clean(n.text) ?? clean([...(n.prefix ?? []), ...(n.given ?? []), n.family ?? '', ...(n.suffix ?? [])].filter(Boolean).join(' '));
}

export function bestName(names: Name[] | undefined): string | null {
  if (!names?.length) return null;
  const preferred = names.find((n) => n.use === 'official') ?? names.find((n) => n.use === 'usual') ?? names[0];
  return nameText(preferred);
}
