import { PDFDocument, rgb } from 'pdf-lib';
import type { Color, PDFPage } from 'pdf-lib';
import type { Immunization } from '@kinchart/shared/clinical';
import { clampLines, wrap } from '../../lib/pdf-text';
import { embedPrintFonts } from '../../lib/print-fonts';
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
 * at the foot of every page. DejaVu Sans, so names in Greek or Cyrillic print as typed, and the Noto
 * fonts for Arabic (right to left, the table mirrored), Devanagari and Chinese/Japanese.
 */
export async function vaccinationRecordPdf(input: VaccinationRecordInput): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const tr = input.tr ?? translator('en');
  const title = input.name?.trim() ? tr.t('pdf.vaccination.title_named', { name: input.name.trim() }) : tr.t('pdf.vaccination.title');
  doc.setTitle(title);
  doc.setCreator('Kinchart');
  doc.setProducer('Kinchart');
  // Issue 35: the fonts the language and the person's own words need; Arabic is laid out right to left.
  const own = [input.name ?? '', ...input.immunizations.flatMap((r) => COLUMNS.map((c) => c.text(r)))];
  const fonts = await embedPrintFonts(doc, tr.language, own);
  const { rtl } = fonts;
  /** Draws a line from a point `offset` from the page's start edge (its right edge in Arabic). */
  const put = (p: PDFPage, text: string, offset: number, y: number, o: { size: number; bold?: boolean; color?: Color; own?: boolean }) =>
    fonts.draw(p, text, {
      x: rtl ? PAGE.width - offset : offset,
      y,
      size: o.size,
      bold: o.bold,
      color: o.color ?? INK,
      align: rtl ? 'end' : 'start',
      own: o.own,
    });

  const cellLines = (text: string, width: number, bold: boolean) => {
    const measure = (s: string) => fonts.width(s, SIZE, bold);
    return clampLines(wrap(text, width - 2 * PAD, measure), MAX_CELL_LINES, width - 2 * PAD, measure);
  };
  const footerTop = MARGIN + 14;

  let page: PDFPage = doc.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - MARGIN;

  // The heading block, on the first page only.
  y -= 20;
  put(page, tr.t('pdf.vaccination.title'), MARGIN, y, { size: 20, bold: true });
  y -= 12;
  const valueWidth = PAGE.width - 2 * MARGIN - 90;
  const measure10 = (s: string) => fonts.width(s, 10);
  const detail = (label: string, value: string, ownValue: boolean) => {
    y -= 14;
    put(page, label, MARGIN, y, { size: 10, bold: true });
    clampLines(wrap(value, valueWidth, measure10), 2, valueWidth, measure10).forEach((line, i) => {
      if (i > 0) y -= 13;
      put(page, line, MARGIN + 90, y, { size: 10, own: ownValue });
    });
  };
  const notProvided = tr.t('pdf.vaccination.not_provided');
  detail(tr.t('pdf.vaccination.name'), input.name?.trim() || notProvided, Boolean(input.name?.trim()));
  detail(tr.t('pdf.vaccination.date_of_birth'), input.dateOfBirth || notProvided, Boolean(input.dateOfBirth));
  y -= 18;

  const drawHeader = () => {
    const height = LEADING + 2 * PAD;
    page.drawRectangle({ x: MARGIN, y: y - height, width: PAGE.width - 2 * MARGIN, height, color: HEADER_FILL });
    let x = MARGIN;
    for (const column of COLUMNS) {
      // A longer heading in another language is set smaller to keep to its column.
      const heading = tr.t(column.title);
      const size = Math.max(6, Math.min(SIZE, (column.width - 2 * PAD) / Math.max(1, fonts.width(heading, 1, true))));
      put(page, heading, x + PAD, y - PAD - SIZE, { size, bold: true });
      x += column.width;
    }
    y -= height;
    page.drawLine({ start: { x: MARGIN, y }, end: { x: PAGE.width - MARGIN, y }, thickness: 0.6, color: RULE });
  };

  if (input.immunizations.length === 0) {
    y -= 4;
    put(page, tr.t('pdf.vaccination.none'), MARGIN, y - SIZE - 2, { size: 10, color: MUTED });
  } else {
    drawHeader();
    for (const row of input.immunizations) {
      const cells = COLUMNS.map((column, i) => cellLines(column.text(row), column.width, i === 0));
      const height = Math.max(...cells.map((lines) => lines.length)) * LEADING + 2 * PAD;
      if (y - height < footerTop + 8) {
        page = doc.addPage([PAGE.width, PAGE.height]);
        y = PAGE.height - MARGIN;
        // A loose page still says whose record it is.
        y -= 9;
        put(page, tr.t('pdf.vaccination.continued', { title }), MARGIN, y, { size: 9, color: MUTED });
        y -= 9;
        drawHeader();
      }
      let x = MARGIN;
      cells.forEach((lines, i) => {
        lines.forEach((line, n) => {
          put(page, line, x + PAD, y - PAD - SIZE - n * LEADING, { size: SIZE, bold: i === 0, own: true });
        });
        x += COLUMNS[i]?.width ?? 0;
      });
      y -= height;
      page.drawLine({ start: { x: MARGIN, y }, end: { x: PAGE.width - MARGIN, y }, thickness: 0.4, color: RULE });
    }
  }

  // The foot of every page, once the number of pages is known: the printed line at the start edge,
  // the page number at the end edge.
  const pages = doc.getPages();
  const printed = tr.t('pdf.vaccination.printed', { date: localDay(input.printedOn, tr.language) });
  pages.forEach((p, i) => {
    put(p, printed, MARGIN, MARGIN, { size: 8, color: MUTED });
    const number = tr.t('pdf.vaccination.page', { page: i + 1, pages: pages.length });
    put(p, number, PAGE.width - MARGIN - fonts.width(number, 8), MARGIN, { size: 8, color: MUTED });
  });

  return Buffer.from(await doc.save());
}

/** "vaccination-record-mia-rivera.pdf": ASCII only, so the header needs no encoding and holds nothing but the name. */
export function vaccinationRecordFileName(name: string | null): string {
  const slug = asciiSlug(name);
  return `vaccination-record${slug ? `-${slug}` : ''}.pdf`;
}
