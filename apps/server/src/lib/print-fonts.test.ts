import { PDFDocument, rgb } from 'pdf-lib';
import type { PDFPage } from 'pdf-lib';
import { afterEach, describe, expect, it } from 'vitest';
import { embedPrintFonts, setScriptFontPaths } from './print-fonts';

/** The runs a line is drawn as, left to right on the page, with the font of each. */
async function drawn(language: string, text: string, own = false) {
  const doc = await PDFDocument.create();
  const fonts = await embedPrintFonts(doc, language, [text]);
  const calls: { text: string; x: number; font: string }[] = [];
  const page = {
    drawText: (t: string, o: { x: number; font: { name: string } }) => calls.push({ text: t, x: o.x, font: o.font.name }),
  } as unknown as PDFPage;
  fonts.draw(page, text, { x: 100, y: 0, size: 10, color: rgb(0, 0, 0), align: 'end', own });
  calls.sort((a, b) => a.x - b.x);
  return { fonts, calls, runs: calls.map((c) => [c.text, c.font.replace(/-\d+$/, '')]) };
}

afterEach(() => setScriptFontPaths(null));

describe('text on the PDFs in every script (issue 35)', () => {
  it('brackets the Arabic font lacks, in a right-to-left line, are mirrored: "(ب)" reads as written', async () => {
    // Left to right on the page: the logical ")" drawn as "(", the letter, the logical "(" drawn as ")".
    expect((await drawn('ar', 'الدم (ب)')).runs).toEqual([
      ['(', 'DejaVuSans'],
      ['ب', 'NotoSansArabic-Regular'],
      [')', 'DejaVuSans'],
      ['الدم ', 'NotoSansArabic-Regular'],
    ]);
  });

  it('an Arabic label and a number: the number on the left, the label on the right, each in a font that has it', async () => {
    const { fonts, runs, calls } = await drawn('ar', 'العمر: 34');
    expect(fonts.rtl).toBe(true);
    // The Arabic run (with the ": " the Arabic font also draws) is handed to fontkit in logical
    // order: it shapes and reverses it.
    expect(runs).toEqual([
      ['34', 'DejaVuSans'],
      ['العمر: ', 'NotoSansArabic-Regular'],
    ]);
    const last = calls[calls.length - 1];
    expect(last && last.x + fonts.width('العمر: ', 10)).toBeCloseTo(100, 5);
  });

  it('the person’s own words keep their own direction: "O+" stays "O+" on an Arabic card, a Latin name reads left to right', async () => {
    expect((await drawn('ar', 'O+', true)).runs).toEqual([['O+', 'DejaVuSans']]);
    expect((await drawn('ar', 'Mia Rivera مريم', true)).runs).toEqual([
      ['Mia Rivera ', 'DejaVuSans'],
      ['مريم', 'NotoSansArabic-Regular'],
    ]);
  });

  it('a name in Devanagari, Chinese or Arabic on an English card gets its script’s font, never DejaVu’s boxes', async () => {
    const { fonts, runs } = await drawn('en', 'Ana 王芳 रवि', true);
    expect(fonts.rtl).toBe(false);
    expect(runs.map((r) => r[1])).toEqual(['DejaVuSans', 'NotoSansCJKsc-Regular', 'NotoSansDevanagari-Regular']);
  });

  it('a Japanese document takes the Japanese face of the CJK collection', async () => {
    expect((await drawn('ja', '血液型')).runs).toEqual([['血液型', 'NotoSansCJKjp-Regular']]);
  });

  it('without the Arabic font the line is left to right in DejaVu, as before', async () => {
    setScriptFontPaths({ arabic: { regular: '/nonexistent/a.ttf', bold: '/nonexistent/b.ttf' } });
    const { fonts, runs } = await drawn('ar', 'Mia');
    expect(fonts.rtl).toBe(false);
    expect(runs).toEqual([['Mia', 'DejaVuSans']]);
  });
});
