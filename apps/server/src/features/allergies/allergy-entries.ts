import type { Allergy, AllergyCriticality, AllergySeverity } from '@kinchart/shared/allergies';
import { ALLERGY_CRITICALITIES, ALLERGY_SEVERITIES, allergyLine } from '@kinchart/shared/allergies';
import type { Coding } from '@kinchart/shared/clinical';
import { detailsLines } from '@kinchart/shared/problem-lines';

// Issue 34, docs/decisions/0053: the rules that keep a person's allergy entries and the profile's
// `allergy_details` text in step, without SQL (allergies.repository.ts writes what these decide).

/** What an entry holds besides its id and place. */
export interface AllergyValues {
  substance: string;
  reactions: string[];
  severity: AllergySeverity | null;
  criticality: AllergyCriticality | null;
  codings: Coding[];
}

/** A stored entry, its JSON columns read. */
export interface AllergyEntry extends AllergyValues {
  id: string;
  position: number;
  created_at: string;
  updated_at: string;
}

/** One entry of the new list, in order: an existing entry kept (`id`), or a new one. */
export interface PlannedEntry {
  id: string | null;
  values: AllergyValues;
  /** A restored entry keeps its own stamps (a Kinchart export's); otherwise now. */
  stamps?: { created_at: string; updated_at: string };
}

/** The row as stored: reactions and codings are JSON texts; anything unreadable reads as none. */
export function entryOfRow(row: {
  id: string;
  substance: string;
  reactions: string;
  severity: string | null;
  criticality: string | null;
  codings: string;
  position: number;
  created_at: string;
  updated_at: string;
}): AllergyEntry {
  return {
    id: row.id,
    substance: row.substance,
    reactions: jsonList(row.reactions).filter((r): r is string => typeof r === 'string'),
    severity: (ALLERGY_SEVERITIES as readonly string[]).includes(row.severity ?? '') ? (row.severity as AllergySeverity) : null,
    criticality: (ALLERGY_CRITICALITIES as readonly string[]).includes(row.criticality ?? '')
      ? (row.criticality as AllergyCriticality)
      : null,
    codings: jsonList(row.codings).flatMap((c) =>
      isCoding(c) ? [{ system: c.system ?? null, code: c.code ?? null, display: c.display ?? null }] : [],
    ),
    position: row.position,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function jsonList(text: string): unknown[] {
  try {
    const list: unknown = JSON.parse(text);
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

function isCoding(c: unknown): c is { system?: string | null; code?: string | null; display?: string | null } {
  if (typeof c !== 'object' || c === null) return false;
  const o = c as Record<string, unknown>;
  const textOrNull = (v: unknown) => v === undefined || v === null || typeof v === 'string';
  return (
    textOrNull(o.system) && textOrNull(o.code) && textOrNull(o.display) && (typeof o.code === 'string' || typeof o.display === 'string')
  );
}

/** The API's answer for an entry (the response schema is the allowlist). */
export function allergyAnswer(e: AllergyEntry): Allergy {
  return { id: e.id, substance: e.substance, reactions: e.reactions, severity: e.severity, criticality: e.criticality, codings: e.codings };
}

/** The details text the entries make, one line each in their order; null when there are none. */
export function detailsOf(entries: readonly Pick<AllergyValues, 'substance' | 'reactions'>[]): string | null {
  return entries.length > 0 ? entries.map(allergyLine).join('\n') : null;
}

/** An entry made from a line nobody structured: the whole line is its substance. */
export function entryOfLine(line: string): AllergyValues {
  return { substance: line, reactions: [], severity: null, criticality: null, codings: [] };
}

/**
 * The entries once the details text reads `details` (docs/decisions/0053): a line equal to an
 * existing entry's line keeps that entry (its codings, reactions, severity…); a new line becomes
 * the entry `incoming` offers for exactly that line (an import's), else one whose substance is the
 * line; entries whose line is gone are left out; the order is the lines'.
 */
export function entriesForDetails(
  current: readonly AllergyEntry[],
  details: string | null,
  incoming: ReadonlyMap<string, AllergyValues> = new Map(),
): PlannedEntry[] {
  const unused = [...current];
  return detailsLines(details).map((line) => {
    const at = unused.findIndex((e) => allergyLine(e) === line);
    if (at >= 0) {
      const [kept] = unused.splice(at, 1) as [AllergyEntry];
      return { id: kept.id, values: kept };
    }
    return { id: null, values: incoming.get(line) ?? entryOfLine(line) };
  });
}

/** An entry as a Kinchart export carries it (with its stamps), or a version 2 file's line and codings. */
export interface RestoredAllergy extends AllergyValues {
  created_at?: string;
  updated_at?: string;
}

/**
 * The entries a restored person gets (docs/decisions/0053): one per line of the restored details
 * text, in order — the export's entry for exactly that line when it has one (reactions, severity,
 * codings and stamps kept), else one whose substance is the line. An older file without entries
 * gives its lines' codings (`legacy`, the version 2 `allergy_codings`) to the lines they name.
 */
export function restoredEntries(
  details: string | null,
  exported: readonly RestoredAllergy[] | undefined,
  legacy: readonly { text: string; codings: Coding[] }[] | null | undefined,
): PlannedEntry[] {
  const byLine = new Map<string, PlannedEntry>();
  for (const e of exported ?? []) {
    const { created_at, updated_at, ...values } = e;
    const line = allergyLine(values);
    if (!byLine.has(line))
      byLine.set(line, { id: null, values, ...(created_at && updated_at ? { stamps: { created_at, updated_at } } : {}) });
  }
  for (const l of legacy ?? []) {
    const line = l.text.trim();
    if (!byLine.has(line)) byLine.set(line, { id: null, values: { ...entryOfLine(line), codings: l.codings } });
  }
  return detailsLines(details).map((line) => byLine.get(line) ?? { id: null, values: entryOfLine(line) });
}

const normalSubstance = (s: string) => s.trim().toLowerCase().split(/\s+/).join(' ');
const codeKeys = (codings: readonly Coding[]) => codings.flatMap((c) => (c.system && c.code ? [`${c.system}|${c.code}`] : []));

/**
 * True when `a` names an allergy already among `have` (an import adds no duplicate, issue 34): the
 * same substance text (case and spacing aside), or a coding (system and code) in common.
 */
export function isKnownAllergy(a: AllergyValues, have: readonly AllergyValues[]): boolean {
  const substance = normalSubstance(a.substance);
  const codes = new Set(codeKeys(a.codings));
  return have.some((h) => normalSubstance(h.substance) === substance || codeKeys(h.codings).some((k) => codes.has(k)));
}
