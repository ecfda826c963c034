import type { z } from 'zod';
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION, READABLE_EXPORT_VERSIONS } from '@kinchart/shared/export';
import { HttpError, badRequest } from '../../lib/http-errors';

// Reading an import's bytes (decision 0004): which kind of file it is, its JSON (UTF-8, storable
// text only), the export's format and version, and the multipart plugin's failures as answers.

export type Kind = 'zip' | 'json';

export function kindOf(head: Buffer): Kind | null {
  if (head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && [0x03, 0x05, 0x07].includes(head[2]!)) return 'zip';
  let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (i < head.length && [0x20, 0x09, 0x0a, 0x0d].includes(head[i]!)) i += 1;
  return head[i] === 0x7b ? 'json' : null; // '{'
}

export function zodMessage(error: z.ZodError, where: string): string {
  const issue = error.issues[0];
  if (!issue) return `${where} is not valid.`;
  const path = issue.path.map(String).join('.');
  return `${where}${path ? ` ${path}` : ''}: ${issue.message}`;
}

// PostgreSQL refuses NUL in text, and an unpaired surrogate has no UTF-8 form (it would come back
// as U+FFFD): either would make an import fail late or change text, so both are refused up front.
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function parseJson(bytes: Buffer, what: string): unknown {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw badRequest(`${what} is not UTF-8 text.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    throw badRequest(`${what} is not valid JSON.`);
  }
  // JSON escapes (\u0000, \ud800) can still spell what UTF-8 cannot; a loop, since JSON nests deep.
  const unstorable = () => badRequest(`${what} holds text with a NUL character or a broken Unicode sequence.`);
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (UNSTORABLE.test(next)) throw unstorable();
    } else if (next !== null && typeof next === 'object') {
      for (const [key, item] of Object.entries(next)) {
        if (UNSTORABLE.test(key)) throw unstorable();
        pending.push(item);
      }
    }
  }
  return value;
}

/** An XML document's text: UTF-8 (what C-CDA portals send), storable (no NUL, no broken surrogate). */
export function readXmlText(bytes: Buffer): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw badRequest('The XML document is not UTF-8 text.');
  }
  if (UNSTORABLE.test(text)) throw badRequest('The XML document holds a NUL character or a broken Unicode sequence.');
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

/** The export's own format and version, checked before anything else so the message says that. */
export function checkFormat(raw: unknown): void {
  const doc = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as { format?: unknown; version?: unknown }) : {};
  if (doc.format !== EXPORT_FORMAT) throw badRequest(`kinchart.json is not a Kinchart export (its format is not "${EXPORT_FORMAT}").`);
  const { version } = doc;
  if (typeof version !== 'number' || !Number.isInteger(version)) throw badRequest('kinchart.json does not say which format version it is.');
  if (version > EXPORT_FORMAT_VERSION) {
    throw badRequest(
      `This export is format version ${version}, newer than this Kinchart can read (version ${EXPORT_FORMAT_VERSION}). Update Kinchart and import it again.`,
    );
  }
  if (!READABLE_EXPORT_VERSIONS.includes(version)) {
    throw badRequest(
      `This export is format version ${version}; this Kinchart reads versions ${Math.min(...READABLE_EXPORT_VERSIONS)} to ${EXPORT_FORMAT_VERSION}.`,
    );
  }
}

/** Multipart plugin failures as answers a person can act on. */
export function multipartError(error: unknown, tooLarge: () => HttpError): unknown {
  if (error instanceof HttpError) return error;
  const e = error as { code?: string; message?: string };
  if (e.code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge();
  if (e.code === 'FST_FILES_LIMIT') return badRequest('Send one file at a time');
  if (e.code === 'FST_FIELDS_LIMIT' || e.code === 'FST_PARTS_LIMIT') return badRequest('Too many form fields');
  if (e.code === 'FST_MP_PREMATURE_CLOSE') return badRequest('The upload was interrupted');
  if (!e.code && typeof e.message === 'string' && /multipart|boundary|part terminated|unexpected end/i.test(e.message))
    return badRequest('Malformed multipart body');
  return error;
}
