import { t } from '@lingui/core/macro';
import type { FoundLabResult, LAB_FLAGS } from '@kinchart/shared/labs';

export type LabFlag = (typeof LAB_FLAGS)[number];

// Issue 34: the review screen's rows as the person edits them — every field as typed (text), the
// row's place in the report, whether it is included — and the way back to the accept payload.

export interface ReviewRow {
  /** Stable within the screen: the row's index in the server's answer. */
  key: string;
  include: boolean;
  name: string;
  loinc: string | null;
  loinc_display: string | null;
  value: string;
  unit: string;
  reference_low: string;
  reference_high: string;
  reference_text: string;
  flag: LabFlag | '';
  date: string;
  /** As found: where it is in the report, and the row itself (for what the person did not change). */
  found: FoundLabResult;
}

export type ReviewField = 'name' | 'value' | 'unit' | 'reference_low' | 'reference_high' | 'reference_text' | 'flag' | 'date' | 'loinc';

const text = (value: number | string | null): string => (value === null ? '' : String(value));

/** The server's rows as the form starts them: all included, each field as text. */
export function reviewRowsOf(results: readonly FoundLabResult[]): ReviewRow[] {
  return results.map((found, index) => ({
    key: String(index),
    include: true,
    name: found.name,
    loinc: found.loinc,
    loinc_display: found.loinc_display,
    value: text(found.value),
    unit: text(found.unit),
    reference_low: text(found.reference_low),
    reference_high: text(found.reference_high),
    reference_text: text(found.reference_text),
    flag: found.flag ?? '',
    date: text(found.date),
    found,
  }));
}

/** A number as a person types it: "5.1", "5,1", "-2"; undefined when it is not one. */
export function typedNumber(value: string): number | undefined {
  const plain = value.trim().replace(',', '.');
  // Digits and points only (Number would also take "1e3", "0x1f" or "Infinity"); "1.2.3" is NaN below.
  if (!/^[-+]?[\d.]+$/.test(plain)) return undefined;
  const n = Number(plain);
  return Number.isFinite(n) ? n : undefined;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The row's messages, read in the reader's language when a row is checked. */
export const ROW_ERRORS = {
  get name() {
    return t`Enter the test name`;
  },
  get value() {
    return t`Enter the value`;
  },
  get reference_low() {
    return t`Reference low must be a number`;
  },
  get reference_high() {
    return t`Reference high must be a number`;
  },
  get order() {
    return t`Reference low cannot be above reference high`;
  },
  get date() {
    return t`Enter the date as YYYY-MM-DD`;
  },
};

/** What is wrong with a row, field by field (empty when nothing is). */
export function rowErrors(row: ReviewRow): Partial<Record<ReviewField, string>> {
  const errors: Partial<Record<ReviewField, string>> = {};
  if (row.name.trim() === '') errors.name = ROW_ERRORS.name;
  if (row.value.trim() === '') errors.value = ROW_ERRORS.value;
  const low = typedNumber(row.reference_low);
  const high = typedNumber(row.reference_high);
  if (row.reference_low.trim() !== '' && low === undefined) errors.reference_low = ROW_ERRORS.reference_low;
  if (row.reference_high.trim() !== '' && high === undefined) errors.reference_high = ROW_ERRORS.reference_high;
  if (low !== undefined && high !== undefined && low > high) errors.reference_low = ROW_ERRORS.order;
  if (row.date.trim() !== '' && !DATE.test(row.date.trim())) errors.date = ROW_ERRORS.date;
  return errors;
}

const orNull = (value: string): string | null => (value.trim() === '' ? null : value.trim());

/**
 * A row as the accept route takes it: the found row with the person's changes. A value that reads
 * as a number is sent as one ("5,1" → 5.1), anything else as the words given ("positive"). A changed
 * unit drops the UCUM spelling found for the old one (the server maps it again).
 */
export function toAcceptRow(row: ReviewRow): FoundLabResult {
  const value = typedNumber(row.value) ?? row.value.trim();
  const unit = orNull(row.unit);
  return {
    ...row.found,
    name: row.name.trim(),
    loinc: row.loinc,
    loinc_display: row.loinc_display,
    value,
    unit,
    ucum_unit: unit === row.found.unit ? row.found.ucum_unit : null,
    reference_low: typedNumber(row.reference_low) ?? null,
    reference_high: typedNumber(row.reference_high) ?? null,
    reference_text: orNull(row.reference_text),
    flag: row.flag === '' ? null : row.flag,
    date: orNull(row.date),
  };
}

/** "Ferritin 12 ng/mL (30–400) L": a row in one line, as the summary and the read-only view show it. */
export function rowSummary(row: Pick<ReviewRow, 'value' | 'unit' | 'reference_low' | 'reference_high' | 'reference_text'>): {
  value: string;
  range: string | null;
} {
  const value = [row.value.trim(), row.unit.trim()].filter(Boolean).join(' ');
  const low = row.reference_low.trim();
  const high = row.reference_high.trim();
  const range = low && high ? `${low}–${high}` : high ? `< ${high}` : low ? `> ${low}` : row.reference_text.trim() || null;
  return { value, range };
}
