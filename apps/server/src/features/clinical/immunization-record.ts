import { PDFDocument, rgb } from 'pdf-lib';
import type { PDFFont, PDFPage } from 'pdf-lib';
import fontkit from '@pdf-lib/fontkit';
import type { Immunization } from '@kinchart/shared/clinical';
import { clampLines, fontData, wrap } from '../../lib/pdf-text';
import { asciiSlug } from '../../lib/ascii-slug';
import { localDay } from '../../i18n/formats';
import { translator, type Translator } from '../../i18n/translator';

/** What the printed record shows: the person and their immunizations, newest first as listed. */
export interface VaccinationRecordInput {
  name: string | null;
  dateOfBirth: string | null;
  immunizations: readonly Pick<Immunization, 'vaccine' | 'date' | 'dose_number' | 'lot_number' | 'site' | 'performer'>[];
  /** The day it is printed, YYYY-MM-DD. */
  printedOn: string;
  /** Issue 35: the requester's language for the labels (English when left out; see i18n/printable.ts). */
  tr?: Translator;
}

/** A4 portrait. */
const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 42;
const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.33, 0.33, 0.37);
const RULE = rgb(0.75, 0.75, 0.78);
const HEADER_FILL = rgb(0.93, 0.95, 0.97);

const SIZE = 9;
const LEADING = 11.5;
const PAD = 4;
/** A cell never runs longer than this; the rest ends in an ellipsis (fields hold at most 200 characters). */
const MAX_CELL_LINES = 6;
const NOT_GIVEN = '—';

type Row = VaccinationRecordInput['immunizations'][number];
/** Each column's catalog id (issue 35: its title in the requester's language), width and text. */
const COLUMNS: { title: string; width: number; text: (r: Row) => string }[] = [
  { title: 'pdf.vaccination.vaccine', width: 150, text: (r) => r.vaccine },
  // DESIGN §12: a partial date prints as it was given (2015, 2015-03, 2015-03-14).
  { title: 'pdf.vaccination.date', width: 66, text: (r) => r.date ?? NOT_GIVEN },
  { title: 'pdf.vaccination.dose', width: 38, text: (r) => (r.dose_number === null ? NOT_GIVEN : String(r.dose_number)) },
  { title: 'pdf.vaccination.lot', width: 72, text: (r) => r.lot_number ?? NOT_GIVEN },
  { title: 'pdf.vaccination.site', width: 78, text: (r) => r.site ?? NOT_GIVEN },
  { title: 'pdf.vaccination.performer', width: PAGE.width - 2 * MARGIN - (150 + 66 + 38 + 72 + 78), text: (r) => r.performer ?? NOT_GIVEN },
];

/**
 * The person's vaccination record to print or hand over (DESIGN §12): a title, the name and date
 * of birth, a table of vaccine, date, dose, lot, site and performer that runs onto as many pages as
 * it needs (its header repeated on each), and "Printed {date} from Kinchart" with the page number
 * at the foot of every page. DejaVu Sans, so names in Greek or Cyrillic print as typed.
 */
export async function vaccinationRecordPdf(input: VaccinationRecordInput): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const tr = input.tr ?? translator('en');
  const title = input.name?.trim() ? tr.t('pdf.vaccination.title_named', { name: input.name.trim() }) : tr.t('pdf.vaccination.title');
  doc.setTitle(title);
  doc.setCreator('Kinchart');
  doc.setProducer('Kinchart');
  const fonts = fontData();
  const regular = await doc.embedFont(fonts.regular, { subset: true });
  const bold = await doc.embedFont(fonts.bold, { subset: true });

  const cellLines = (text: string, width: number, font: PDFFont) => {
    const measure = (s: string) => font.widthOfTextAtSize(s, SIZE);
    return clampLines(wrap(text, width - 2 * PAD, measure), MAX_CELL_LINES, width - 2 * PAD, measure);
  };
  const footerTop = MARGIN + 14;

  let page: PDFPage = doc.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - MARGIN;

  // The heading block, on the first page only.
  y -= 20;
  page.drawText(tr.t('pdf.vaccination.title'), { x: MARGIN, y, size: 20, font: bold, color: INK });
  y -= 12;
  const valueWidth = PAGE.width - 2 * MARGIN - 90;
  const measure10 = (s: string) => regular.widthOfTextAtSize(s, 10);
  const detail = (label: string, value: string) => {
    y -= 14;
    page.drawText(label, { x: MARGIN, y, size: 10, font: bold, color: INK });
    clampLines(wrap(value, valueWidth, measure10), 2, valueWidth, measure10).forEach((line, i) => {
      if (i > 0) y -= 13;
      page.drawText(line, { x: MARGIN + 90, y, size: 10, font: regular, color: INK });
    });
  };
  const notProvided = tr.t('pdf.vaccination.not_provided');
  detail(tr.t('pdf.vaccination.name'), input.name?.trim() || notProvided);
  detail(tr.t('pdf.vaccination.date_of_birth'), input.dateOfBirth || notProvided);
  y -= 18;

  const drawHeader = () => {
    const height = LEADING + 2 * PAD;
    page.drawRectangle({ x: MARGIN, y: y - height, width: PAGE.width - 2 * MARGIN, height, color: HEADER_FILL });
    let x = MARGIN;
    for (const column of COLUMNS) {
      // A longer heading in another language is set smaller to keep to its column.
      const heading = tr.t(column.title);
      const size = Math.max(6, Math.min(SIZE, (column.width - 2 * PAD) / Math.max(1, bold.widthOfTextAtSize(heading, 1))));
      page.drawText(heading, { x: x + PAD, y: y - PAD - SIZE, size, font: bold, color: INK });
      x += column.width;
    }
    y -= height;
    page.drawLine({ start: { x: MARGIN, y }, end: { x: PAGE.width - MARGIN, y }, thickness: 0.6, color: RULE });
  };

  if (input.immunizations.length === 0) {
    y -= 4;
    page.drawText(tr.t('pdf.vaccination.none'), { x: MARGIN, y: y - SIZE - 2, size: 10, font: regular, color: MUTED });
  } else {
    drawHeader();
    for (const row of input.immunizations) {
      const cells = COLUMNS.map((column, i) => cellLines(column.text(row), column.width, i === 0 ? bold : regular));
      const height = Math.max(...cells.map((lines) => lines.length)) * LEADING + 2 * PAD;
      if (y - height < footerTop + 8) {
        page = doc.addPage([PAGE.width, PAGE.height]);
        y = PAGE.height - MARGIN;
        // A loose page still says whose record it is.
        y -= 9;
        page.drawText(tr.t('pdf.vaccination.continued', { title }), { x: MARGIN, y, size: 9, font: regular, color: MUTED });
        y -= 9;
        drawHeader();
      }
      let x = MARGIN;
      cells.forEach((lines, i) => {
        lines.forEach((line, n) => {
          page.drawText(line, { x: x + PAD, y: y - PAD - SIZE - n * LEADING, size: SIZE, font: i === 0 ? bold : regular, color: INK });
        });
        x += COLUMNS[i]?.width ?? 0;
      });
      y -= height;
      page.drawLine({ start: { x: MARGIN, y }, end: { x: PAGE.width - MARGIN, y }, thickness: 0.4, color: RULE });
    }
  }

  // The foot of every page, once the number of pages is known.
  const pages = doc.getPages();
  const printed = tr.t('pdf.vaccination.printed', { date: localDay(input.printedOn, tr.language) });
  pages.forEach((p, i) => {
    p.drawText(printed, { x: MARGIN, y: MARGIN, size: 8, font: regular, color: MUTED });
    const number = tr.t('pdf.vaccination.page', { page: i + 1, pages: pages.length });
    p.drawText(number, { x: PAGE.width - MARGIN - regular.widthOfTextAtSize(number, 8), y: MARGIN, size: 8, font: regular, color: MUTED });
  });

  return Buffer.from(await doc.save());
}

/** "vaccination-record-mia-rivera.pdf": ASCII only, so the header needs no encoding and holds nothing but the name. */
export function vaccinationRecordFileName(name: string | null): string {
  const slug = asciiSlug(name);
  return `vaccination-record${slug ? `-${slug}` : ''}.pdf`;
}
