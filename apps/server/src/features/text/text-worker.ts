import { parentPort, workerData } from 'node:worker_threads';
import { getDocument, VerbosityLevel } from 'pdfjs-dist/legacy/build/pdf.mjs';
import mammoth from 'mammoth';

// Issue 33, docs/decisions/0047: the JavaScript parsing of a file's text (a PDF's text layer, a
// DOCX's words) runs here, in a worker thread with its own heap limit, so a large or hostile file
// neither blocks the server's event loop nor takes its memory. One worker per file, ended after it.
// This file imports npm packages only: Node runs it as it is (type stripping) beside the sources
// and as dist/text-worker.js in the build.

export interface WorkerInput {
  kind: 'pdf' | 'docx';
  bytes: Uint8Array;
  /** PDF pages past this one are not read. */
  maxPages: number;
  /** Characters kept per page. */
  maxChars: number;
}

export type WorkerOutput = { ok: true; pages: string[]; totalPages: number } | { ok: false; failure: 'pdf' | 'pdfLocked' | 'document' };

/** A run of text on a page: where it starts and ends along its line, its baseline, its size (viewport units, y down). */
interface Piece {
  text: string;
  x: number;
  end: number;
  y: number;
  size: number;
}

/**
 * One pdfjs text item placed on the page as the reader sees it (the viewport turns a rotated page upright). Spaces at
 * its ends are taken off, and its extent with them; a blank item gives nothing (the positions say where words part).
 */
function pieceOf(str: string, transform: number[], width: number, height: number, view: number[]): Piece | null {
  const text = str.trim();
  if (text === '') return null;
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = transform;
  const [va = 1, vb = 0, vc = 0, vd = 1, ve = 0, vf = 0] = view;
  const x = va * e + vc * f + ve;
  const y = vb * e + vd * f + vf;
  // The direction the text runs in, on the viewport: its width lies along it.
  const dx = va * a + vc * b;
  const dy = vb * a + vd * b;
  const scale = Math.hypot(dx, dy) || 1;
  const along = Math.abs(dx / scale) >= Math.abs(dy / scale) ? Math.sign(dx / scale) || 1 : 0;
  const size = height > 0 ? height : Math.hypot(c, d) || Math.hypot(a, b) || 10;
  const perChar = str.length > 0 ? width / str.length : 0;
  const lead = str.length - str.trimStart().length;
  const trail = str.length - str.trimEnd().length;
  // Vertical text (a label along the margin) keeps its start; its width does not run along a line.
  if (along === 0) return { text, x, end: x + perChar * text.length, y, size };
  const start = along > 0 ? x + lead * perChar : x - width + trail * perChar;
  return { text, x: start, end: start + perChar * text.length, y, size };
}

/** A gap wider than this many average characters parts two columns (lab-values.ts reads 3+ spaces as one). */
const COLUMN_GAP_CHARS = 1.5;
/** A gap narrower than this many average characters is no gap (a word split into two items). */
const WORD_GAP_CHARS = 0.15;

/**
 * A page's text from its items' positions: items on one baseline (within a third of their size) are one line, lines
 * from top to bottom, items left to right; a word gap is one space, a column gap three — so a table's cells stay apart
 * ("Ferritin   12   ng/mL") and two columns side by side stay on one line with the gap between them.
 */
function layout(pieces: Piece[]): string {
  pieces.sort((p, q) => p.y - q.y || p.x - q.x);
  const lines: Piece[][] = [];
  let current: Piece[] = [];
  let baseline = 0;
  let size = 0;
  for (const piece of pieces) {
    if (current.length > 0 && Math.abs(piece.y - baseline) <= Math.max(1, Math.min(size, piece.size) / 3)) {
      current.push(piece);
      continue;
    }
    if (current.length > 0) lines.push(current);
    current = [piece];
    baseline = piece.y;
    size = piece.size;
  }
  if (current.length > 0) lines.push(current);
  return lines
    .map((line) => {
      line.sort((p, q) => p.x - q.x);
      let width = 0;
      let chars = 0;
      for (const p of line) {
        width += p.end - p.x;
        chars += p.text.length;
      }
      const average = chars > 0 && width > 0 ? width / chars : 5;
      let out = '';
      let end = -Infinity;
      for (const p of line) {
        const gap = p.x - end;
        if (out !== '') out += gap > COLUMN_GAP_CHARS * average ? '   ' : gap > WORD_GAP_CHARS * average ? ' ' : '';
        out += p.text;
        end = Math.max(end, p.end);
      }
      return out;
    })
    .join('\n');
}

async function pdfPages(input: WorkerInput): Promise<WorkerOutput> {
  const task = getDocument({
    data: input.bytes,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: VerbosityLevel.ERRORS,
  });
  let doc;
  try {
    doc = await task.promise;
  } catch (error) {
    return { ok: false, failure: (error as { name?: string }).name === 'PasswordException' ? 'pdfLocked' : 'pdf' };
  }
  const pages: string[] = [];
  const count = Math.min(doc.numPages, input.maxPages);
  for (let n = 1; n <= count; n += 1) {
    let text = '';
    try {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      const viewport = page.getViewport({ scale: 1 });
      const pieces: Piece[] = [];
      let chars = 0;
      for (const item of content.items) {
        if (!('str' in item)) continue;
        const piece = pieceOf(item.str, item.transform as number[], item.width, item.height, viewport.transform);
        if (piece) pieces.push(piece);
        chars += item.str.length;
        // Enough for the page's limit, with room for the spaces the layout adds.
        if (chars > input.maxChars) break;
      }
      text = layout(pieces);
      page.cleanup();
    } catch {
      // A damaged page reads as empty: it may still be read from its picture.
      text = '';
    }
    pages.push(text.slice(0, input.maxChars));
  }
  await doc.destroy();
  return { ok: true, pages, totalPages: doc.numPages };
}

async function docxText(input: WorkerInput): Promise<WorkerOutput> {
  try {
    const { value } = await mammoth.extractRawText({
      buffer: Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength),
    });
    return { ok: true, pages: [value.slice(0, input.maxChars)], totalPages: 1 };
  } catch {
    return { ok: false, failure: 'document' };
  }
}

const input = workerData as WorkerInput;
const output = input.kind === 'pdf' ? await pdfPages(input) : await docxText(input);
parentPort?.postMessage(output);
