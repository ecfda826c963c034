// fontkit's Devanagari (Indic) shaper is compiled with regenerator and expects its runtime as a global.
import 'regenerator-runtime/runtime.js';
import fs from 'node:fs';
import bidiFactory from 'bidi-js';
import fontkit from '@pdf-lib/fontkit';
import type { Color, PDFDocument, PDFFont, PDFPage } from 'pdf-lib';
import { fontData, fontPaths as dejavuPaths } from './pdf-text';

// Issue 35 (docs/decisions/0055): the PDFs print Arabic, Hindi, Chinese and Japanese with the Noto
// fonts of the Debian packages fonts-noto-core and fonts-noto-cjk. DejaVu Sans draws everything else;
// each character is drawn with a font that has it, and a line is split into right-to-left and
// left-to-right runs (bidi-js) placed in visual order. fontkit shapes each run (Arabic joining,
// Devanagari conjuncts) and lays an Arabic run out right to left itself.

export type Script = 'arabic' | 'devanagari' | 'cjk';
export interface FontFiles {
  regular: string;
  bold: string;
}
export type ScriptFontPaths = Record<Script, FontFiles>;

const NOTO: ScriptFontPaths = {
  arabic: {
    regular: '/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf',
    bold: '/usr/share/fonts/truetype/noto/NotoSansArabic-Bold.ttf',
  },
  devanagari: {
    regular: '/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf',
    bold: '/usr/share/fonts/truetype/noto/NotoSansDevanagari-Bold.ttf',
  },
  cjk: {
    regular: '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
    bold: '/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc',
  },
};

let paths: ScriptFontPaths = NOTO;
/** Tests point a script at a missing file to prove the English fallback; `null` restores the Noto paths. */
export function setScriptFontPaths(next: Partial<ScriptFontPaths> | null): void {
  paths = next ? { ...NOTO, ...next } : NOTO;
  bytes.clear();
}

/** The script a language is written in, when DejaVu Sans cannot print it alone. */
const LANGUAGE_SCRIPT: Readonly<Record<string, Script>> = { ar: 'arabic', hi: 'devanagari', 'zh-Hans': 'cjk', ja: 'cjk' };

export function languageScript(language: string): Script | null {
  return LANGUAGE_SCRIPT[language] ?? null;
}

/** Whether the fonts a script needs are on this machine (both weights). */
export function scriptFontsPresent(script: Script): boolean {
  return fs.existsSync(paths[script].regular) && fs.existsSync(paths[script].bold);
}

/** A collection (.ttc) holds several faces: the one whose glyph shapes suit the language. */
function cjkFace(language: string, bold: boolean): string {
  const region = language === 'ja' ? 'jp' : language === 'zh-Hant' ? 'tc' : language === 'ko' ? 'kr' : 'sc';
  return `NotoSansCJK${region}-${bold ? 'Bold' : 'Regular'}`;
}

const bytes = new Map<string, Buffer>();
function fileBytes(file: string): Buffer {
  let data = bytes.get(file);
  if (!data) {
    data = fs.readFileSync(file);
    bytes.set(file, data);
  }
  return data;
}

/**
 * fontkit for pdf-lib, opening the chosen face of a collection (pdf-lib asks for the font without
 * naming one), with two repairs to its subsetting of CID-keyed CFF fonts (Noto Sans CJK): the header's
 * offset size (it wrote a length there) and each glyph's font dict and local subroutines (it took the
 * last dict added rather than the glyph's own, so a glyph drew with another dict's subroutines).
 */
function fontkitFor(faces: Map<Uint8Array, string>): typeof fontkit {
  return {
    ...fontkit,
    create: (data: Uint8Array, postscriptName?: string) => {
      const font = fontkit.create(data, postscriptName ?? faces.get(data));
      const cff = (font as unknown as Record<string, CffTable | undefined>)['CFF '];
      if (cff?.isCIDFont) {
        cff.length = 4;
        const createSubset = font.createSubset.bind(font);
        font.createSubset = () => {
          const subset = createSubset() as unknown as CffSubset;
          subset.subsetFontdict = subsetFontdict;
          return subset as unknown as ReturnType<typeof createSubset>;
        };
      }
      return font;
    },
  };
}

interface CffFontDict {
  FontName?: unknown;
  Private?: { Subrs?: unknown[] } | null;
}
interface CffTable {
  isCIDFont: boolean;
  length: number;
  topDict: { FDArray: CffFontDict[] };
  fdForGlyph(gid: number): number | null;
}
interface CffSubset {
  cff: CffTable;
  glyphs: number[];
  font: { getGlyph(gid: number): { path: unknown; _usedSubrs?: Record<string, boolean> } };
  subsetSubrs(subrs: unknown[], used: Record<string, boolean>): unknown[];
  subsetFontdict(this: CffSubset, topDict: { FDArray: CffFontDict[]; FDSelect: { version: 0; fds: number[] } }): void;
}

function subsetFontdict(this: CffSubset, topDict: { FDArray: CffFontDict[]; FDSelect: { version: 0; fds: number[] } }): void {
  topDict.FDArray = [];
  topDict.FDSelect = { version: 0, fds: [] };
  const index = new Map<number, number>();
  const usedSubrs: Record<string, boolean>[] = [];
  for (const gid of this.glyphs) {
    const fd = this.cff.fdForGlyph(gid);
    if (fd === null) continue;
    let i = index.get(fd);
    if (i === undefined) {
      i = topDict.FDArray.length;
      index.set(fd, i);
      topDict.FDArray.push({ ...this.cff.topDict.FDArray[fd] });
      usedSubrs.push({});
    }
    topDict.FDSelect.fds.push(i);
    const glyph = this.font.getGlyph(gid);
    void glyph.path; // parsing the outline records the subroutines it calls
    Object.assign(usedSubrs[i] ?? {}, glyph._usedSubrs);
  }
  topDict.FDArray.forEach((dict, i) => {
    delete dict.FontName;
    if (dict.Private?.Subrs) {
      dict.Private = { ...dict.Private, Subrs: this.subsetSubrs(dict.Private.Subrs, usedSubrs[i] ?? {}) };
    }
  });
}

export function scriptOf(cp: number): Script | null {
  if ((cp >= 0x0600 && cp <= 0x06ff) || (cp >= 0x0750 && cp <= 0x077f) || (cp >= 0x08a0 && cp <= 0x08ff)) return 'arabic';
  if ((cp >= 0xfb50 && cp <= 0xfdff) || (cp >= 0xfe70 && cp <= 0xfeff)) return 'arabic';
  if ((cp >= 0x0900 && cp <= 0x097f) || (cp >= 0xa8e0 && cp <= 0xa8ff)) return 'devanagari';
  if (
    (cp >= 0x2e80 && cp <= 0x9fff) || // radicals, CJK punctuation, kana, bopomofo, ideographs
    (cp >= 0xac00 && cp <= 0xd7af) || // Hangul
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xffef) || // full-width forms
    (cp >= 0x20000 && cp <= 0x3ffff)
  )
    return 'cjk';
  return null;
}

/** Spaces, punctuation, marks and joiners: they take the font of the text around them. */
const NEUTRAL = /[\s\p{P}\p{M}\p{S}\u200c\u200d]/u;

interface Face<F = PDFFont> {
  font: F;
  script: Script | null;
  has: Set<number>;
}

/** One weight: DejaVu Sans first, then the script fonts embedded for this document. */
interface Weight<F = PDFFont> {
  base: Face<F>;
  scripts: Partial<Record<Script, Face<F>>>;
}

const bidi = bidiFactory();

/** Text drawn with the fonts a document needs, in the reading direction of its language. */
export interface PrintFonts {
  /** Right to left (Arabic): lines are right-aligned and layouts mirrored. */
  rtl: boolean;
  regular: PDFFont;
  bold: PDFFont;
  width(text: string, size: number, bold?: boolean): number;
  /**
   * Draws one line; `align: 'end'` puts its end at `x`. `own`: the person's own words (a name, a
   * medication), whose direction comes from their first letter — "O+" stays "O+" on an Arabic card.
   */
  draw(
    page: PDFPage,
    text: string,
    o: { x: number; y: number; size: number; bold?: boolean; color: Color; align?: 'start' | 'end'; own?: boolean },
  ): void;
}

/**
 * Embeds DejaVu Sans and, for the language's script and every script found in `texts` (the user's
 * own words: a name in Hindi on an English card), the Noto fonts — when they are installed.
 */
export async function embedPrintFonts(doc: PDFDocument, language: string, texts: readonly string[]): Promise<PrintFonts> {
  const needed = new Set<Script>();
  const own = languageScript(language);
  if (own) needed.add(own);
  for (const text of texts)
    for (const ch of text) {
      const s = scriptOf(ch.codePointAt(0) ?? 0);
      if (s) needed.add(s);
    }
  const faces = new Map<Uint8Array, string>();
  doc.registerFontkit(fontkitFor(faces));
  const embed = async (data: Buffer, script: Script | null, face?: string): Promise<Face> => {
    if (face) faces.set(data, face);
    const font = await doc.embedFont(data, { subset: true });
    return { font, script, has: new Set(font.getCharacterSet()) };
  };
  const dejavu = fontData();
  const regular: Weight = { base: await embed(dejavu.regular, null), scripts: {} };
  const bold: Weight = { base: await embed(dejavu.bold, null), scripts: {} };
  for (const script of needed) {
    if (!scriptFontsPresent(script)) continue;
    const files = paths[script];
    regular.scripts[script] = await embed(fileBytes(files.regular), script, script === 'cjk' ? cjkFace(language, false) : undefined);
    bold.scripts[script] = await embed(fileBytes(files.bold), script, script === 'cjk' ? cjkFace(language, true) : undefined);
  }
  const rtl = own === 'arabic' && regular.scripts.arabic !== undefined;

  const width = (text: string, size: number, isBold = false) =>
    runs(text, isBold ? bold : regular, rtl).reduce((sum, r) => sum + r.face.font.widthOfTextAtSize(r.text, size), 0);
  return {
    rtl,
    regular: regular.base.font,
    bold: bold.base.font,
    width,
    draw(page, text, o) {
      const list = runs(text, o.bold ? bold : regular, o.own ? undefined : rtl);
      const total = list.reduce((sum, r) => sum + r.face.font.widthOfTextAtSize(r.text, o.size), 0);
      let x = o.align === 'end' ? o.x - total : o.x;
      for (const r of list) {
        page.drawText(r.text, { x, y: o.y, size: o.size, font: r.face.font, color: o.color });
        x += r.face.font.widthOfTextAtSize(r.text, o.size);
      }
    },
  };
}

/** Picks each code unit's face: its script's font, else DejaVu, else any embedded font with the glyph. */
function facesOf<F>(text: string, weight: Weight<F>): Face<F>[] {
  const out: Face<F>[] = [];
  const all = [weight.base, ...Object.values(weight.scripts)];
  let previous: Face<F> | null = null;
  for (let i = 0; i < text.length;) {
    const cp = text.codePointAt(i) ?? 0;
    const units = cp > 0xffff ? 2 : 1;
    const script = scriptOf(cp);
    let face: Face<F> | undefined = script ? weight.scripts[script] : undefined;
    if (!face && previous && NEUTRAL.test(String.fromCodePoint(cp)) && previous.has.has(cp)) face = previous;
    if (!face && previous?.script && /[\u200c\u200d\p{M}]/u.test(String.fromCodePoint(cp))) face = previous;
    face ??= all.find((f) => f.has.has(cp)) ?? weight.base;
    for (let u = 0; u < units; u += 1) out.push(face);
    previous = face;
    i += units;
  }
  return out;
}

/**
 * A line as runs in visual order (left to right on the page), each with one face. A right-to-left
 * run in the Arabic font is given in logical order (fontkit shapes and reverses it); any other
 * right-to-left run (spaces, punctuation, digits' neighbours) is reversed here, brackets mirrored.
 */
function runs<F>(text: string, weight: Weight<F>, rtl: boolean | undefined): { text: string; face: Face<F> }[] {
  if (!text) return [];
  const faces = facesOf(text, weight);
  const embedding = bidi.getEmbeddingLevels(text, rtl === undefined ? undefined : rtl ? 'rtl' : 'ltr');
  const { levels } = embedding;
  const order = Array.from({ length: text.length }, (_, i) => i);
  for (const [start = 0, end = 0] of bidi.getReorderSegments(text, embedding)) {
    const flipped = order.slice(start, end + 1).reverse();
    order.splice(start, flipped.length, ...flipped);
  }
  const out: { text: string; face: Face<F> }[] = [];
  let group: number[] = [];
  const flush = () => {
    if (!group.length) return;
    const first = group[0] ?? 0;
    const odd = (levels[first] ?? 0) % 2 === 1;
    const face = faces[first] ?? weight.base;
    const from = Math.min(...group);
    const logical = text.slice(from, Math.max(...group) + 1);
    let run = logical;
    if (odd && !(face.script === 'arabic' && /[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff]/.test(logical))) {
      run = Array.from(logical)
        .reverse()
        .map((ch) => bidi.getMirroredCharacter(ch) ?? ch)
        .join('');
    }
    out.push({ text: run, face });
    group = [];
  };
  for (const i of order) {
    const last = group[group.length - 1];
    const joins =
      last !== undefined &&
      faces[last] === faces[i] &&
      levels[last] === levels[i] &&
      Math.abs(last - i) === 1 &&
      ((levels[i] ?? 0) % 2 === 1) === last > i;
    if (!joins) flush();
    group.push(i);
  }
  flush();
  return out.filter((r) => r.text.length > 0);
}

type FontkitFont = ReturnType<typeof fontkit.create>;
const opened = new Map<string, FontkitFont>();
function openFont(file: string, face?: string): FontkitFont {
  const key = `${file}#${face ?? ''}`;
  let font = opened.get(key);
  if (!font) {
    font = fontkit.create(fileBytes(file), face);
    opened.set(key, font);
  }
  return font;
}

/** The 2D context of pureimage, as far as text is drawn on it. */
export interface PathContext {
  fillStyle: unknown;
  beginPath(): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  quadraticCurveTo(cx: number, cy: number, x: number, y: number): void;
  bezierCurveTo(c1x: number, c1y: number, c2x: number, c2y: number, x: number, y: number): void;
  fill(): void;
}

/** Text on an image (the lock screen): the same fonts, runs and directions as the PDFs, drawn as glyph outlines. */
export interface ImageFonts {
  rtl: boolean;
  width(text: string, size: number, bold?: boolean): number;
  draw(
    ctx: PathContext,
    text: string,
    o: { x: number; y: number; size: number; bold?: boolean; color: string; align?: 'start' | 'end'; own?: boolean },
  ): void;
}

/**
 * Fonts for an image in `language` holding `texts`. pureimage's own text drawing neither shapes nor
 * reorders, so each run is laid out by fontkit and its glyphs' outlines are filled on the canvas.
 */
export function imageFonts(language: string, texts: readonly string[]): ImageFonts {
  const needed = new Set<Script>();
  const own = languageScript(language);
  if (own) needed.add(own);
  for (const text of texts)
    for (const ch of text) {
      const s = scriptOf(ch.codePointAt(0) ?? 0);
      if (s) needed.add(s);
    }
  const face = (font: FontkitFont, script: Script | null): Face<FontkitFont> => ({ font, script, has: new Set(font.characterSet) });
  const dejavu = dejavuPaths();
  const regular: Weight<FontkitFont> = { base: face(openFont(dejavu.regular), null), scripts: {} };
  const bold: Weight<FontkitFont> = { base: face(openFont(dejavu.bold), null), scripts: {} };
  for (const script of needed) {
    if (!scriptFontsPresent(script)) continue;
    const files = paths[script];
    regular.scripts[script] = face(openFont(files.regular, script === 'cjk' ? cjkFace(language, false) : undefined), script);
    bold.scripts[script] = face(openFont(files.bold, script === 'cjk' ? cjkFace(language, true) : undefined), script);
  }
  const rtl = own === 'arabic' && regular.scripts.arabic !== undefined;
  const runWidth = (r: { text: string; face: Face<FontkitFont> }, size: number) =>
    (r.face.font.layout(r.text).advanceWidth * size) / r.face.font.unitsPerEm;
  const width = (text: string, size: number, isBold = false) =>
    runs(text, isBold ? bold : regular, rtl).reduce((sum, r) => sum + runWidth(r, size), 0);
  return {
    rtl,
    width,
    draw(ctx, text, o) {
      const list = runs(text, o.bold ? bold : regular, o.own ? undefined : rtl);
      const total = list.reduce((sum, r) => sum + runWidth(r, o.size), 0);
      let x = o.align === 'end' ? o.x - total : o.x;
      ctx.fillStyle = o.color;
      for (const r of list) {
        const layout = r.face.font.layout(r.text);
        const scale = o.size / r.face.font.unitsPerEm;
        layout.glyphs.forEach((glyph, i) => {
          const at = layout.positions[i];
          const gx = x + (at?.xOffset ?? 0) * scale;
          const gy = o.y - (at?.yOffset ?? 0) * scale;
          fillOutline(ctx, (glyph.path as unknown as { commands: { command: string; args: number[] }[] }).commands, (px, py) => [
            gx + px * scale,
            gy - py * scale,
          ]);
          x += (at?.xAdvance ?? 0) * scale;
        });
      }
    },
  };
}

/**
 * Fills one glyph's outline as a single path. Each contour is closed by a line back to its start:
 * pureimage's closePath closes only the first contour of a path.
 */
function fillOutline(
  ctx: PathContext,
  commands: { command: string; args: number[] }[],
  to: (x: number, y: number) => [number, number],
): void {
  if (!commands.length) return;
  ctx.beginPath();
  let start: [number, number] | null = null;
  let open = false;
  const close = () => {
    if (start && open) ctx.lineTo(...start);
    open = false;
  };
  for (const { command, args: a } of commands) {
    const p = (i: number) => to(a[i] ?? 0, a[i + 1] ?? 0);
    if (command === 'moveTo') {
      close();
      start = p(0);
      ctx.moveTo(...start);
      open = true;
    } else if (command === 'lineTo') ctx.lineTo(...p(0));
    else if (command === 'quadraticCurveTo') ctx.quadraticCurveTo(...p(0), ...p(2));
    else if (command === 'bezierCurveTo') ctx.bezierCurveTo(...p(0), ...p(2), ...p(4));
    else if (command === 'closePath') close();
  }
  close();
  ctx.fill();
}
