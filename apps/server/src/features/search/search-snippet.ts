import { foldText } from '../../lib/text-fold';
import type { SearchTerm } from './search-query';

// A result's snippet (issue 33): about SNIPPET_CHARS of the original text around the best match,
// cut at whole words, with an ellipsis where text was left out, whitespace collapsed, and the
// [start, end) offsets of every matched word inside it. Matching runs on the folded text, whose
// offsets are the original's (lib/text-fold.ts), so highlights line up with what people read.

export const SNIPPET_CHARS = 180;
/** Text kept before the first match of the window. */
const LEAD = 40;
/** Matches looked at in one text: enough to find a good window, bounded for a very long file. */
const MAX_MATCHES = 400;
const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const PAGE_BREAK = '\f';
const ELLIPSIS = '…';

export interface Snippet {
  snippet: string;
  highlights: [number, number][];
  /** The page the snippet is on (from 1): form feeds before it, plus one. */
  page: number;
}

interface Token {
  start: number;
  end: number;
  word: string;
}

interface Match {
  start: number;
  end: number;
  term: number;
}

function tokensOf(folded: string): Token[] {
  const tokens: Token[] = [];
  for (const m of folded.matchAll(WORD)) tokens.push({ start: m.index, end: m.index + m[0].length, word: m[0] });
  return tokens;
}

function matchesOf(tokens: readonly Token[], terms: readonly SearchTerm[]): Match[] {
  const matches: Match[] = [];
  for (let i = 0; i < tokens.length && matches.length < MAX_MATCHES; i += 1) {
    terms.forEach((term, t) => {
      const n = term.folded.length;
      if (i + n > tokens.length) return;
      for (let k = 0; k < n; k += 1) {
        const word = tokens[i + k]!.word;
        const want = term.folded[k]!;
        const last = k === n - 1;
        if (!(word === want || (last && term.prefix && word.startsWith(want)))) return;
      }
      matches.push({ start: tokens[i]!.start, end: tokens[i + n - 1]!.end, term: t });
    });
  }
  return matches;
}

/** The match whose window holds the most different terms (then the most matches), earliest first. */
function bestMatch(matches: readonly Match[]): number {
  let best = 0;
  let bestScore = -1;
  for (let i = 0; i < matches.length; i += 1) {
    const terms = new Set<number>();
    let count = 0;
    for (let j = i; j < matches.length && matches[j]!.end <= matches[i]!.start + SNIPPET_CHARS - LEAD; j += 1) {
      terms.add(matches[j]!.term);
      count += 1;
    }
    const score = terms.size * 1000 + count;
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  }
  return best;
}

const isSpace = (ch: string) => ch === ' ' || ch === '\n' || ch === '\r' || ch === '\t' || ch === '\f' || ch === '\v' || ch === '\u00a0';

/**
 * The snippet of `text` for `terms`, or null when no term occurs in it (the engine may match what
 * the fold here does not: then the caller shows the text's start). `text` may hold '\f' page breaks.
 */
export function snippetOf(text: string, terms: readonly SearchTerm[]): Snippet | null {
  const tokens = tokensOf(foldText(text));
  const matches = matchesOf(tokens, terms);
  if (matches.length === 0) return null;
  return windowAt(text, tokens, matches, matches[bestMatch(matches)]!.start);
}

/** The start of `text` as a snippet, without highlights: for a result whose words this fold did not find. */
export function leadOf(text: string): Snippet {
  const firstWord = text.search(/\S/);
  return windowAt(text, tokensOf(foldText(text)), [], firstWord < 0 ? 0 : firstWord);
}

function windowAt(text: string, tokens: readonly Token[], matches: readonly Match[], at: number): Snippet {
  const pageStart = text.lastIndexOf(PAGE_BREAK, at - 1) + 1;
  const nextBreak = text.indexOf(PAGE_BREAK, at);
  const pageEnd = nextBreak < 0 ? text.length : nextBreak;
  // Start at a word's start at most LEAD before the match; end at a word's end.
  let start = Math.max(pageStart, at - LEAD);
  const inside = tokens.find((t) => t.end > start);
  if (inside && inside.start < start) start = Math.min(inside.end, at);
  let end = Math.min(pageEnd, start + SNIPPET_CHARS);
  const cut = tokens.find((t) => t.end > end);
  if (cut && cut.start < end && cut.start > at) end = cut.start;
  while (end > start && isSpace(text[end - 1]!)) end -= 1;
  while (start < end && isSpace(text[start]!)) start += 1;

  let snippet = text.slice(pageStart, start).trim() === '' ? '' : ELLIPSIS;
  const at0 = new Map<number, number>();
  let lastSpace = false;
  for (let i = start; i < end; i += 1) {
    const ch = text[i]!;
    at0.set(i, snippet.length);
    if (isSpace(ch)) {
      if (!lastSpace) snippet += ' ';
      lastSpace = true;
    } else {
      snippet += ch;
      lastSpace = false;
    }
  }
  at0.set(end, snippet.length);
  if (text.slice(end, pageEnd).trim() !== '') snippet += ELLIPSIS;

  const highlights: [number, number][] = [];
  for (const m of matches) {
    if (m.start < start || m.end > end) continue;
    const from = at0.get(m.start)!;
    const to = at0.get(m.end)!;
    const last = highlights[highlights.length - 1];
    if (last && from < last[1]) last[1] = Math.max(last[1], to);
    else highlights.push([from, to]);
  }
  let page = 1;
  for (let i = text.indexOf(PAGE_BREAK); i >= 0 && i < start; i = text.indexOf(PAGE_BREAK, i + 1)) page += 1;
  return { snippet, highlights, page };
}
