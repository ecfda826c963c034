// Case and accents off, one UTF-16 unit for one (docs/decisions/0048): "Pénicilline" and
// "penicilline" fold alike, and an offset into the folded text is the same offset into the
// original, so search highlights computed on the fold line up with the text people read.

const MARKS = /\p{M}/gu;
const cache = new Map<string, string>();

/** One character folded: lower case, then its base letter when it decomposes into one plus marks. */
function foldUnit(ch: string): string {
  let folded = cache.get(ch);
  if (folded !== undefined) return folded;
  folded = ch;
  const lower = ch.toLowerCase();
  if (lower.length === 1) folded = lower;
  const base = folded.normalize('NFD').replace(MARKS, '');
  if (base.length === 1) folded = base;
  if (cache.size < 10_000) cache.set(ch, folded);
  return folded;
}

/** `text` folded unit by unit: same length, same offsets. Surrogate pairs (emoji, rare scripts) stay as they are. */
export function foldText(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x41) out += text[i];
    else if (code <= 0x5a) out += String.fromCharCode(code + 32);
    else if (code < 0x80 || (code >= 0xd800 && code <= 0xdfff)) out += text[i];
    else out += foldUnit(text[i]!);
  }
  return out;
}

/**
 * The accented Latin letters (U+00C0–U+024F, U+1E00–U+1EFF) and their base letters: PostgreSQL's
 * fallback fold uses them in translate() where the unaccent extension is not available.
 */
export function foldTable(): { from: string; to: string } {
  let from = '';
  let to = '';
  const ranges: [number, number][] = [
    [0xc0, 0x24f],
    [0x1e00, 0x1eff],
  ];
  for (const [start, end] of ranges) {
    for (let code = start; code <= end; code += 1) {
      const ch = String.fromCharCode(code);
      const lower = ch.toLowerCase();
      if (lower !== ch) continue; // lower() comes first
      const folded = foldUnit(ch);
      if (folded !== ch) {
        from += ch;
        to += folded;
      }
    }
  }
  return { from, to };
}
