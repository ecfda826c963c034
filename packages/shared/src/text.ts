/**
 * Linear-time trimming of a set of characters from a string's end. A regular expression such as
 * `/[. ]+$/` re-scans every run of those characters that is not at the end, which is quadratic on
 * input made of such runs (DESIGN §3: no super-linear regular expressions on user input).
 */
export function trimEndChars(value: string, chars: string): string {
  let end = value.length;
  while (end > 0 && chars.includes(value[end - 1] ?? '')) end -= 1;
  return value.slice(0, end);
}

/** The same at the start. */
export function trimStartChars(value: string, chars: string): string {
  let start = 0;
  while (start < value.length && chars.includes(value[start] ?? '')) start += 1;
  return value.slice(start);
}

/**
 * Control characters, format characters (Unicode Cf: bidi embeddings, overrides and isolates such
 * as U+202E, directional marks, zero-width spaces, the BOM …) and line/paragraph separators — none
 * visible, some able to make `invoice\u202Efdp.exe` read as "invoice exe.pdf". Zero-width
 * non-joiner and joiner stay: Persian, Indic scripts and emoji sequences need them.
 */
const INVISIBLE = /(?![\u200C\u200D])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** Each invisible character replaced: the one rule for text bound for a header, a file name or a notice. */
export function replaceInvisible(value: string, replacement: string): string {
  return value.replace(INVISIBLE, replacement);
}

/** A name as it is stored and shown: without invisible characters. */
export function stripInvisible(value: string): string {
  return replaceInvisible(value, '');
}
