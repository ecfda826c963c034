import { describe, expect, it } from 'vitest';
import { decodeShlink, encodeShlink } from './shl';

describe('shlink:/ encoding', () => {
  const payload = { url: 'https://kinchart.example/shl/AbC-_xyz?é✓', key: 'k'.repeat(43), flag: 'P', label: 'Ünïcode 🚑 summary', v: 1 };

  it('is shlink:/ followed by the base64url (unpadded) UTF-8 JSON of the payload', () => {
    // Made with Node's Buffer.from(json).toString('base64url'): the same bytes any encoder gives.
    expect(encodeShlink(payload)).toBe(
      'shlink:/eyJ1cmwiOiJodHRwczovL2tpbmNoYXJ0LmV4YW1wbGUvc2hsL0FiQy1feHl6P8Op4pyTIiwia2V5Ijoia2tra2tra2tra2tra2tra2tra2tra2tra2tra2tra2tra2tra2tra2trayIsImZsYWciOiJQIiwibGFiZWwiOiLDnG7Dr2NvZGUg8J-akSBzdW1tYXJ5IiwidiI6MX0',
    );
  });

  it('decodes what it encodes, also behind a viewer prefix', () => {
    const link = encodeShlink(payload);
    expect(decodeShlink(link)).toEqual(payload);
    expect(decodeShlink(`https://viewer.example/#${link}`)).toEqual(payload);
    for (let n = 0; n < 5; n += 1) {
      const p = { ...payload, label: 'x'.repeat(n) };
      expect(decodeShlink(encodeShlink(p))).toEqual(p);
    }
  });

  it('refuses what is not a SMART Health Link', () => {
    expect(() => decodeShlink('https://example.com')).toThrow();
    expect(() => decodeShlink('shlink:/!!!')).toThrow();
  });
});
