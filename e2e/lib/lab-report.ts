import { PDFDocument, StandardFonts } from 'pdf-lib';

// Issue 34: a lab report as a clinic prints it — a table in a typewriter face, one line per test —
// made here so the journey knows what the reader must find. Each line is drawn as one string, so
// the text layer holds its columns' spaces as written. (pdf-lib is the server's dependency,
// hoisted to the root node_modules, as e2e/lib/scans.ts uses it.)

/** A two-page US report: four tests on page 1 (one flagged low, two high), one on page 2. */
export const US_LAB_REPORT: string[][] = [
  [
    'Sunrise Clinical Laboratory',
    'Patient: Jane Example',
    'Collected: 03/04/2026',
    '',
    'Test                Result   Units    Reference range   Flag',
    'Hemoglobin          13.1     g/dL     12.0-16.0',
    'Ferritin            12       ng/mL    30-400            L',
    'Hemoglobin A1c      6.1      %        4.0-5.6           H',
    'Glucose             101      mg/dL    70-99             H',
  ],
  [
    'Sunrise Clinical Laboratory - page 2',
    '',
    'Test                Result   Units    Reference range   Flag',
    'TSH                 2.1      mIU/L    0.4-4.0',
  ],
];

/** A PDF with a text layer: one page per entry, its lines top to bottom. */
export async function labReportPdf(pages: readonly (readonly string[])[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Courier);
  for (const lines of pages) {
    const page = doc.addPage([612, 792]);
    lines.forEach((line, index) => {
      if (line !== '') page.drawText(line, { x: 48, y: 740 - index * 16, size: 10, font });
    });
  }
  return Buffer.from(await doc.save());
}
