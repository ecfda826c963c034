// One rule for invisible characters (packages/shared/src/text.ts): control, format (bidi
// overrides, zero-width spaces), line and paragraph separators — wherever user text reaches a
// download name, a zip entry or the owner's notification.
import { describe, expect, it } from 'vitest';
import { downloadName } from '../src/features/files/content-disposition';
import { safeSegment } from '../src/features/export/zip-names';
import { cleanRecipient } from '../src/features/shl/shl.service';

describe('invisible characters', () => {
  it('a download name loses control and bidi characters, so "invoice‮fdp.exe" cannot pose as a PDF', () => {
    const name = downloadName('invoice\u202Efdp.exe\u0000\u0007', 'application/pdf');
    expect([...name].some((c) => c.charCodeAt(0) < 0x20 || c === '\u202E')).toBe(false);
    expect(name.startsWith('invoicefdp.exe')).toBe(true);
  });

  it('a zip entry replaces them, keeping zero-width joiners that scripts and emoji need', () => {
    expect(safeSegment('a\u0001b\u2028c', 'x')).toBe('a_b_c');
    expect(safeSegment('क\u200Dष', 'x')).toBe('क\u200Dष');
  });

  it('a stranger’s recipient text reaches the owner as one clean line', () => {
    expect(cleanRecipient('  Dr.\u0000 Ana\u2029Silva\u202E  ')).toBe('Dr. Ana Silva');
  });
});
