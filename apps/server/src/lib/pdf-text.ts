import { createRequire } from 'node:module';
import fs from 'node:fs';

// Text on generated PDFs and images (the emergency card, its images, the vaccination record):
// one font and one way to wrap lines.

/**
 * DejaVu Sans covers Latin, Greek, Cyrillic and more, so names in those scripts print as typed.
 * Resolved from node_modules at run time: the bundle keeps packages external.
 */
const require = createRequire(import.meta.url);
let fonts: { regular: string; bold: string } | null = null;
export function fontPaths(): { regular: string; bold: string } {
  fonts ??= {
    regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
    bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
  };
  return fonts;
}

let fontBytes: { regular: Buffer; bold: Buffer } | null = null;
export function fontData(): { regular: Buffer; bold: Buffer } {
  const paths = fontPaths();
  fontBytes ??= { regular: fs.readFileSync(paths.regular), bold: fs.readFileSync(paths.bold) };
  return fontBytes;
}

/** Greedy word wrap with a measuring function; a word longer than a line is cut. */
export function wrap(text: string, maxWidth: number, width: (s: string) => number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (width(candidate) <= maxWidth) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    let rest = word;
    while (width(rest) > maxWidth && rest.length > 1) {
      let cut = rest.length - 1;
      while (cut > 1 && width(rest.slice(0, cut)) > maxWidth) cut -= 1;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    line = rest;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * Keeps at most `max` lines, ending the last kept one with an ellipsis when some were dropped. The
 * ellipsis goes after a whole word: words are dropped from the end until it fits, and only a single
 * word wider than the line is cut inside (issue 30: never "Penicil…").
 */
export function clampLines(lines: string[], max: number, maxWidth: number, width: (s: string) => number): string[] {
  if (lines.length <= max) return lines;
  const kept = lines.slice(0, max);
  const words = (kept[max - 1] ?? '').split(' ').filter(Boolean);
  while (words.length > 1 && width(`${words.join(' ')}…`) > maxWidth) words.pop();
  let last = `${words.join(' ').replace(/[,;:]$/, '')}…`;
  while (last.length > 1 && width(last) > maxWidth) last = `${last.slice(0, -2)}…`;
  kept[max - 1] = last;
  return kept;
}
