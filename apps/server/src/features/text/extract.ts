import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import type { WorkerInput, WorkerOutput } from './text-worker';
import { TEXT_REASONS, UnreadableError, UnsupportedError } from './text-reasons';

// Issue 33, docs/decisions/0047: a file's bytes in, its text page by page out. Nothing heavy runs on
// the event loop: PDF and DOCX parsing in a worker thread (heap-limited), images through sharp
// (libvips, on libuv's pool), and the page pictures and OCR in child processes (pdftoppm,
// tesseract) under an address-space limit and a per-page timeout, killed when either runs out.
// Decrypted bytes go through pipes only, never to disk. Nothing here logs.

export interface ExtractLimits {
  /** A larger file is not read at all (its bytes would be held in memory whole). */
  maxFileBytes: number;
  /** Per page (OCR of one page, or the text layer of the whole PDF). */
  pageTimeoutMs: number;
  /** PDF pages (and TIFF frames) read at most. */
  maxPages: number;
  /** Characters kept per page. */
  maxChars: number;
  /** An image over this many pixels is refused (decompression bombs). */
  maxInputPixels: number;
  /** The long side OCR reads at (larger pictures are scaled down). */
  ocrLongSide: number;
  /** Address space each child process may take (bytes). */
  childMemoryBytes: number;
  /** JavaScript heap of the parsing worker (MB). */
  workerHeapMb: number;
}

export const DEFAULT_LIMITS: ExtractLimits = {
  maxFileBytes: 100 * 1024 * 1024,
  pageTimeoutMs: 60_000,
  maxPages: 500,
  maxChars: 100_000,
  maxInputPixels: 40_000_000,
  ocrLongSide: 3500,
  childMemoryBytes: 1024 * 1024 * 1024,
  workerHeapMb: 256,
};

export interface ExtractOptions {
  /** Tesseract language codes, e.g. ['eng', 'spa']. */
  languages: readonly string[];
  limits: ExtractLimits;
  /** Aborted when the runner stops: children are killed, the worker ended. */
  signal: AbortSignal;
  /** Called after each page read (the runner renews its lease). */
  onPage?: () => Promise<void>;
}

/** A page whose text layer has fewer letters or digits than this is read from its picture. */
const MIN_LAYER_CHARS = 16;

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/tiff', 'image/webp', 'image/gif']);
const HEIC_TYPES = new Set(['image/heic', 'image/heic-sequence', 'image/heif', 'image/heif-sequence']);
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

class AbortedError extends Error {
  constructor() {
    super('Reading was stopped');
    this.name = 'AbortError';
  }
}

const PRLIMIT = ['/usr/bin/prlimit', '/bin/prlimit'].find((p) => fs.existsSync(p));

/**
 * Runs a tool with `input` on its stdin and answers its stdout; killed (and failed with `onTimeout`)
 * after `timeoutMs`, when its output passes `maxOutput` bytes, or when `signal` aborts.
 */
function runTool(
  command: string,
  args: readonly string[],
  input: Buffer,
  opts: { timeoutMs: number; maxOutput: number; memoryBytes: number; signal: AbortSignal; failure: string },
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (opts.signal.aborted) return reject(new AbortedError());
    const [file, argv] = PRLIMIT ? [PRLIMIT, [`--as=${opts.memoryBytes}`, '--', command, ...args]] : [command, [...args]];
    // OMP_THREAD_LIMIT=1: one core per page; TEXT_WORKERS decides how many run at once.
    const child = spawn(file, argv, {
      stdio: ['pipe', 'pipe', 'ignore'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', OMP_THREAD_LIMIT: '1' },
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (error: Error | null, value?: Buffer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal.removeEventListener('abort', onAbort);
      if (error) {
        child.kill('SIGKILL');
        reject(error);
      } else resolve(value ?? Buffer.alloc(0));
    };
    const timer = setTimeout(() => finish(new UnreadableError(TEXT_REASONS.timeout)), opts.timeoutMs);
    const onAbort = () => finish(new AbortedError());
    opts.signal.addEventListener('abort', onAbort);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > opts.maxOutput) finish(new UnreadableError(opts.failure));
      else chunks.push(chunk);
    });
    child.on('error', (error) => finish(error));
    child.on('close', (code) => {
      if (code === 0) finish(null, Buffer.concat(chunks));
      // 126/127: the tool could not be started (not installed): the server's fault, not the file's.
      else if (code === 126 || code === 127) finish(new Error(`${command} could not be started`));
      else finish(new UnreadableError(opts.failure));
    });
    // A tool that stops reading early (a bad file) closes its stdin: not our failure to report.
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

/** Parses a PDF's text layer or a DOCX in a worker thread; ended at the timeout or on abort. */
function inWorker(input: WorkerInput, opts: ExtractOptions): Promise<WorkerOutput> {
  const here = import.meta.url;
  // Beside the sources (tests) the worker is TypeScript; in the build it is dist/text-worker.js.
  const url = new URL(here.endsWith('.ts') ? './text-worker.ts' : './text-worker.js', here);
  return new Promise((resolve, reject) => {
    if (opts.signal.aborted) return reject(new AbortedError());
    const failure = input.kind === 'pdf' ? TEXT_REASONS.pdf : TEXT_REASONS.document;
    const worker = new Worker(url, {
      workerData: input,
      resourceLimits: { maxOldGenerationSizeMb: opts.limits.workerHeapMb, maxYoungGenerationSizeMb: 32 },
      stdout: true,
      stderr: true,
    });
    let settled = false;
    const finish = (error: Error | null, value?: WorkerOutput) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal.removeEventListener('abort', onAbort);
      void worker.terminate();
      if (error) reject(error);
      else if (value) resolve(value);
    };
    // The whole text layer gets the time of a few pages.
    const timer = setTimeout(() => finish(new UnreadableError(TEXT_REASONS.timeout)), opts.limits.pageTimeoutMs * 3);
    const onAbort = () => finish(new AbortedError());
    opts.signal.addEventListener('abort', onAbort);
    worker.on('message', (message: WorkerOutput) => finish(null, message));
    // Out of memory, or a crash inside the parser: this file's failure.
    worker.on('error', () => finish(new UnreadableError(failure)));
    worker.on('exit', () => finish(new UnreadableError(failure)));
  });
}

/**
 * An image as OCR wants it: upright by its EXIF, on white, gray, at most `ocrLongSide`, as a PGM
 * (uncompressed: no time spent packing and unpacking a PNG between sharp and Tesseract). Refuses bombs.
 */
async function normalise(input: Buffer, limits: ExtractLimits, page = 0): Promise<Buffer> {
  try {
    const { data, info } = await sharp(input, { limitInputPixels: limits.maxInputPixels, page, failOn: 'none' })
      .rotate()
      .resize({ width: limits.ocrLongSide, height: limits.ocrLongSide, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .toColourspace('b-w')
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 1) throw new Error('expected one channel');
    return Buffer.concat([Buffer.from(`P5\n${info.width} ${info.height}\n255\n`, 'ascii'), data]);
  } catch (error) {
    const message = (error as Error).message ?? '';
    throw new UnreadableError(/pixel limit/i.test(message) ? TEXT_REASONS.imageTooLarge : TEXT_REASONS.image);
  }
}

/**
 * Tesseract on one page picture (PGM): LSTM engine, automatic page layout (it deskews small angles). The spaces between
 * words are kept as wide as the page has them, so a scanned table's columns stay apart (issue 34, decision 0052).
 */
async function ocr(picture: Buffer, opts: ExtractOptions): Promise<string> {
  const languages = opts.languages.length > 0 ? opts.languages.join('+') : 'eng';
  const args = ['stdin', 'stdout', '-l', languages, '--oem', '1', '--psm', '3', '-c', 'preserve_interword_spaces=1'];
  const out = await runTool('tesseract', args, picture, {
    timeoutMs: opts.limits.pageTimeoutMs,
    maxOutput: opts.limits.maxChars * 4,
    memoryBytes: opts.limits.childMemoryBytes,
    signal: opts.signal,
    failure: TEXT_REASONS.image,
  });
  return tidy(out.toString('utf8'), opts.limits.maxChars);
}

/** One PDF page as a gray PGM, its long side at most `ocrLongSide` (about 300 dpi for A4). */
function renderPdfPage(pdf: Buffer, page: number, opts: ExtractOptions): Promise<Buffer> {
  const n = String(page);
  return runTool('pdftoppm', ['-f', n, '-l', n, '-scale-to', String(opts.limits.ocrLongSide), '-gray', '-'], pdf, {
    timeoutMs: opts.limits.pageTimeoutMs,
    // A gray picture of ocrLongSide² bytes at most, and its header.
    maxOutput: opts.limits.ocrLongSide * opts.limits.ocrLongSide + 1024,
    memoryBytes: opts.limits.childMemoryBytes,
    signal: opts.signal,
    failure: TEXT_REASONS.pdf,
  });
}

/** Control characters but tab and newline (PostgreSQL's text refuses NUL; none of them is text). */
// eslint-disable-next-line no-control-regex -- these are exactly what is removed
const CONTROLS = /[\u0000-\u0008\u000B\u000E-\u001F\u007F]/g;

/** Control characters, trailing spaces and runs of blank lines go; the text is cut at `max` characters. */
function tidy(text: string, max: number): string {
  const lines = text
    .replace(/\r\n?|\f/g, '\n')
    .replace(CONTROLS, '')
    .split('\n');
  const kept: string[] = [];
  for (const line of lines) {
    const trimmed = line.trimEnd();
    if (trimmed === '' && (kept.length === 0 || kept[kept.length - 1] === '')) continue;
    kept.push(trimmed);
  }
  while (kept.length > 0 && kept[kept.length - 1] === '') kept.pop();
  return kept.join('\n').slice(0, max);
}

const letters = (text: string): number => {
  let n = 0;
  for (const ch of text) if (/[\p{L}\p{N}]/u.test(ch)) n += 1;
  return n;
};

async function pdfText(bytes: Buffer, opts: ExtractOptions): Promise<string[]> {
  const parsed = await inWorker({ kind: 'pdf', bytes, maxPages: opts.limits.maxPages, maxChars: opts.limits.maxChars }, opts);
  if (!parsed.ok) throw new UnreadableError(TEXT_REASONS[parsed.failure]);
  await opts.onPage?.();
  const pages: string[] = [];
  for (const [index, layer] of parsed.pages.entries()) {
    if (letters(layer) >= MIN_LAYER_CHARS) {
      pages.push(tidy(layer, opts.limits.maxChars));
      continue;
    }
    // A scanned page: its picture is read.
    const picture = await renderPdfPage(bytes, index + 1, opts);
    const read = await ocr(picture, opts);
    pages.push(letters(read) > letters(layer) ? read : tidy(layer, opts.limits.maxChars));
    await opts.onPage?.();
  }
  return pages;
}

async function imageText(bytes: Buffer, opts: ExtractOptions): Promise<string[]> {
  let frames = 1;
  try {
    const meta = await sharp(bytes, { limitInputPixels: opts.limits.maxInputPixels }).metadata();
    // A multi-page TIFF is a scanned document: each page is read. (A GIF's frames are one picture.)
    if (meta.format === 'tiff') frames = Math.min(meta.pages ?? 1, opts.limits.maxPages);
  } catch (error) {
    throw new UnreadableError(/pixel limit/i.test((error as Error).message ?? '') ? TEXT_REASONS.imageTooLarge : TEXT_REASONS.image);
  }
  const pages: string[] = [];
  for (let page = 0; page < frames; page += 1) {
    pages.push(await ocr(await normalise(bytes, opts.limits, page), opts));
    await opts.onPage?.();
  }
  return pages;
}

/** UTF-8 text, its byte order mark dropped, cut at `maxChars` (undecodable bytes become U+FFFD). */
function plainText(bytes: Buffer, maxChars: number): string[] {
  const head = bytes.subarray(0, maxChars * 4);
  const text = new TextDecoder('utf-8', { ignoreBOM: false }).decode(head);
  return [tidy(text, maxChars)];
}

/** The text of a file of type `mime`, page by page (pages number from 1 in this order). */
export async function extractPages(bytes: Buffer, mime: string, opts: ExtractOptions): Promise<string[]> {
  if (mime === 'application/pdf') return pdfText(bytes, opts);
  if (IMAGE_TYPES.has(mime)) return imageText(bytes, opts);
  if (mime === DOCX) {
    const parsed = await inWorker({ kind: 'docx', bytes, maxPages: 1, maxChars: opts.limits.maxChars }, opts);
    if (!parsed.ok) throw new UnreadableError(TEXT_REASONS.document);
    return parsed.pages.map((p) => tidy(p, opts.limits.maxChars));
  }
  if (mime === 'text/plain') return plainText(bytes, opts.limits.maxChars);
  if (HEIC_TYPES.has(mime)) throw new UnsupportedError(TEXT_REASONS.heic);
  throw new UnsupportedError(TEXT_REASONS.unsupported);
}

export const isAbort = (error: unknown): boolean => error instanceof AbortedError;

/** The tools OCR needs that are not on PATH (Debian: tesseract-ocr, poppler-utils). */
export function missingTools(): string[] {
  const dirs = (process.env.PATH ?? '').split(':').filter(Boolean);
  return ['tesseract', 'pdftoppm'].filter((tool) => !dirs.some((dir) => fs.existsSync(`${dir}/${tool}`)));
}
