import { fileTypeFromBuffer } from 'file-type';
import { UNSUPPORTED_FILE_MESSAGE, fileTooLargeMessage, isAcceptedMime } from '@kinchart/shared/files';
import { HttpError, badRequest } from '../../lib/http-errors';

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

interface Check {
  update(chunk: Buffer): void;
  /** The MIME type to store, or null to refuse the file. */
  finish(): string | null;
}

const fixed = (mime: string): Check => ({ update() {}, finish: () => mime });

function textCheck(): Check {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let ok = true;
  return {
    update(chunk) {
      if (!ok) return;
      if (chunk.includes(0)) ok = false;
      else {
        try {
          decoder.decode(chunk, { stream: true });
        } catch {
          ok = false;
        }
      }
    },
    finish() {
      try {
        decoder.decode();
      } catch {
        ok = false;
      }
      return ok ? 'text/plain' : null;
    },
  };
}

/** Scans a byte stream for a pattern across chunk boundaries, keeping only a short tail. */
function tailScanner(overlap: number, scan: (window: Buffer) => void) {
  let carry = Buffer.alloc(0);
  return (chunk: Buffer) => {
    const window = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    scan(window);
    carry = Buffer.from(window.subarray(Math.max(0, window.length - overlap)));
  };
}

const ZIP_LOCAL_HEADER = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const ZIP_MAX_NAME = 1024;

function officeZipCheck(): Check {
  let contentTypes = false;
  let word = false;
  let sheet = false;
  const update = tailScanner(30 + ZIP_MAX_NAME, (window) => {
    for (let i = window.indexOf(ZIP_LOCAL_HEADER); i !== -1; i = window.indexOf(ZIP_LOCAL_HEADER, i + 4)) {
      if (i + 30 > window.length) break;
      const nameLength = window.readUInt16LE(i + 26);
      if (nameLength > ZIP_MAX_NAME || i + 30 + nameLength > window.length) continue;
      const name = window.toString('latin1', i + 30, i + 30 + nameLength);
      if (name === '[Content_Types].xml') contentTypes = true;
      else if (name.startsWith('word/')) word = true;
      else if (name.startsWith('xl/')) sheet = true;
    }
  });
  return {
    update,
    finish() {
      if (!contentTypes || word === sheet) return null;
      return word
        ? 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
        : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    },
  };
}

const WORD_STREAM_NAME = Buffer.from('WordDocument\0', 'utf16le');

function wordBinaryCheck(): Check {
  let found = false;
  const update = tailScanner(WORD_STREAM_NAME.length, (window) => {
    if (!found && window.includes(WORD_STREAM_NAME)) found = true;
  });
  return { update: (chunk) => !found && update(chunk), finish: () => (found ? 'application/msword' : null) };
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
    if (isAcceptedMime(detected.mime)) return fixed(detected.mime);
    if (detected.mime === 'application/zip') return officeZipCheck();
    if (detected.mime === 'application/x-cfb') return wordBinaryCheck();
    return null;
  }
  if (startsLikeMarkup(head)) return null;
  return textCheck();
}

export interface SniffOutcome {
  /** Sniffed MIME type, set once the stream has ended cleanly. */
  mime: string | null;
  /** Plaintext bytes seen. */
  size: number;
}

/**
 * Passes an upload through unchanged while deciding its type. Throws 415 (as early as the first
 * chunk allows) for a type off the allowlist, 413 past `maxBytes`, 400 for an empty file; the
 * caller's pipeline then removes whatever was written.
 */
export async function* sniffUpload(
  source: AsyncIterable<Uint8Array>,
  outcome: SniffOutcome,
  limits: { maxBytes: number; maxMb: number },
): AsyncGenerator<Buffer> {
  let check: Check | null = null;
  const held: Buffer[] = [];
  let heldBytes = 0;

  const admit = (chunk: Buffer) => {
    outcome.size += chunk.length;
    if (outcome.size > limits.maxBytes) throw tooLarge(limits.maxMb);
  };

  for await (const input of source) {
    const chunk = Buffer.isBuffer(input) ? input : Buffer.from(input);
    admit(chunk);
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
