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
      for (const item of content.items) {
        if ('str' in item) text += item.str + (item.hasEOL ? '\n' : '');
        if (text.length > input.maxChars) break;
      }
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
