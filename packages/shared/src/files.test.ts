import { describe, expect, it } from 'vitest';
import {
  ACCEPTED_TYPES_LABEL,
  FILE_INPUT_ACCEPT,
  fileCategory,
  fileTooLargeMessage,
  formatFileSize,
  isInlineType,
  renameFileSchema,
  stripExtension,
  uploadFieldsSchema,
} from './files';

describe('formatFileSize (SPEC §9: Bytes, KB, MB, GB, base 1024)', () => {
  it.each([
    [0, '0 Bytes'],
    [1, '1 Bytes'],
    [1023, '1023 Bytes'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [1024 * 1024, '1 MB'],
    [5.25 * 1024 * 1024, '5.25 MB'],
    [1024 ** 3, '1 GB'],
    [3 * 1024 ** 4, '3072 GB'],
  ])('%i → %s', (bytes, text) => {
    expect(formatFileSize(bytes)).toBe(text);
  });
});

describe('file types', () => {
  it('sorts stored types into the View Records filters', () => {
    expect(fileCategory('application/pdf')).toBe('pdf');
    expect(fileCategory('image/heic')).toBe('image');
    expect(fileCategory('application/dicom')).toBe('image');
    expect(fileCategory('application/vnd.openxmlformats-officedocument.wordprocessingml.document')).toBe('document');
    expect(fileCategory('text/plain')).toBe('document');
    expect(fileCategory('application/zip')).toBeNull();
  });

  it('shows PDF and images inline, everything else as a download', () => {
    expect(isInlineType('application/pdf')).toBe(true);
    expect(isInlineType('image/png')).toBe(true);
    expect(isInlineType('image/svg+xml')).toBe(false);
    expect(isInlineType('text/plain')).toBe(false);
    expect(isInlineType('application/dicom')).toBe(false);
  });

  it('names every accepted type in the messages and the picker', () => {
    expect(ACCEPTED_TYPES_LABEL).toBe('PDF, JPEG, PNG, GIF, WebP, HEIC, HEIF, TIFF, DOCX, XLSX, DOC, plain text, DICOM');
    expect(FILE_INPUT_ACCEPT).toContain('.pdf');
    expect(FILE_INPUT_ACCEPT).toContain('.docx');
    expect(fileTooLargeMessage(50)).toBe('File is larger than 50 MB');
  });

  it('strips one extension for the Record Name default', () => {
    expect(stripExtension('scan.2024.pdf')).toBe('scan.2024');
    expect(stripExtension('.hidden')).toBe('.hidden');
    expect(stripExtension('noext')).toBe('noext');
  });
});

describe('file payloads', () => {
  it('requires a trimmed, non-empty name of at most 255 characters to rename', () => {
    expect(renameFileSchema.parse({ newName: '  Letter  ' })).toEqual({ newName: 'Letter' });
    expect(renameFileSchema.safeParse({ newName: '   ' }).error?.issues[0]?.message).toBe('File name cannot be empty');
    expect(renameFileSchema.safeParse({ newName: 'x'.repeat(256) }).success).toBe(false);
  });

  it('accepts a visit date as YYYY-MM-DD, an ISO instant or empty', () => {
    for (const customDate of ['2024-03-05', '2024-03-05T10:00:00.000Z', '2024-03-05T10:00:00+02:00', '']) {
      expect(uploadFieldsSchema.safeParse({ customDate }).success, customDate).toBe(true);
    }
    for (const customDate of ['2024-02-30', 'yesterday', '05/03/2024']) {
      expect(uploadFieldsSchema.safeParse({ customDate }).success, customDate).toBe(false);
    }
  });
});
