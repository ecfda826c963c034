import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';

// Issue 33: a scanned document as a phone or a copier makes it — every page a picture of printed
// text, no text layer — made here from the words given, so the test knows what OCR must find.
// (sharp and pdf-lib are the server's own dependencies, hoisted to the root node_modules.)

/** A white page image with `text` printed on it in black (Pango markup is escaped). */
async function printedPage(text: string): Promise<Buffer> {
  const escaped = text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  return sharp({ text: { text: `<span foreground="black">${escaped}</span>`, font: 'DejaVu Sans 28', dpi: 150, rgba: true } })
    .flatten({ background: '#ffffff' })
    .extend({ top: 80, bottom: 80, left: 80, right: 80, background: '#ffffff' })
    .png()
    .toBuffer();
}

/** A PDF of image-only pages, one per entry of `pages` (lines split by \n). */
export async function scannedPdf(pages: string[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (const text of pages) {
    const image = await doc.embedPng(await printedPage(text));
    const page = doc.addPage([image.width, image.height]);
    page.drawImage(image, { x: 0, y: 0, width: image.width, height: image.height });
  }
  return Buffer.from(await doc.save());
}
