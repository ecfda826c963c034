import { foldText } from '../../lib/text-fold';

// The search box's language (issue 33, docs/decisions/0048), parsed here and never handed to a
// full-text engine as typed: words (all must match), "quoted phrases", every bare word of two or
// more characters a prefix ("ferrit" finds ferritin; a single character is a whole word), case and
// accents ignored. Anything else — operators, brackets, punctuation — only separates words.

/** One word or phrase to find; `words` are as typed (lower case), `folded` as compared for highlights. */
export interface SearchTerm {
  words: string[];
  folded: string[];
  /** The last word may begin a longer word. */
  prefix: boolean;
}

/** At most this many terms: a 200-character query cannot need more, and each costs the engine. */
const MAX_TERMS = 32;
/** Runs of letters, digits and combining marks: what both engines call a word. Linear: one class, one quantifier. */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const QUOTES = new Set(['"', '\u201c', '\u201d', '\u201e', '\u00ab', '\u00bb']);

export const wordsOf = (text: string): string[] => text.toLowerCase().match(WORD) ?? [];

/** The terms of `q`; empty when it holds no word at all. */
export function parseSearch(q: string): SearchTerm[] {
  const terms: SearchTerm[] = [];
  const seen = new Set<string>();
  const add = (words: string[], prefix: boolean) => {
    if (words.length === 0 || terms.length >= MAX_TERMS) return;
    const folded = words.map(foldText);
    const key = `${prefix ? '*' : '='}${folded.join(' ')}`;
    if (seen.has(key)) return;
    seen.add(key);
    terms.push({ words, folded, prefix });
  };
  let bare = '';
  let quoted: string | null = null;
  const flushBare = () => {
    for (const word of wordsOf(bare)) add([word], word.length >= 2);
    bare = '';
  };
  for (const ch of q) {
    if (QUOTES.has(ch)) {
      if (quoted === null) {
        flushBare();
        quoted = '';
      } else {
        add(wordsOf(quoted), false);
        quoted = null;
      }
    } else if (quoted === null) bare += ch;
    else quoted += ch;
  }
  // An unclosed quote quotes to the end.
  if (quoted !== null) add(wordsOf(quoted), false);
  flushBare();
  return terms;
}

/** A token of the FTS5 query: one quoted string, so nothing in it is syntax. */
const ftsString = (text: string) => `"${text.replace(/"/g, '""')}"`;

/**
 * The FTS5 MATCH expression: one of the reader's scope tokens (and the kind's token when one kind
 * is asked for), and every term in the heading or the body. Words are letters and digits only,
 * quoted besides; the tokens are letters and hex digits.
 */
export function ftsExpression(terms: readonly SearchTerm[], scopes: readonly string[], kindToken?: string): string {
  const scope = scopes.map(ftsString).join(' OR ');
  const kind = kindToken === undefined ? '' : ` AND {scope} : ${ftsString(kindToken)}`;
  const query = terms.map((t) => `${ftsString(t.words.join(' '))}${t.prefix ? '*' : ''}`).join(' AND ');
  return `{scope} : (${scope})${kind} AND {heading body} : (${query})`;
}
