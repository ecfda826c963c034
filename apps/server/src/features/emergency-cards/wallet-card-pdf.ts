import { PDFDocument, rgb } from 'pdf-lib';
import type { PDFPage } from 'pdf-lib';
import type { CardInput } from './emergency-card-content';
import { cardTexts, essentialLines, qrMatrix } from './emergency-card-content';
import { clampLines, wrap } from '../../lib/pdf-text';
import { embedPrintFonts } from '../../lib/print-fonts';

const MM = 72 / 25.4;
/** ISO/IEC 7810 ID-1, the size of a bank card: 85.6 × 54 mm (DESIGN §7). */
export const CARD_WIDTH_MM = 85.6;
export const CARD_HEIGHT_MM = 54;
export const PAPER = {
  a4: { width: 595.28, height: 841.89 },
  letter: { width: 612, height: 792 },
} as const;

const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.33, 0.33, 0.37);
const ACCENT = rgb(0.72, 0.11, 0.11);
const GUIDE = rgb(0.6, 0.6, 0.6);

/**
 * The wallet card at true size on A4 or US Letter, with cut marks at its corners: a red band,
 * the QR code on the right (vector squares, EC level H, 4-module quiet zone), the name, the
 * caption, the essentials when opted in (otherwise how to see the information) and the PIN when
 * asked for (DESIGN §7).
 */
export async function walletCardPdf(input: CardInput): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const texts = input.texts ?? cardTexts();
  doc.setTitle(texts.documentTitle(input.name));
  doc.setCreator('Kinchart');
  doc.setProducer('Kinchart');
  const essentials = essentialLines(input.essentials, texts);
  // Issue 35: the fonts the language and the person's own words need; Arabic is laid out right to left.
  const fonts = await embedPrintFonts(doc, texts.language, [input.name, ...essentials.map((e) => e.value)]);
  const { rtl } = fonts;
  const paper = PAPER[input.paper];
  const page = doc.addPage([paper.width, paper.height]);

  const w = CARD_WIDTH_MM * MM;
  const h = CARD_HEIGHT_MM * MM;
  // Centred across, near the top: the rest of the sheet stays usable.
  const x0 = (paper.width - w) / 2;
  const y0 = paper.height - 30 * MM - h;

  drawCutMarks(page, x0, y0, w, h);
  page.drawRectangle({ x: x0, y: y0, width: w, height: h, borderColor: rgb(0.85, 0.85, 0.85), borderWidth: 0.3 });

  // Red band across the top with the title (at its right end in a right-to-left language).
  const band = 8 * MM;
  page.drawRectangle({ x: x0, y: y0 + h - band, width: w, height: band, color: ACCENT });
  // A longer title in another language is set smaller, to stay inside the band beside the code.
  const titleSize = Math.max(5, Math.min(7, (w - 6 * MM) / Math.max(1, fonts.width(texts.title, 1, true))));
  fonts.draw(page, texts.title, {
    x: rtl ? x0 + w - 3 * MM : x0 + 3 * MM,
    y: y0 + h - band + 2.9 * MM,
    size: titleSize,
    bold: true,
    color: rgb(1, 1, 1),
    align: rtl ? 'end' : 'start',
  });

  // The QR code on the right (on the left in a right-to-left language), white quiet zone included,
  // as large as the band leaves room for.
  const matrix = qrMatrix(input.qrData);
  const quiet = 4;
  const qrSide = h - band - 2 * MM;
  const moduleSize = qrSide / (matrix.size + 2 * quiet);
  const qx = rtl ? x0 + 1 * MM : x0 + w - qrSide - 1 * MM;
  const qy = y0 + 1 * MM;
  for (let row = 0; row < matrix.size; row += 1) {
    // Runs of dark modules in a row as one rectangle: fewer objects, no hairline gaps.
    let col = 0;
    while (col < matrix.size) {
      if (!matrix.dark(row, col)) {
        col += 1;
        continue;
      }
      const start = col;
      while (col < matrix.size && matrix.dark(row, col)) col += 1;
      page.drawRectangle({
        x: qx + (quiet + start) * moduleSize,
        y: qy + qrSide - (quiet + row + 1) * moduleSize,
        width: (col - start) * moduleSize,
        height: moduleSize,
        color: rgb(0, 0, 0),
      });
    }
  }

  // The text column beside the code, its lines starting at its start edge (the right one in Arabic).
  const textWidth = w - qrSide - 1 * MM - 3 * MM - 1 * MM;
  const startX = rtl ? x0 + w - 3 * MM : x0 + 3 * MM;
  /** The x of a point `offset` along the line from the column's start edge. */
  const along = (offset: number) => (rtl ? startX - offset : startX + offset);
  const at = (text: string, offset: number, y: number, size: number, bold: boolean, color = INK, own = false) =>
    fonts.draw(page, text, { x: along(offset), y, size, bold, color, align: rtl ? 'end' : 'start', own });
  let y = y0 + h - band - 3 * MM;
  const line = (text: string, bold: boolean, size: number, color = INK, gap = 1.25, own = false) => {
    y -= size;
    at(text, 0, y, size, bold, color, own);
    y -= size * (gap - 1);
  };
  const measure = (bold: boolean, size: number) => (s: string) => fonts.width(s, size, bold);

  // The name: as large as fits on two lines, from 11 pt down to 7.
  let nameSize = 11;
  let nameLines = wrap(input.name, textWidth, measure(true, nameSize));
  while (nameSize > 7 && (nameLines.length > 2 || nameLines.some((l) => fonts.width(l, nameSize, true) > textWidth))) {
    nameSize -= 0.5;
    nameLines = wrap(input.name, textWidth, measure(true, nameSize));
  }
  // A name still longer than two lines at 7 pt gets a third, then an ellipsis.
  for (const l of clampLines(nameLines, 3, textWidth, measure(true, nameSize))) line(l, true, nameSize, INK, 1.25, true);
  y -= 0.8 * MM;
  for (const l of wrap(texts.caption, textWidth, measure(false, 6))) line(l, false, 6, MUTED);

  const bottom = y0 + (input.pin ? 8 : 2.5) * MM;
  if (essentials.length) {
    y -= 1 * MM;
    const size = 5.5;
    for (const e of essentials) {
      const label = `${e.label}: `;
      const labelWidth = fonts.width(label, size, true);
      const room = Math.floor((y - bottom) / (size * 1.2));
      if (room < 1) break;
      const valueLines = clampLines(
        wrap(e.value, textWidth - labelWidth, measure(false, size)),
        Math.min(2, room),
        textWidth - labelWidth,
        measure(false, size),
      );
      y -= size;
      at(label, 0, y, size, true);
      valueLines.forEach((v, i) => {
        if (i > 0) y -= size * 1.2;
        at(v, labelWidth, y, size, false, INK, true);
      });
      y -= size * 0.2;
    }
  } else {
    // Without the essentials, the card says how to reach the information (scan, then the PIN).
    y -= 1.5 * MM;
    for (const l of clampLines(wrap(texts.pinHint, textWidth, measure(true, 6)), 3, textWidth, measure(true, 6))) line(l, true, 6, INK);
  }

  if (input.pin) {
    at(texts.pin, 0, y0 + 3 * MM, 6, false, MUTED);
    at(input.pin, fonts.width(texts.pin, 6) + 1.5 * MM, y0 + 3 * MM, 10, true, INK, true);
  }

  // Printing instructions under the card, outside the cut.
  const note = texts.printNote;
  let ny = y0 - 12 * MM;
  for (const l of wrap(note, w + 40 * MM, measure(false, 8))) {
    fonts.draw(page, l, { x: (paper.width - fonts.width(l, 8)) / 2, y: ny, size: 8, color: MUTED });
    ny -= 10;
  }

  return Buffer.from(await doc.save());
}

/** Short marks outside each corner, 2 mm clear of the card, 5 mm long. */
function drawCutMarks(page: PDFPage, x: number, y: number, w: number, h: number): void {
  const gap = 2 * MM;
  const len = 5 * MM;
  const mark = (x1: number, y1: number, x2: number, y2: number) =>
    page.drawLine({ start: { x: x1, y: y1 }, end: { x: x2, y: y2 }, thickness: 0.4, color: GUIDE });
  for (const cx of [x, x + w]) {
    for (const cy of [y, y + h]) {
      const dx = cx === x ? -1 : 1;
      const dy = cy === y ? -1 : 1;
      mark(cx + dx * gap, cy, cx + dx * (gap + len), cy); // horizontal, on the card's edge line
      mark(cx, cy + dy * gap, cx, cy + dy * (gap + len)); // vertical
    }
  }
}
