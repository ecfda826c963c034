// Text a database cannot keep as sent: PostgreSQL refuses NUL in text (the query fails, a 500),
// and an unpaired UTF-16 surrogate has no UTF-8 form, so both drivers would store U+FFFD in its
// place (the text would come back changed). Refused at the door instead, on both dialects alike.
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSTORABLE_TEXT_MESSAGE = 'Text must not contain NUL characters or unpaired surrogates';

/** True when any string in `value` (object keys included, at any depth) could not be stored as sent. */
export function hasUnstorableText(value: unknown): boolean {
  // A loop, not recursion: a JSON body may be nested 100,000 levels deep.
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (UNSTORABLE.test(next)) return true;
    } else if (next !== null && typeof next === 'object') {
      for (const [key, item] of Object.entries(next)) {
        if (UNSTORABLE.test(key)) return true;
        pending.push(item);
      }
    }
  }
  return false;
}
