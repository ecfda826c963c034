import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import type { Sharp } from 'sharp';
import yazl from 'yazl';

// Issue 33: the files text extraction is tested on, made by code (nothing binary is shipped).
// Each maker answers the bytes; `writeTextFixtures` writes them all into a folder (for the e2e
// journey and the benchmark: scripts/make-text-fixtures.mjs). This module imports npm packages and
// Node only, so Node runs it as it is.

/** The words each fixture holds, that a test looks for in what the server read. */
export const FIXTURE_WORDS = {
  textPdf: ['Ferritin', 'Bilirubin'],
  scannedPdf: 'Thyroglobulin',
  photo: 'Measles',
  docx: 'Cholecystectomy',
  spanish: 'Penicilina',
  german: 'Überempfindlichkeit',
  plain: 'Hemoglobin',
} as const;

/** A page of printed text as a picture: black text on white, with margins, at 300 dpi. */
async function printedPage(lines: readonly string[]): Promise<Sharp> {
  const escaped = lines.map((l) => l.replace(/&/g, '&amp;').replace(/</g, '&lt;')).join('\n');
  // libvips renders the text white on black: turned around, it is print.
  const text = await sharp({ text: { text: escaped, font: 'DejaVu Sans 12', dpi: 300, spacing: 20 } })
    .negate({ alpha: false })
    .png()
    .toBuffer();
  return sharp(text).extend({ top: 150, bottom: 150, left: 150, right: 150, background: { r: 255, g: 255, b: 255 } });
}

/** Two pages with a text layer, a distinct word on each. */
export async function textPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const pages = [
    ['Laboratory report', 'Ferritin 12 ng/mL (low)', 'Haemoglobin 11.2 g/dL'],
    ['Liver panel', 'Bilirubin 0.8 mg/dL', 'Reviewed by the clinic'],
  ];
  for (const lines of pages) {
    const page = doc.addPage([595, 842]);
    lines.forEach((line, i) => page.drawText(line, { x: 60, y: 760 - i * 28, size: 16, font }));
  }
  return Buffer.from(await doc.save());
}

/** One page that is a picture only (a scan): no text layer at all. */
export async function scannedPdf(): Promise<Buffer> {
  return scanOf(['Thyroid panel', 'Thyroglobulin antibodies: negative', 'Signed: Dr. Alvarez']);
}

/** A one-page scan (a picture of the printed `lines`, no text layer). */
export async function scanOf(lines: readonly string[]): Promise<Buffer> {
  const png = await (await printedPage(lines)).png().toBuffer();
  const doc = await PDFDocument.create();
  const image = await doc.embedPng(png);
  const page = doc.addPage([595, 842]);
  const scale = Math.min(535 / image.width, 782 / image.height);
  page.drawImage(image, { x: 30, y: 842 - 30 - image.height * scale, width: image.width * scale, height: image.height * scale });
  return Buffer.from(await doc.save());
}

/** A phone photo of a printed page: rotated 3°, on a gray background, with some noise. JPEG. */
export async function phonePhoto(): Promise<Buffer> {
  const page = await (
    await printedPage(['Vaccination record', 'Measles, mumps and rubella: second dose', 'Given on 12 March 2024'])
  )
    .png()
    .toBuffer();
  const rotated = await sharp(page)
    .rotate(3, { background: { r: 150, g: 150, b: 150 } })
    .png()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = rotated.info;
  // Deterministic speckle: a few gray dots over the whole picture.
  const noise = Buffer.alloc(width * height, 0);
  let seed = 42;
  for (let i = 0; i < noise.length; i += 1) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    noise[i] = seed % 97 === 0 ? 90 : 0;
  }
  const speckle = await sharp(noise, { raw: { width, height, channels: 1 } })
    .joinChannel(Buffer.alloc(width * height, 0), { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();
  return sharp(rotated.data)
    .composite([{ input: speckle, blend: 'multiply' }])
    .jpeg({ quality: 80 })
    .toBuffer();
}

/** A minimal Word document (the parts Word itself needs), one paragraph. */
export async function docx(): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(
    Buffer.from(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
        '</Types>',
    ),
    '[Content_Types].xml',
  );
  zip.addBuffer(
    Buffer.from(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
        '</Relationships>',
    ),
    '_rels/.rels',
  );
  zip.addBuffer(
    Buffer.from(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
        '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>' +
        '<w:p><w:r><w:t>Discharge letter</w:t></w:r></w:p>' +
        '<w:p><w:r><w:t>Procedure: laparoscopic Cholecystectomy, no complications.</w:t></w:r></w:p>' +
        '</w:body></w:document>',
    ),
    'word/document.xml',
  );
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A Spanish page (a scan, PNG), read with Spanish among the account's document languages. */
export async function spanishPage(): Promise<Buffer> {
  return (await printedPage(['Informe de alergias', 'Alergia a la Penicilina: reacción cutánea', 'Próxima revisión en junio']))
    .png()
    .toBuffer();
}

/** A German page (a scan, PNG). */
export async function germanPage(): Promise<Buffer> {
  return (await printedPage(['Allergiepass', 'Überempfindlichkeit gegen Penicillin', 'Ärztliche Bestätigung liegt vor'])).png().toBuffer();
}

/** Plain text with a byte order mark. */
export function plainText(): Buffer {
  return Buffer.from('\uFEFFBlood count\nHemoglobin 13.5 g/dL\n', 'utf8');
}

/** A PDF header followed by nothing a reader can make sense of. */
export function corruptPdf(): Buffer {
  const garbage = Buffer.alloc(4096);
  let seed = 7;
  for (let i = 0; i < garbage.length; i += 1) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    garbage[i] = seed & 0xff;
  }
  return Buffer.concat([Buffer.from('%PDF-1.7\n%\xE2\xE3\xCF\xD3\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R'), garbage]);
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (crcTable[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([head, body, crc]);
}

/**
 * A decompression bomb: a gray PNG of 50,000 × 50,000 pixels (2.5 gigapixels) whose compressed
 * rows take a few kilobytes. A reader that decodes it whole needs gigabytes.
 */
export function bombPng(side = 50_000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // gray
  // Enough all-white rows to be a plausible start (each row: filter byte + side bytes).
  const rows = zlib.deflateSync(Buffer.alloc((side + 1) * 64, 0), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', rows),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Every fixture, by file name. */
export async function allTextFixtures(): Promise<Record<string, Buffer>> {
  return {
    'text.pdf': await textPdf(),
    'scanned.pdf': await scannedPdf(),
    'photo.jpg': await phonePhoto(),
    'letter.docx': await docx(),
    'spanish.png': await spanishPage(),
    'german.png': await germanPage(),
    'notes.txt': plainText(),
    'corrupt.pdf': corruptPdf(),
    'bomb.png': bombPng(),
  };
}

/** Writes every fixture into `dir` (made if missing); answers the paths. */
export async function writeTextFixtures(dir: string): Promise<string[]> {
  fs.mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const [name, bytes] of Object.entries(await allTextFixtures())) {
    const file = path.join(dir, name);
    fs.writeFileSync(file, bytes);
    written.push(file);
  }
  return written;
}
