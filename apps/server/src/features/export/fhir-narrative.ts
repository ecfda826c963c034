import { escapeHtml } from '../../lib/html';
import type { Json } from './fhir-common';

// Section narratives of the IPS document (docs/decisions/0023-ips-document-export.md): what a
// clinician reads when their system shows the summary without its coded entries — so they list
// the items themselves (names, dates, doses), never a count. FHIR narrative is XHTML: every value
// is escaped, and characters XML cannot carry are dropped.

// XML 1.0 allows tab, line feed, carriage return and everything from U+0020 except U+FFFE/U+FFFF.
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** A value as XHTML text: escaped, without what XML cannot carry, and each line break (CRLF, LF, CR) a `<br/>`. */
const cell = (value: string | number | null | undefined) =>
  escapeHtml(value === null || value === undefined ? '' : String(value).replace(NOT_XML, '')).replace(/\r\n|\r|\n/g, '<br/>');

const xhtml = (body: string): Json => ({ status: 'generated', div: `<div xmlns="http://www.w3.org/1999/xhtml">${body}</div>` });

/** One table: a header row and a row per item. */
export function tableNarrative(headers: readonly string[], rows: readonly (readonly (string | number | null | undefined)[])[]): Json {
  const head = `<thead><tr>${headers.map((h) => `<th>${cell(h)}</th>`).join('')}</tr></thead>`;
  const body = `<tbody>${rows.map((r) => `<tr>${r.map((v) => `<td>${cell(v)}</td>`).join('')}</tr>`).join('')}</tbody>`;
  return xhtml(`<table>${head}${body}</table>`);
}

/** A list of statements ("Organ donor", "Has a living will"). */
export const listNarrative = (items: readonly string[]): Json => xhtml(`<ul>${items.map((i) => `<li>${cell(i)}</li>`).join('')}</ul>`);

/** One sentence, for a section with nothing to list ("No information about allergies."). */
export const sentenceNarrative = (text: string): Json => xhtml(`<p>${cell(text)}</p>`);
