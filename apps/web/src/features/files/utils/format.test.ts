import { describe, expect, it } from 'vitest';
import { formatFileSize } from '@kinchart/shared/files';
import { i18n } from '@lingui/core';
import { fileSize, formatDate, localToday, orNotProvided } from './format';

describe('file size formatting (SPEC §9: Bytes, KB, MB, GB, base 1024)', () => {
  it.each([
    [0, '0 Bytes'],
    [512, '512 Bytes'],
    [1023, '1023 Bytes'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [1024 * 1024, '1 MB'],
    [5.25 * 1024 * 1024, '5.25 MB'],
    [3 * 1024 ** 3, '3 GB'],
    [2048 * 1024 ** 3, '2048 GB'],
  ])('%d bytes reads %s', (bytes, text) => {
    expect(formatFileSize(bytes)).toBe(text);
  });
});

describe('dates', () => {
  it('today is the local calendar date as YYYY-MM-DD', () => {
    expect(localToday(new Date(2024, 1, 9, 23, 59))).toBe('2024-02-09');
    expect(localToday(new Date(2024, 11, 31, 0, 1))).toBe('2024-12-31');
  });

  it('shows a bare visit date as that very day, whatever the time zone', () => {
    const shown = formatDate('2024-03-05');
    expect(shown).toContain('5');
    expect(shown).toContain('2024');
    expect(shown).toBe(formatDate(new Date(2024, 2, 5, 12).toISOString().slice(0, 10)));
  });

  it('says Not provided for a missing value', () => {
    expect(formatDate(null)).toBe('Not provided');
    expect(orNotProvided('  ')).toBe('Not provided');
    expect(orNotProvided('Dr. Adams')).toBe('Dr. Adams');
  });
});

describe('in another language', () => {
  it('dates, sizes and Not provided follow the active language', () => {
    i18n.activate('de');
    try {
      expect(formatDate('2024-03-05')).toBe(
        new Intl.DateTimeFormat('de', { year: 'numeric', month: 'short', day: 'numeric' }).format(new Date(2024, 2, 5)),
      );
      expect(fileSize(1536)).toBe(
        new Intl.NumberFormat('de', { style: 'unit', unit: 'kilobyte', unitDisplay: 'short', maximumFractionDigits: 2 }).format(1.5),
      );
      expect(fileSize(1536)).toContain('1,5');
    } finally {
      i18n.activate('en');
    }
    expect(fileSize(1536)).toBe('1.5 KB');
    expect(fileSize(512)).toBe('512 Bytes');
  });
});
