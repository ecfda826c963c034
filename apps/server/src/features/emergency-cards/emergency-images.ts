import { PassThrough } from 'node:stream';
import QRCode from 'qrcode';
import * as PImage from 'pureimage';
import type { CardInput } from './emergency-card-content';
import { cardTexts, essentialLines, qrMatrix } from './emergency-card-content';
import { clampLines, wrap } from '../../lib/pdf-text';
import { imageFonts } from '../../lib/print-fonts';

/** The code alone for printing elsewhere (stickers, bracelets): EC level H, 4-module quiet zone, ≥ 1200 px. */
export function qrPng(qrData: string): Promise<Buffer> {
  return QRCode.toBuffer(qrData, {
    type: 'png',
    errorCorrectionLevel: 'H',
    margin: 4,
    width: 1200,
    color: { dark: '#000000', light: '#ffffff' },
  });
}

/** An iPhone-sized portrait screen (1170 × 2532); other phones scale it to fit. */
export const LOCKSCREEN = { width: 1170, height: 2532 } as const;

/**
 * A lock-screen wallpaper (DESIGN §7): the top third stays plain for the phone's clock; below it a
 * white panel holds the QR code, the person's name, the caption and, when opted in, the essentials.
 * Never the PIN — a lock screen is seen by anyone. Issue 35: the text is laid out by fontkit with the
 * PDFs' fonts (Noto for Arabic, Devanagari, Chinese and Japanese; Arabic right-aligned, right to left).
 */
export async function lockscreenPng(input: Pick<CardInput, 'name' | 'qrData' | 'essentials' | 'texts'>): Promise<Buffer> {
  const texts = input.texts ?? cardTexts();
  const essentials = essentialLines(input.essentials, texts);
  const fonts = imageFonts(texts.language, [input.name, ...essentials.map((e) => e.value)]);
  const { rtl } = fonts;
  const { width: W, height: H } = LOCKSCREEN;
  const img = PImage.make(W, H);
  const ctx = img.getContext('2d');
  ctx.fillStyle = '#1f2937';
  ctx.fillRect(0, 0, W, H);

  const margin = 70;
  const panelTop = 820;
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(margin, panelTop, W - 2 * margin, H - panelTop - 160);
  ctx.fillStyle = '#b91c1c';
  ctx.fillRect(margin, panelTop, W - 2 * margin, 110);

  const textWidth = W - 2 * (margin + 50);
  /** The text's start edge: the left one, or the right one in a right-to-left language. */
  const startX = rtl ? W - margin - 50 : margin + 50;
  const at = (text: string, offset: number, y: number, size: number, bold: boolean, color: string, own = false) =>
    fonts.draw(ctx, text, {
      x: rtl ? startX - offset : startX + offset,
      y,
      size,
      bold,
      color,
      align: rtl ? 'end' : 'start',
      own,
    });

  // A longer title in another language is set smaller, to stay inside the red band.
  let titleSize = 44;
  while (titleSize > 24 && fonts.width(texts.title, titleSize, true) > textWidth) titleSize -= 2;
  at(texts.title, 0, panelTop + 74, titleSize, true, '#ffffff');

  // The QR code: whole-pixel modules so it stays sharp, with the quiet zone in the white panel.
  const matrix = qrMatrix(input.qrData);
  const quiet = 4;
  const module = Math.floor(640 / (matrix.size + 2 * quiet));
  const side = module * (matrix.size + 2 * quiet);
  const qx = Math.round((W - side) / 2);
  const qy = panelTop + 140;
  ctx.fillStyle = '#000000';
  for (let row = 0; row < matrix.size; row += 1) {
    for (let col = 0; col < matrix.size; col += 1) {
      if (matrix.dark(row, col)) ctx.fillRect(qx + (quiet + col) * module, qy + (quiet + row) * module, module, module);
    }
  }

  let y = qy + side + 40;
  const measure = (size: number, bold: boolean) => (s: string) => fonts.width(s, size, bold);
  const draw = (text: string, bold: boolean, size: number, color: string, lineHeight = 1.3, own = false) => {
    y += size;
    at(text, 0, y, size, bold, color, own);
    y += size * (lineHeight - 1);
  };

  let nameSize = 72;
  let nameLines = wrap(input.name, textWidth, measure(nameSize, true));
  while (nameSize > 44 && nameLines.length > 2) {
    nameSize -= 4;
    nameLines = wrap(input.name, textWidth, measure(nameSize, true));
  }
  for (const l of clampLines(nameLines, 2, textWidth, measure(nameSize, true))) draw(l, true, nameSize, '#111827', 1.3, true);
  y += 10;
  for (const l of wrap(texts.caption, textWidth, measure(40, false))) draw(l, false, 40, '#4b5563');

  const bottom = H - 160 - 40;
  const size = 38;
  y += 20;
  // Without the essentials, say how to reach the information (issue 30).
  if (!input.essentials) for (const l of wrap(texts.pinHint, textWidth, measure(40, true))) draw(l, true, 40, '#111827');
  for (const e of essentials) {
    const label = `${e.label}: `;
    const labelWidth = fonts.width(label, size, true);
    const room = Math.floor((bottom - y) / (size * 1.3));
    if (room < 1) break;
    const valueLines = clampLines(
      wrap(e.value, textWidth - labelWidth, measure(size, false)),
      Math.min(2, room),
      textWidth - labelWidth,
      measure(size, false),
    );
    y += size;
    at(label, 0, y, size, true, '#111827');
    valueLines.forEach((v, i) => {
      if (i > 0) y += size * 1.3;
      at(v, labelWidth, y, size, false, '#111827', true);
    });
    y += size * 0.3;
  }

  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await PImage.encodePNGToStream(img, out);
  return Buffer.concat(chunks);
}
