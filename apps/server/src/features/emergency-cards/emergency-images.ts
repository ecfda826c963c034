import { PassThrough } from 'node:stream';
import QRCode from 'qrcode';
import * as PImage from 'pureimage';
import type { CardInput } from './emergency-card-content';
import { cardTexts, essentialLines, qrMatrix } from './emergency-card-content';
import { clampLines, fontPaths, wrap } from '../../lib/pdf-text';

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
const FAMILY = 'DejaVu Sans';
const FAMILY_BOLD = 'DejaVu Sans Bold';

let fontsLoaded = false;
function loadFonts(): void {
  if (fontsLoaded) return;
  const paths = fontPaths();
  PImage.registerFont(paths.regular, FAMILY).loadSync();
  PImage.registerFont(paths.bold, FAMILY_BOLD).loadSync();
  fontsLoaded = true;
}

/**
 * A lock-screen wallpaper (DESIGN §7): the top third stays plain for the phone's clock; below it a
 * white panel holds the QR code, the person's name, the caption and, when opted in, the essentials.
 * Never the PIN — a lock screen is seen by anyone.
 */
export async function lockscreenPng(input: Pick<CardInput, 'name' | 'qrData' | 'essentials' | 'texts'>): Promise<Buffer> {
  loadFonts();
  const texts = input.texts ?? cardTexts();
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
  ctx.fillStyle = '#ffffff';
  // A longer title in another language is set smaller, to stay inside the red band.
  let titleSize = 44;
  ctx.font = `${titleSize}pt ${FAMILY_BOLD}`;
  while (titleSize > 24 && ctx.measureText(texts.title).width > W - 2 * (margin + 50)) {
    titleSize -= 2;
    ctx.font = `${titleSize}pt ${FAMILY_BOLD}`;
  }
  ctx.fillText(texts.title, margin + 50, panelTop + 74);

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

  const textX = margin + 50;
  const textWidth = W - 2 * (margin + 50);
  let y = qy + side + 40;
  const measure = (font: string) => (s: string) => {
    ctx.font = font;
    return ctx.measureText(s).width;
  };
  const draw = (text: string, font: string, size: number, color: string, lineHeight = 1.3) => {
    y += size;
    ctx.font = font;
    ctx.fillStyle = color;
    ctx.fillText(text, textX, y);
    y += size * (lineHeight - 1);
  };

  let nameSize = 72;
  const nameFont = () => `${nameSize}pt ${FAMILY_BOLD}`;
  let nameLines = wrap(input.name, textWidth, measure(nameFont()));
  while (nameSize > 44 && nameLines.length > 2) {
    nameSize -= 4;
    nameLines = wrap(input.name, textWidth, measure(nameFont()));
  }
  for (const l of clampLines(nameLines, 2, textWidth, measure(nameFont()))) draw(l, nameFont(), nameSize, '#111827');
  y += 10;
  for (const l of wrap(texts.caption, textWidth, measure(`40pt ${FAMILY}`))) draw(l, `40pt ${FAMILY}`, 40, '#4b5563');

  const bottom = H - 160 - 40;
  const size = 38;
  y += 20;
  // Without the essentials, say how to reach the information (issue 30).
  if (!input.essentials)
    for (const l of wrap(texts.pinHint, textWidth, measure(`40pt ${FAMILY_BOLD}`))) draw(l, `40pt ${FAMILY_BOLD}`, 40, '#111827');
  for (const e of essentialLines(input.essentials, texts)) {
    const label = `${e.label}: `;
    const labelWidth = measure(`${size}pt ${FAMILY_BOLD}`)(label);
    const room = Math.floor((bottom - y) / (size * 1.3));
    if (room < 1) break;
    const valueLines = clampLines(
      wrap(e.value, textWidth - labelWidth, measure(`${size}pt ${FAMILY}`)),
      Math.min(2, room),
      textWidth - labelWidth,
      measure(`${size}pt ${FAMILY}`),
    );
    y += size;
    ctx.fillStyle = '#111827';
    ctx.font = `${size}pt ${FAMILY_BOLD}`;
    ctx.fillText(label, textX, y);
    ctx.font = `${size}pt ${FAMILY}`;
    valueLines.forEach((v, i) => {
      if (i > 0) y += size * 1.3;
      ctx.fillText(v, textX + labelWidth, y);
    });
    y += size * 0.3;
  }

  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await PImage.encodePNGToStream(img, out);
  return Buffer.concat(chunks);
}
