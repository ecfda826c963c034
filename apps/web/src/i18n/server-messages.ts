import { i18n } from '@lingui/core';
import { MESSAGES, formatMessage, messageCode } from '@kinchart/shared/messages';
import type { MessageCode } from '@kinchart/shared/messages';
import { SERVER_MESSAGES } from './server-messages.generated';

// Issue 35 (docs/decisions/0054): the server keeps its English `message` (the SPEC's texts) and adds
// a stable `code` (and `params`) for each; the reader sees the code's text from their catalog
// (ids `server.<code>`, written from packages/shared/src/messages.ts by scripts/gen-server-messages.mjs).

// Not lib/api-client's isRecord: api-client's serverMessage() reads through this module (no cycle).
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

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

function stringParams(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  return Object.fromEntries(Object.entries(value).flatMap(([name, v]) => (typeof v === 'string' ? [[name, v]] : [])));
}

/** The text of a server answer (error or success) in the reader's language; its English message if the code is unknown. */
export function serverText(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  const { message, code } = body;
  const english = typeof message === 'string' && message !== '' ? message : undefined;
  if (typeof code === 'string') return translate(code, stringParams(body.params)) ?? english;
  // An answer without a code (an older server): its English text, translated when it is a known one.
  return english === undefined ? undefined : translateMessageText(english);
}

/**
 * An English text the shared rules produce (a zod message from packages/shared, shown under a
 * field before anything is sent) in the reader's language; the text itself if it is not known.
 */
export function translateMessageText(text: string): string {
  const coded = messageCode(text);
  return (coded && translate(coded.code, coded.params ?? {})) ?? text;
}
