import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SEARCH_QUERY_MAX } from '@kinchart/shared/search';
import { foldText } from '../../lib/text-fold';
import { ftsExpression, parseSearch } from './search-query';
import { snippetOf } from './search-snippet';

// The query language is parsed, never passed through (docs/decisions/0048): whatever is typed, the
// engine sees quoted words only, and no input makes the parser, the fold or the snippet slow.

const SCOPE = 'p0123456789abcdef0123456789abcdefu0123456789abcdef0123456789abcdef';
const WORD = /^[\p{L}\p{N}\p{M}]+$/u;
/** Characters a user may type, engine syntax weighted in. */
const typed = fc.string({
  unit: fc.oneof(
    fc.constantFrom(
      '"',
      '“',
      '”',
      '*',
      ':',
      '(',
      ')',
      '{',
      '}',
      '^',
      '-',
      '+',
      '|',
      '&',
      '!',
      "'",
      '\\',
      ' ',
      'NEAR',
      'OR',
      'AND',
      'é',
      'ß',
      '\u0301',
    ),
    fc.string({ unit: 'grapheme', maxLength: 3 }),
  ),
  maxLength: SEARCH_QUERY_MAX,
});

describe('parseSearch', () => {
  it('keeps words, phrases and prefixes', () => {
    expect(parseSearch('Ferrit "blood Count" x')).toEqual([
      { words: ['ferrit'], folded: ['ferrit'], prefix: true },
      { words: ['blood', 'count'], folded: ['blood', 'count'], prefix: false },
      { words: ['x'], folded: ['x'], prefix: false },
    ]);
    expect(parseSearch('Pénicilline')[0]).toEqual({ words: ['pénicilline'], folded: ['penicilline'], prefix: true });
    expect(parseSearch('covid-19 OR (x)').map((t) => t.words)).toEqual([['covid'], ['19'], ['or'], ['x']]);
    expect(parseSearch('"unclosed phrase')).toEqual([{ words: ['unclosed', 'phrase'], folded: ['unclosed', 'phrase'], prefix: false }]);
    expect(parseSearch('?! *')).toEqual([]);
    expect(ftsExpression(parseSearch('ferrit "a b"'), [SCOPE])).toBe(`{scope} : ("${SCOPE}") AND {heading body} : ("ferrit"* AND "a b")`);
  });

  it('gives the engine nothing but quoted words, whatever is typed', () => {
    fc.assert(
      fc.property(typed, (q) => {
        const terms = parseSearch(q);
        expect(terms.length).toBeLessThanOrEqual(32);
        for (const term of terms) for (const word of term.words) expect(word).toMatch(WORD);
        if (terms.length === 0) return;
        const expression = ftsExpression(terms, [SCOPE]);
        // Between the quoted strings only the syntax ftsExpression writes itself.
        const outside = expression.replace(/"[^"]*"/g, '""');
        expect(outside).toMatch(/^\{scope\} : \(""\) AND \{heading body\} : \(""\*?( AND ""\*?)*\)$/);
      }),
      { seed: 20_261_127, numRuns: 500 },
    );
  });

  it('folds to the same length, and every highlight lies inside the snippet on a matched word', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 400 }), typed, (text, q) => {
        expect(foldText(text).length).toBe(text.length);
        const terms = parseSearch(q);
        const found = snippetOf(text, terms);
        if (!found) return;
        for (const [start, end] of found.highlights) {
          expect(0 <= start && start < end && end <= found.snippet.length).toBe(true);
          const folded = foldText(found.snippet.slice(start, end));
          expect(terms.some((t) => folded.includes(t.folded[0]!))).toBe(true);
        }
      }),
      { seed: 20_261_127, numRuns: 300 },
    );
  });

  it('stays quick on long and hostile input', () => {
    const started = performance.now();
    parseSearch(`${'"a'.repeat(100)}`);
    parseSearch('a'.repeat(SEARCH_QUERY_MAX));
    parseSearch(`${'é\u0301'.repeat(100)}`);
    const text = `${'ferritin '.repeat(50_000)}\f${'x'.repeat(200_000)}`;
    const found = snippetOf(text, parseSearch('ferritin "ferritin ferritin" ferr'));
    expect(found?.page).toBe(1);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
