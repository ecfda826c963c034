import type { AllergyCoding } from '@kinchart/shared/export';
import { allergyCodingSchema } from '@kinchart/shared/export';
import type { Coding } from '@kinchart/shared/clinical';

// A profile's allergies are lines of its free-text `allergy_details`, which the SPEC's screens and
// the emergency page read. `profiles.allergy_codings` keeps beside them the codings an import
// brought for a line (DESIGN §12, decision 0023): an entry applies to the line that reads exactly
// its text. Editing the details leaves the column alone — an entry whose line is gone simply no
// longer applies. The column is internal: no profile answer carries it.

/** The lines of a details text as the IPS export writes them: each non-empty line, trimmed. */
export function detailLines(text: string | null): string[] {
  return (text ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** The column as a list; anything unreadable reads as none, an unreadable entry as absent (never an error for the owner). */
export function parseAllergyCodings(text: string | null): AllergyCoding[] {
  if (!text) return [];
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry: unknown) => {
    const parsed = allergyCodingSchema.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}

/** The column's value for `list`: null when it holds nothing. */
export function allergyCodingsColumn(list: readonly AllergyCoding[] | null | undefined): string | null {
  if (!list?.length) return null;
  return JSON.stringify(
    list.map((e) => ({ text: e.text, codings: e.codings.map((c) => ({ system: c.system, code: c.code, display: c.display })) })),
  );
}

/** The codings of the entry for `line`, if there is one. */
export function codingsOfLine(list: readonly AllergyCoding[], line: string): Coding[] {
  return list.find((e) => e.text === line)?.codings ?? [];
}

/**
 * The entries once `details` holds the lines `added` (each with the codings its resource came
 * with): those of `current` whose line is still there, then one for each added line that is a line
 * of `details` and has none yet — so importing the same allergies again adds no entry.
 */
export function withAddedLines(
  current: readonly AllergyCoding[],
  details: string | null,
  added: readonly AllergyCoding[],
): AllergyCoding[] {
  const lines = new Set(detailLines(details));
  const kept = current.filter((e) => lines.has(e.text));
  for (const a of added) {
    const text = a.text.trim();
    if (a.codings.length > 0 && lines.has(text) && !kept.some((e) => e.text === text)) kept.push({ text, codings: a.codings });
  }
  return kept;
}
