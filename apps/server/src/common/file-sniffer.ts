import { fileTypeFromBuffer } from 'file-type';
import { UNSUPPORTED_FILE_MESSAGE, fileTooLargeMessage, isAcceptedMime } from '@kinchart/shared/files';
import { HttpError, badRequest } from '../lib/http-errors';

// DESIGN §6: the bytes decide what a file is — never its declared type or its extension. Most
// types are settled by their magic bytes in the first chunk (file-type). Three need to see more,
// so they are checked while the file streams and settled when it ends (before anything commits):
//   plain text   every byte must be valid UTF-8 with no NUL;
//   DOCX / XLSX  a ZIP whose [Content_Types].xml was not in the first chunk: the entry names
//                ([Content_Types].xml plus word/ or xl/) are read from the local file headers;
//   DOC          an OLE compound file (also the container of .msi installers) is a Word document
//                only if its directory holds a "WordDocument" stream.

/** How much of the start of a file is held for the magic-byte check. */
export const SNIFF_BYTES = 64 * 1024;

export const unsupportedType = () => new HttpError(415, UNSUPPORTED_FILE_MESSAGE);
export const tooLarge = (maxMb: number) => new HttpError(413, fileTooLargeMessage(maxMb));

// The checks are classes rather than object literals of closures: their methods are the same
// functions for every upload, so V8's optimised sniffUpload is not thrown away at the end of each
// upload for a "wrong call target" (docs/decisions/0008).
interface Check {
  update(chunk: Buffer): void;
  /** The MIME type to store, or null to refuse the file. */
  finish(): string | null;
}

/** Settled by the magic bytes alone. */
class FixedCheck implements Check {
  constructor(private readonly mime: string) {}
  update(): void {}
  finish(): string | null {
    return this.mime;
  }
}

class TextCheck implements Check {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private ok = true;

  update(chunk: Buffer): void {
    if (!this.ok) return;
    if (chunk.includes(0)) this.ok = false;
    else {
      try {
        this.decoder.decode(chunk, { stream: true });
      } catch {
        this.ok = false;
      }
    }
  }

  finish(): string | null {
    try {
      this.decoder.decode();
    } catch {
      this.ok = false;
    }
    return this.ok ? 'text/plain' : null;
  }
}

/** The bytes to scan for a pattern across chunk boundaries: the last `overlap` bytes seen, then the chunk. */
class TailWindow {
  private carry = Buffer.alloc(0);
  constructor(private readonly overlap: number) {}

  next(chunk: Buffer): Buffer {
    const window = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    this.carry = Buffer.from(window.subarray(Math.max(0, window.length - this.overlap)));
    return window;
  }
}

const ZIP_LOCAL_HEADER = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const ZIP_MAX_NAME = 1024;

class OfficeZipCheck implements Check {
  private readonly tail = new TailWindow(30 + ZIP_MAX_NAME);
  private contentTypes = false;
  private word = false;
  private sheet = false;

  update(chunk: Buffer): void {
    const window = this.tail.next(chunk);
    for (let i = window.indexOf(ZIP_LOCAL_HEADER); i !== -1; i = window.indexOf(ZIP_LOCAL_HEADER, i + 4)) {
      if (i + 30 > window.length) break;
      const nameLength = window.readUInt16LE(i + 26);
      if (nameLength > ZIP_MAX_NAME || i + 30 + nameLength > window.length) continue;
      const name = window.toString('latin1', i + 30, i + 30 + nameLength);
      if (name === '[Content_Types].xml') this.contentTypes = true;
      else if (name.startsWith('word/')) this.word = true;
      else if (name.startsWith('xl/')) this.sheet = true;
    }
  }

  finish(): string | null {
    if (!this.contentTypes || this.word === this.sheet) return null;
    return this.word
      ? 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
      : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  }
}

const WORD_STREAM_NAME = Buffer.from('WordDocument\0', 'utf16le');

class WordBinaryCheck implements Check {
  private readonly tail = new TailWindow(WORD_STREAM_NAME.length);
  private found = false;

  update(chunk: Buffer): void {
    if (!this.found && this.tail.next(chunk).includes(WORD_STREAM_NAME)) this.found = true;
  }

  finish(): string | null {
    return this.found ? 'application/msword' : null;
  }
}

/** Text that a browser would sniff as markup (HTML, XML, SVG) is not "plain text". */
function startsLikeMarkup(head: Buffer): boolean {
  let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x09 || head[i] === 0x0a || head[i] === 0x0d || head[i] === 0x0c)) i += 1;
  if (head[i] !== 0x3c) return false; // '<'
  const next = head[i + 1];
  return next === undefined || next === 0x21 || next === 0x3f || next === 0x2f || /[A-Za-z]/.test(String.fromCharCode(next));
}

async function classify(head: Buffer): Promise<Check | null> {
  let detected: { mime: string } | undefined;
  try {
    detected = await fileTypeFromBuffer(head);
  } catch {
    detected = undefined;
  }
  if (detected) {
    if (isAcceptedMime(detected.mime)) return new FixedCheck(detected.mime);
    if (detected.mime === 'application/zip') return new OfficeZipCheck();
    if (detected.mime === 'application/x-cfb') return new WordBinaryCheck();
    return null;
  }
  if (startsLikeMarkup(head)) return null;
  return new TextCheck();
}

/** Filled in once the stream has ended cleanly (never during it: see sniffUpload). */
export interface SniffOutcome {
  /** Sniffed MIME type. */
  mime: string | null;
  /** Plaintext bytes. */
  size: number;
}

/**
 * Passes an upload through unchanged while deciding its type. Throws 415 (as early as the first
 * chunk allows) for a type off the allowlist, 413 past `maxBytes`, 400 for an empty file; the
 * caller's pipeline then removes whatever was written.
 *
 * The loop keeps its count in a local and touches `outcome` only at the end: writing the caller's
 * object per chunk made V8 throw the optimised loop away once `mime` changed from null to a string
 * (docs/decisions/0008).
 */
export async function* sniffUpload(
  source: AsyncIterable<Uint8Array>,
  outcome: SniffOutcome,
  limits: { maxBytes: number; maxMb: number },
): AsyncGenerator<Buffer> {
  let check: Check | null = null;
  const held: Buffer[] = [];
  let heldBytes = 0;
  let size = 0;
  const { maxBytes } = limits;

  for await (const input of source) {
    const chunk = Buffer.isBuffer(input) ? input : Buffer.from(input);
    size += chunk.length;
    if (size > maxBytes) throw tooLarge(limits.maxMb);
    if (check) {
      check.update(chunk);
      yield chunk;
      continue;
    }
    held.push(chunk);
    heldBytes += chunk.length;
    if (heldBytes < SNIFF_BYTES) continue;
    check = await settleHead(held);
    for (const c of held.splice(0)) yield c;
  }
  if (!check) {
    if (heldBytes === 0) throw badRequest('The file is empty');
    check = await settleHead(held);
    for (const c of held.splice(0)) yield c;
  }
  const mime = check.finish();
  if (!mime) throw unsupportedType();
  outcome.size = size;
  outcome.mime = mime;
}

/** Classifies the held head of the file; every deferred check then reads the file from its first byte. */
async function settleHead(held: Buffer[]): Promise<Check> {
  const head = Buffer.concat(held);
  const check = await classify(head);
  if (!check) throw unsupportedType();
  check.update(head);
  return check;
}
