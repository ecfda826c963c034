import { describe, expect, it } from 'vitest';
import type { FoundLabResult } from '@kinchart/shared/labs';
import { ROW_ERRORS, reviewRowsOf, rowErrors, rowSummary, toAcceptRow, typedNumber } from './review-rows';

const FOUND: FoundLabResult = {
  name: 'Ferritin',
  loinc: '2276-4',
  loinc_display: 'Ferritin [Mass/volume] in Serum or Plasma',
  value: 12,
  unit: 'ng/mL',
  ucum_unit: 'ng/mL',
  reference_low: 30,
  reference_high: 400,
  reference_text: '30-400',
  flag: 'L',
  date: '2026-03-04',
  page: 1,
  line: 5,
  source_text: 'Ferritin 12 ng/mL 30-400 L',
};

describe('review rows', () => {
  it('reads numbers as people type them, with a decimal point or comma, and nothing else', () => {
    expect(typedNumber('5.1')).toBe(5.1);
    expect(typedNumber(' 5,1 ')).toBe(5.1);
    expect(typedNumber('-2')).toBe(-2);
    for (const text of ['', 'positive', '1e3', '0x1f', 'Infinity', '1.2.3', '< 0.5']) expect(typedNumber(text), text).toBeUndefined();
  });

  it('a row sent unchanged is the row found', () => {
    const [row] = reviewRowsOf([FOUND]);
    expect(row && toAcceptRow(row)).toEqual(FOUND);
  });

  it('a qualitative value stays words; a changed unit drops the UCUM spelling found for the old one', () => {
    const [row] = reviewRowsOf([FOUND]);
    const sent = row && toAcceptRow({ ...row, value: ' positive ', unit: 'µg/L', reference_text: '', flag: '' });
    expect(sent).toMatchObject({ value: 'positive', unit: 'µg/L', ucum_unit: null, reference_text: null, flag: null });
  });

  it('says what needs a correction, field by field', () => {
    const [row] = reviewRowsOf([FOUND]);
    if (!row) throw new Error('no row');
    expect(rowErrors(row)).toEqual({});
    expect(rowErrors({ ...row, name: ' ', value: '' })).toEqual({ name: ROW_ERRORS.name, value: ROW_ERRORS.value });
    expect(rowErrors({ ...row, reference_low: 'low', reference_high: '4x' })).toEqual({
      reference_low: ROW_ERRORS.reference_low,
      reference_high: ROW_ERRORS.reference_high,
    });
    expect(rowErrors({ ...row, reference_low: '500' })).toEqual({ reference_low: ROW_ERRORS.order });
    expect(rowErrors({ ...row, date: '4.3.2026' })).toEqual({ date: ROW_ERRORS.date });
  });

  it('sums a row up as value with unit and range', () => {
    const [row] = reviewRowsOf([FOUND]);
    if (!row) throw new Error('no row');
    expect(rowSummary(row)).toEqual({ value: '12 ng/mL', range: '30–400' });
    expect(rowSummary({ ...row, reference_low: '' })).toEqual({ value: '12 ng/mL', range: '< 400' });
    expect(rowSummary({ ...row, reference_low: '', reference_high: '' })).toEqual({ value: '12 ng/mL', range: '30-400' });
  });
});
