import { i18n } from '@lingui/core';

// Issue 35 (docs/decisions/0054): the server keeps its English `message` (the SPEC's texts) and adds
// a stable `code` (and `params`) for each; the reader sees the code's text from their catalog
// (ids `server.<code>`: the `server` part of the catalog, decision 0056).
//
// This module is in the first download of every page, so it holds no message registry: the code
// is looked up in the catalog. The registry (packages/shared/src/messages.ts) comes with the
// forms that need it (./message-text.ts), which then lend it here: params that are themselves
// known messages are translated too, and answers without a code are matched by their text.

// Not lib/api-client's isRecord: api-client's serverMessage() reads through this module (no cycle).
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface FullTranslation {
  /** The code's text with its params (params that are known messages translated); undefined for an unknown code. */
  code(code: string, params: Record<string, string>): string | undefined;
  /** An English text matched to its code, translated; the text itself when unknown. */
  text(text: string): string;
}
let full: FullTranslation | null = null;

/** Called by ./message-text.ts when it loads. */
export function lendRegistry(translation: FullTranslation): void {
  full = translation;
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
  if (typeof code === 'string') {
    const params = stringParams(body.params);
    if (full) return full.code(code, params) ?? english;
    const id = `server.${code}`;
    return i18n.messages[id] === undefined ? english : i18n._(id, params);
  }
  // An answer without a code (an older server): its English text, translated when it is a known one.
  return english === undefined || !full ? english : full.text(english);
}
