import { describe, expect, it } from 'vitest';
import { isDataFile } from './import-menu-button';

describe('isDataFile: what the menu imports rather than uploads as a record', () => {
  it('imports a Kinchart export, a FHIR Bundle and a C-CDA document (issue 34), by name or by type', () => {
    expect(isDataFile(new File(['x'], 'kinchart-export-2026-11-27.zip'))).toBe(true);
    expect(isDataFile(new File(['{}'], 'summary.json'))).toBe(true);
    expect(isDataFile(new File(['<ClinicalDocument/>'], 'CCD.XML'))).toBe(true);
    expect(isDataFile(new File(['<ClinicalDocument/>'], 'download', { type: 'text/xml' }))).toBe(true);
    expect(isDataFile(new File(['<ClinicalDocument/>'], 'download', { type: 'application/xml' }))).toBe(true);
  });

  it('uploads medical record files as records', () => {
    expect(isDataFile(new File(['%PDF'], 'labs.pdf', { type: 'application/pdf' }))).toBe(false);
    expect(isDataFile(new File(['x'], 'scan.png', { type: 'image/png' }))).toBe(false);
    expect(isDataFile(new File(['x'], 'notes.txt', { type: 'text/plain' }))).toBe(false);
  });
});
