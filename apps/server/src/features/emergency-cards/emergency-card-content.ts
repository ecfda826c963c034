import { createRequire } from 'node:module';
import fs from 'node:fs';
import QRCode from 'qrcode';
import type { EmergencyEssentials } from '@kinchart/shared/emergency';

/** What every download draws: the person, their code and (when the owner opted in) the essentials (DESIGN §7). */
export interface CardInput {
  name: string;
  qrData: string;
  essentials: EmergencyEssentials | null;
  /** Printed on the wallet card only, and only when the owner typed the right PIN. */
  pin: string | null;
  paper: 'a4' | 'letter';
}

export const CAPTION = 'Medical information — scan with a phone camera';

/** The code's modules, error correction H (DESIGN §7: the code must survive a scratched card). */
export function qrMatrix(text: string): { size: number; dark: (row: number, col: number) => boolean } {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'H' });
  return { size: modules.size, dark: (row, col) => modules.get(row, col) === 1 };
}

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

/** The essentials as short labelled lines, in the order a responder needs them. */
export function essentialLines(e: EmergencyEssentials | null): { label: string; value: string }[] {
  if (!e) return [];
  const lines: { label: string; value: string }[] = [];
  const add = (label: string, value: string | null | undefined) => {
    const v = value?.trim();
    if (v) lines.push({ label, value: v });
  };
  add('Age', e.age === null ? null : String(e.age));
  add('Blood type', e.blood_type);
  add('Allergies', e.allergies);
  add('Conditions', e.conditions);
  add('Bleeding disorder', e.bleeding_disorder);
  add('Medications', e.medications.filter((m) => m.trim()).join(', '));
  if (e.primary_contact) {
    add('Contact', [e.primary_contact.name, e.primary_contact.phone_number].filter(Boolean).join(' · '));
  }
  return lines;
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

/** Keeps at most `max` lines, ending the last kept one with an ellipsis when some were dropped. */
export function clampLines(lines: string[], max: number, maxWidth: number, width: (s: string) => number): string[] {
  if (lines.length <= max) return lines;
  const kept = lines.slice(0, max);
  let last = `${kept[max - 1] ?? ''}…`;
  while (last.length > 1 && width(last) > maxWidth) last = `${last.slice(0, -2)}…`;
  kept[max - 1] = last;
  return kept;
}
