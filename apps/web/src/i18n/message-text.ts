import { i18n } from '@lingui/core';
import { MESSAGES, formatMessage, messageCode } from '@kinchart/shared/messages';
import type { MessageCode } from '@kinchart/shared/messages';
import { SERVER_MESSAGES } from './server-messages.generated';

import { lendRegistry } from './server-messages';

// Issue 35 (docs/decisions/0054): English texts of the shared rules (zod messages under a field)
// and server answers, through the message registry (packages/shared/src/messages.ts) to the
// reader's catalog (ids `server.<code>`, written by scripts/gen-server-messages.mjs). Loaded with
// the forms that need it, not in every page's first download; it lends the registry to
// ./server-messages.ts when it loads.

function isCode(code: string): code is MessageCode {
  return Object.hasOwn(SERVER_MESSAGES, code) && Object.hasOwn(MESSAGES, code);
}

/** A param that is itself a known message with no placeholders ("must be a real calendar date") is shown translated too. */
function translatedParams(params: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(params).map(([name, value]) => {
      const inner = messageCode(value);
      return [name, inner && !inner.params ? (translate(inner.code, {}) ?? value) : value];
    }),
  );
}

/** The code's text in the active language with its params; undefined for a code the app does not know. */
function translate(code: string, params: Record<string, string>): string | undefined {
  if (!isCode(code)) return undefined;
  const english = MESSAGES[code];
  const values = translatedParams(params);
  const id = SERVER_MESSAGES[code]?.id ?? `server.${code}`;
  // A catalog without the entry (not yet extracted) shows the registry's English, filled in.
  if (i18n.messages[id] === undefined) return formatMessage(english, values);
  return i18n._(id, values, { message: english });
}

/**
 * An English text the shared rules produce (a zod message from packages/shared, shown under a
 * field before anything is sent) in the reader's language; the text itself if it is not known.
 */
export function translateMessageText(text: string): string {
  const coded = messageCode(text);
  return (coded && translate(coded.code, coded.params ?? {})) ?? text;
}

lendRegistry({ code: translate, text: translateMessageText });
