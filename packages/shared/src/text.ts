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
