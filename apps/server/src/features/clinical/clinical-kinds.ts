import type {
  ClinicalKind,
  Coding,
  Condition,
  ConditionFields,
  Immunization,
  ImmunizationFields,
  LabResult,
  LabResultFields,
  Procedure,
  ProcedureFields,
} from '@kinchart/shared/clinical';
import {
  CLINICAL_LABELS,
  conditionInputSchema,
  conditionSchema,
  immunizationInputSchema,
  immunizationSchema,
  isOutOfRange,
  labResultInputSchema,
  labResultSchema,
  procedureInputSchema,
  procedureSchema,
} from '@kinchart/shared/clinical';
import type { z } from 'zod';
import type { ConditionsTable, ImmunizationsTable, LabResultsTable, ProceduresTable } from '../../db/schema';
import { trendOf } from '../labs/lab-values';

// DESIGN §12: what differs between the four kinds of clinical item — their table, their columns,
// the date they sort by, their answer. Everything else (access, caps, codings, stamps) is one
// service for all four.

export type ClinicalTable = 'immunizations' | 'lab_results' | 'conditions' | 'procedures';

/** A stored row as the database gives it (codings still JSON text). */
type Stored<T> = Omit<T, 'codings'> & { codings: string };

export interface KindSpec<Fields, Row, Answer> {
  kind: ClinicalKind;
  table: ClinicalTable;
  /** The column lists sort by, newest first. */
  dateColumn: 'date' | 'onset_date' | 'performed_date';
  input: z.ZodType<Fields>;
  output: z.ZodType<Answer>;
  /** The columns an input writes (codings excepted). */
  columns: (fields: Fields) => Record<string, unknown>;
  answer: (row: Stored<Row>, codings: Coding[]) => Answer;
}

/** The codings column as a list; an unreadable value reads as none (never an error for the owner). */
export function parseCodings(text: string | null): Coding[] {
  if (!text) return [];
  try {
    const list: unknown = JSON.parse(text);
    if (!Array.isArray(list)) return [];
    return list.flatMap((c: unknown) => {
      if (typeof c !== 'object' || c === null) return [];
      const { system, code, display } = c as Record<string, unknown>;
      const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
      return [{ system: text(system), code: text(code), display: text(display) }];
    });
  } catch {
    return [];
  }
}

const base = (
  row: { id: string; profile_id: string; notes: string | null; created_at: string; updated_at: string },
  codings: Coding[],
) => ({
  id: row.id,
  person_id: row.profile_id,
  notes: row.notes,
  codings,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

export const immunizations: KindSpec<ImmunizationFields, ImmunizationsTable, Immunization> = {
  kind: 'immunizations',
  table: 'immunizations',
  dateColumn: 'date',
  input: immunizationInputSchema,
  output: immunizationSchema,
  columns: (f) => ({
    vaccine: f.vaccine,
    date: f.date,
    dose_number: f.dose_number,
    lot_number: f.lot_number,
    site: f.site,
    performer: f.performer,
    notes: f.notes,
  }),
  answer: (row, codings) => ({
    ...base(row, codings),
    vaccine: row.vaccine,
    date: row.date,
    dose_number: row.dose_number,
    lot_number: row.lot_number,
    site: row.site,
    performer: row.performer,
  }),
};

export const labResults: KindSpec<LabResultFields, LabResultsTable, LabResult> = {
  kind: 'lab-results',
  table: 'lab_results',
  dateColumn: 'date',
  input: labResultInputSchema,
  output: labResultSchema,
  columns: (f) => ({
    name: f.name,
    category: f.category,
    loinc_code: f.loinc_code,
    value: f.value,
    value_text: f.value_text,
    unit: f.unit,
    reference_low: f.reference_low,
    reference_high: f.reference_high,
    reference_range: f.reference_range,
    interpretation: f.interpretation,
    date: f.date,
    notes: f.notes,
  }),
  answer: (row, codings) => {
    const interpretation = row.interpretation as LabResult['interpretation'];
    const value = row.value === null ? null : Number(row.value);
    const low = row.reference_low === null ? null : Number(row.reference_low);
    const high = row.reference_high === null ? null : Number(row.reference_high);
    return {
      ...base(row, codings),
      name: row.name,
      category: row.category,
      loinc_code: row.loinc_code,
      value,
      value_text: row.value_text,
      unit: row.unit,
      reference_low: low,
      reference_high: high,
      reference_range: row.reference_range,
      interpretation,
      out_of_range: isOutOfRange({ value, reference_low: low, reference_high: high, interpretation }),
      date: row.date,
      source_file_id: row.source_file_id ?? null,
      source_page: row.source_page === null || row.source_page === undefined ? null : Number(row.source_page),
      trend: trendOf({
        loinc: row.loinc_code ?? codings.find((c) => c.system === 'http://loinc.org' && c.code)?.code ?? null,
        value,
        unit: row.unit,
        reference_low: low,
        reference_high: high,
      }),
    };
  },
};

export const conditions: KindSpec<ConditionFields, ConditionsTable, Condition> = {
  kind: 'conditions',
  table: 'conditions',
  dateColumn: 'onset_date',
  input: conditionInputSchema,
  output: conditionSchema,
  columns: (f) => ({ name: f.name, status: f.status, onset_date: f.onset_date, abatement_date: f.abatement_date, notes: f.notes }),
  answer: (row, codings) => ({
    ...base(row, codings),
    name: row.name,
    status: row.status as Condition['status'],
    onset_date: row.onset_date,
    abatement_date: row.abatement_date,
  }),
};

export const procedures: KindSpec<ProcedureFields, ProceduresTable, Procedure> = {
  kind: 'procedures',
  table: 'procedures',
  dateColumn: 'performed_date',
  input: procedureInputSchema,
  output: procedureSchema,
  columns: (f) => ({ name: f.name, status: f.status, performed_date: f.performed_date, performer: f.performer, notes: f.notes }),
  answer: (row, codings) => ({
    ...base(row, codings),
    name: row.name,
    status: row.status as Procedure['status'],
    performed_date: row.performed_date,
    performer: row.performer,
  }),
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list of the four specs, each typed above
export type AnyKindSpec = KindSpec<any, any, any>;
export const KINDS: readonly AnyKindSpec[] = [immunizations, labResults, conditions, procedures];

/** "Immunization not found" */
export const notFoundMessage = (spec: AnyKindSpec): string => `${CLINICAL_LABELS[spec.kind].one} not found`;
