import { describe, expect, it } from 'vitest';
import { clampLines } from './pdf-text';

// Issue 30 item 28: text cut to fit a card ends between words with an ellipsis.
const chars = (s: string) => s.length;

describe('clampLines', () => {
  it('ends the last kept line between words with an ellipsis when the ellipsis would not fit after the last word', () => {
    expect(clampLines(['alpha beta', 'gamma delta', 'epsilon'], 2, 11, chars)).toEqual(['alpha beta', 'gamma…']);
  });

  it('keeps the whole last line when the ellipsis fits after it', () => {
    expect(clampLines(['alpha beta', 'gamma', 'delta'], 2, 11, chars)).toEqual(['alpha beta', 'gamma…']);
  });

  it('leaves text that fits alone', () => {
    expect(clampLines(['alpha', 'beta'], 2, 11, chars)).toEqual(['alpha', 'beta']);
  });

  it('cuts a single word that is longer than the line, since there is no boundary to cut at', () => {
    expect(clampLines(['abcdefghijk', 'more'], 1, 6, chars)).toEqual(['abcde…']);
  });
});
