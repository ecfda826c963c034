import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument, StandardFonts, degrees } from 'pdf-lib';
import type { PDFFont, PDFPage } from 'pdf-lib';
import sharp from 'sharp';

// Issue 34 (docs/decisions/0052): lab reports the lab-value reader is tested on, made by code in
// the layouts the issue names — a US clinic's table with flags, a German report with decimal
// commas, a two-column report running over two pages, a scanned report, a letter without values.
// No randomness: the same bytes every time. This module imports npm packages and Node only, so
// Node runs it as it is (scripts/make-text-fixtures.mjs writes them into a folder for e2e).

const A4: [number, number] = [595, 842];

/** One row of cells, each drawn at its column's x (points from the left), on the baseline `y`. */
function row(page: PDFPage, font: PDFFont, y: number, cells: readonly (readonly [number, string])[], size = 10): void {
  for (const [x, text] of cells) if (text !== '') page.drawText(text, { x, y, size, font });
}

/** Cells of a table: the column positions zipped with the texts of one row. */
const at = (columns: readonly number[], texts: readonly string[]) => texts.map((text, i) => [columns[i] ?? 0, text] as const);

async function save(doc: PDFDocument): Promise<Buffer> {
  // A fixed date: pdf-lib writes the time of creation otherwise, and the bytes would differ.
  const fixed = new Date('2026-01-01T00:00:00Z');
  doc.setCreationDate(fixed);
  doc.setModificationDate(fixed);
  return Buffer.from(await doc.save());
}

/** (a) A US clinic's printout: Test / Result / Flag / Units / Reference range, collected 03/04/2026 (month first). */
export async function usClinicReport(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage(A4);
  row(page, bold, 780, [[50, 'Valley Family Clinic - Laboratory Report']], 14);
  row(page, font, 755, [
    [50, 'Patient: Jane Rivera'],
    [330, 'DOB: 07/22/1981'],
  ]);
  row(page, font, 740, [
    [50, 'Collected: 03/04/2026 08:15'],
    [330, 'Reported: 03/05/2026'],
  ]);
  const columns = [50, 220, 290, 340, 430];
  row(page, bold, 705, at(columns, ['Test', 'Result', 'Flag', 'Units', 'Reference range']));
  const rows = [
    ['Ferritin', '8', 'L', 'ng/mL', '16-232'],
    ['Hemoglobin A1c', '6.1', 'H', '%', '4.0-5.6'],
    ['Hemoglobin', '13.2', '', 'g/dL', '12.0-15.5'],
    ['Glucose', '105', 'H', 'mg/dL', '65-99'],
    ['Creatinine', '0.82', '', 'mg/dL', '0.50-1.10'],
    ['TSH', '2.10', '', 'mIU/L', '0.40-4.00'],
  ];
  rows.forEach((cells, i) => row(page, font, 685 - i * 18, at(columns, cells)));
  row(page, font, 560, [[50, 'Results reviewed by Dr. Maria Lopez.']]);
  return save(doc);
}

/** (b) A German lab's report: decimal commas, German names, "< 0,5" and a word flag, Entnahme 14.03.2026. */
export async function germanReport(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage(A4);
  row(page, bold, 780, [[50, 'Labor Dr. Weber - Befundbericht']], 14);
  row(page, font, 755, [[50, 'Patientin: Jana Rivera, geb. 22.07.1981']]);
  row(page, font, 740, [[50, 'Entnahme: 14.03.2026 07:40']]);
  const columns = [50, 210, 280, 350, 460];
  row(page, bold, 705, at(columns, ['Untersuchung', 'Ergebnis', 'Einheit', 'Referenzbereich', 'Bewertung']));
  const rows = [
    ['Ferritin', '12', 'µg/l', '13 - 150', 'erniedrigt'],
    ['HbA1c', '5,9', '%', '4,0 - 6,0', ''],
    ['Hämoglobin', '12,8', 'g/dl', '12,0 - 16,0', ''],
    ['Kreatinin', '1,12', 'mg/dl', '0,50 - 0,90', 'hoch'],
    ['CRP', '0,3', 'mg/dl', '< 0,5', ''],
  ];
  rows.forEach((cells, i) => row(page, font, 685 - i * 18, at(columns, cells)));
  row(page, font, 580, [[50, 'Mit freundlichen Grüßen, Ihr Laborteam']]);
  return save(doc);
}

/** (c) A two-column report whose table continues on page 2 (collection date on page 1 only). */
export async function twoColumnReport(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const left = [40, 150, 185, 235];
  const right = [310, 420, 455, 505];
  const pages: (readonly string[])[][] = [
    [
      ['Sodium', '140', 'mmol/L', '136-145', 'Potassium', '4.1', 'mmol/L', '3.5-5.1'],
      ['Chloride', '101', 'mmol/L', '98-107', 'Calcium', '9.4', 'mg/dL', '8.6-10.3'],
      ['Cholesterol', '212', 'mg/dL', '< 200', 'Triglycerides', '150', 'mg/dL', '< 150'],
    ],
    [
      ['HDL cholesterol', '48', 'mg/dL', '> 40', 'LDL cholesterol', '134', 'mg/dL', '< 130'],
      ['ALT', '22', 'U/L', '7-56', 'AST', '19', 'U/L', '10-40'],
    ],
  ];
  pages.forEach((rows, n) => {
    const page = doc.addPage(A4);
    if (n === 0) {
      row(page, bold, 790, [[40, 'Northside Diagnostics']], 14);
      row(page, font, 770, [[40, 'Collection date: 2026-02-20']]);
    } else {
      row(page, font, 790, [[40, 'Northside Diagnostics - continued from page 1']]);
    }
    row(page, bold, 740, [...at(left, ['Test', 'Result', 'Unit', 'Range']), ...at(right, ['Test', 'Result', 'Unit', 'Range'])], 9);
    rows.forEach((cells, i) => {
      row(page, font, 722 - i * 16, [...at(left, cells.slice(0, 4)), ...at(right, cells.slice(4))], 9);
    });
    row(page, font, 60, [[40, `Page ${n + 1} of 2`]], 8);
  });
  return save(doc);
}

/** The lines the scanned report (d) prints, in a typewriter font: the spaces line the columns up. */
const SCANNED_LINES = [
  'City Hospital Laboratory',
  'Collected: 2026-01-15',
  'Test            Result   Units    Reference',
  'Ferritin        25  L    ng/mL    30-400',
  'Vitamin B12     180 L    pg/mL    200-900',
  'TSH             1.8      mIU/L    0.4-4.0',
];

/** (d) A scanned report: one page that is a picture only (a printed table, no text layer), read by OCR. */
export async function scannedReport(): Promise<Buffer> {
  const escaped = SCANNED_LINES.join('\n');
  // libvips renders the text white on black: turned around, it is print.
  const text = await sharp({ text: { text: escaped, font: 'DejaVu Sans Mono 12', dpi: 300, spacing: 20 } })
    .negate({ alpha: false })
    .png()
    .toBuffer();
  const png = await sharp(text)
    .extend({ top: 150, bottom: 150, left: 150, right: 150, background: { r: 255, g: 255, b: 255 } })
    .png()
    .toBuffer();
  const doc = await PDFDocument.create();
  const image = await doc.embedPng(png);
  const page = doc.addPage(A4);
  const scale = Math.min(535 / image.width, 782 / image.height);
  page.drawImage(image, { x: 30, y: 842 - 30 - image.height * scale, width: image.width * scale, height: image.height * scale });
  return save(doc);
}

/** (e) A letter that mentions tests and numbers but holds no lab values. */
export async function letterWithoutValues(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage(A4);
  const lines = [
    'Valley Family Clinic',
    'March 12, 2026',
    'Dear Ms Rivera,',
    'thank you for your visit. Your ferritin was a little low, so please take',
    'iron 100 mg once a day for 3 months and come back in June.',
    'We will check your hemoglobin and glucose again then.',
    'Kind regards, Dr. Maria Lopez',
  ];
  lines.forEach((line, i) => row(page, font, 780 - i * 18, [[50, line]], 11));
  return save(doc);
}

/** A page stored turned a quarter (/Rotate 90) whose table is drawn turned back: it reads upright. */
export async function rotatedReport(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage(A4);
  page.setRotation(degrees(90));
  const rows = [['Collected: 2026-04-02'], ['Ferritin', '41', 'ng/mL', '30-400'], ['Glucose', '92', 'mg/dL', '70-99']];
  rows.forEach((cells, r) =>
    cells.forEach((text, i) => page.drawText(text, { x: 100 + r * 20, y: 100 + i * 110, size: 10, font, rotate: degrees(90) })),
  );
  return save(doc);
}

/** Every lab fixture, by file name. */
export async function allLabFixtures(): Promise<Record<string, Buffer>> {
  return {
    'lab-us-clinic.pdf': await usClinicReport(),
    'lab-german.pdf': await germanReport(),
    'lab-two-columns.pdf': await twoColumnReport(),
    'lab-scanned.pdf': await scannedReport(),
    'lab-letter.pdf': await letterWithoutValues(),
    'lab-rotated.pdf': await rotatedReport(),
  };
}

/** Writes every lab fixture into `dir` (made if missing); answers the paths. */
export async function writeLabFixtures(dir: string): Promise<string[]> {
  fs.mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const [name, bytes] of Object.entries(await allLabFixtures())) {
    const file = path.join(dir, name);
    fs.writeFileSync(file, bytes);
    written.push(file);
  }
  return written;
}
