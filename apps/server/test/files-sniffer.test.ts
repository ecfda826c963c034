import { describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { SNIFF_BYTES, sniffUpload } from '../src/common/file-sniffer';
import type { SniffOutcome } from '../src/common/file-sniffer';
import { HttpError } from '../src/lib/http-errors';
import { fixture } from './files-helpers';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function* chunked(data: Buffer, size = 16 * 1024) {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

/** Runs bytes through the sniffer; answers the sniffed type or the HTTP status it refused with. */
async function sniff(data: Buffer, maxBytes = 10 * 1024 * 1024): Promise<string | number> {
  const outcome: SniffOutcome = { mime: null, size: 0 };
  const out: Buffer[] = [];
  try {
    for await (const c of sniffUpload(chunked(data), outcome, { maxBytes, maxMb: 10 })) out.push(c);
  } catch (error) {
    if (error instanceof HttpError) return error.statusCode;
    throw error;
  }
  expect(Buffer.concat(out).equals(data)).toBe(true);
  expect(outcome.size).toBe(data.length);
  return outcome.mime ?? 'none';
}

function zip(entries: [string, Buffer][]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const z = new yazl.ZipFile();
    for (const [name, data] of entries) z.addBuffer(data, name, { compress: false });
    z.end();
    const parts: Buffer[] = [];
    z.outputStream.on('data', (c: Buffer) => parts.push(c));
    z.outputStream.on('end', () => resolve(Buffer.concat(parts)));
    z.outputStream.on('error', reject);
  });
}

/** An OLE compound file: the header magic and a directory sector naming the given streams. */
function compoundFile(streams: string[]): Buffer {
  const header = Buffer.alloc(512);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header);
  const dir = Buffer.alloc(512);
  ['Root Entry', ...streams].forEach((name, i) => Buffer.from(`${name}\0`, 'utf16le').copy(dir, i * 128));
  return Buffer.concat([header, dir, Buffer.alloc(1024)]);
}

const noise = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 7919) % 251));

describe('upload type sniffing (the bytes decide, never the name or declared type)', () => {
  it('recognises the PDF, PNG and DOCX fixtures', async () => {
    expect(await sniff(fixture('record.pdf'))).toBe('application/pdf');
    expect(await sniff(fixture('pixel.png'))).toBe('image/png');
    expect(await sniff(fixture('letter.docx'))).toBe(DOCX);
  });

  it('recognises JPEG, GIF, WebP, TIFF, HEIC and DICOM by their magic bytes', async () => {
    expect(await sniff(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), Buffer.from('JFIF\0'), noise(200)]))).toBe(
      'image/jpeg',
    );
    expect(await sniff(Buffer.concat([Buffer.from('GIF89a'), noise(50)]))).toBe('image/gif');
    const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('WEBPVP8 '), noise(40)]);
    expect(await sniff(webp)).toBe('image/webp');
    const tiff = Buffer.concat([Buffer.from([0x49, 0x49, 0x2a, 0x00, 0x08, 0, 0, 0]), Buffer.alloc(64)]);
    expect(await sniff(tiff)).toBe('image/tiff');
    const heic = Buffer.concat([
      Buffer.from([0, 0, 0, 0x18]),
      Buffer.from('ftypheic'),
      Buffer.from([0, 0, 0, 0]),
      Buffer.from('mif1heic'),
      noise(64),
    ]);
    expect(await sniff(heic)).toBe('image/heic');
    expect(await sniff(Buffer.concat([Buffer.alloc(128), Buffer.from('DICM'), noise(300)]))).toBe('application/dicom');
  });

  it('accepts plain UTF-8 text, and refuses text with a NUL or invalid UTF-8 anywhere in it', async () => {
    expect(await sniff(Buffer.from('Blood pressure 120/80 — taken at home, ok ✓\n'.repeat(4000)))).toBe('text/plain');
    const lateNul = Buffer.concat([Buffer.from('a'.repeat(SNIFF_BYTES * 2)), Buffer.from([0]), Buffer.from('b')]);
    expect(await sniff(lateNul)).toBe(415);
    const lateInvalid = Buffer.concat([Buffer.from('a'.repeat(SNIFF_BYTES * 2)), Buffer.from([0xc3, 0x28])]);
    expect(await sniff(lateInvalid)).toBe(415);
    expect(await sniff(Buffer.concat([Buffer.from('ends mid-character '), Buffer.from([0xe2, 0x82])]))).toBe(415);
  });

  it('refuses HTML, XML and SVG even though they are text', async () => {
    expect(await sniff(Buffer.from('<!DOCTYPE html><html><script>alert(1)</script></html>'))).toBe(415);
    expect(await sniff(Buffer.from('\ufeff  \n<html><body>hi</body></html>'))).toBe(415);
    expect(await sniff(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'))).toBe(415);
    expect(await sniff(Buffer.from('<?xml version="1.0"?><a/>'))).toBe(415);
    expect(await sniff(Buffer.from('< 5 mg daily'))).toBe('text/plain');
  });

  it('refuses executables, archives and other types off the allowlist', async () => {
    expect(await sniff(Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), noise(500)]))).toBe(415);
    expect(await sniff(Buffer.concat([Buffer.from('MZ'), noise(500)]))).toBe(415);
    expect(await sniff(await zip([['notes.txt', Buffer.from('hello')]]))).toBe(415);
    const pptx = await zip([
      [
        '[Content_Types].xml',
        Buffer.from(
          '<Types><Override ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/></Types>',
        ),
      ],
      ['ppt/presentation.xml', Buffer.from('<p/>')],
    ]);
    expect(await sniff(pptx)).toBe(415);
  });

  it('recognises a DOCX or XLSX whose [Content_Types].xml comes after the first chunk', async () => {
    const lateDocx = await zip([
      ['word/media/image1.png', noise(SNIFF_BYTES * 3)],
      ['word/document.xml', Buffer.from('<w:document/>')],
      ['[Content_Types].xml', Buffer.from('<Types/>')],
    ]);
    expect(await sniff(lateDocx)).toBe(DOCX);
    const lateXlsx = await zip([
      ['xl/media/image1.png', noise(SNIFF_BYTES * 2)],
      ['xl/workbook.xml', Buffer.from('<workbook/>')],
      ['[Content_Types].xml', Buffer.from('<Types/>')],
    ]);
    expect(await sniff(lateXlsx)).toBe(XLSX);
    const noContentTypes = await zip([
      ['word/media/image1.png', noise(SNIFF_BYTES * 2)],
      ['word/document.xml', Buffer.from('<w:document/>')],
    ]);
    expect(await sniff(noContentTypes)).toBe(415);
  });

  it('accepts a legacy Word document but not another compound file such as an installer', async () => {
    expect(await sniff(compoundFile(['WordDocument', '1Table']))).toBe('application/msword');
    expect(await sniff(compoundFile(['SummaryInformation', 'Binary.Installer']))).toBe(415);
  });

  it('refuses an empty file (400) and a file over the limit (413)', async () => {
    expect(await sniff(Buffer.alloc(0))).toBe(400);
    expect(await sniff(Buffer.from('x'.repeat(1001)), 1000)).toBe(413);
    expect(await sniff(Buffer.from('x'.repeat(1000)), 1000)).toBe('text/plain');
  });
});
