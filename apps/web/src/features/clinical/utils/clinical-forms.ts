import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { z } from 'zod';
import {
  CONDITION_STATUSES,
  INTERPRETATIONS,
  PROCEDURE_STATUSES,
  conditionInputSchema,
  immunizationInputSchema,
  labResultInputSchema,
  procedureInputSchema,
  type ClinicalKind,
} from '@kinchart/shared/clinical';
import type { ClinicalInputs, ClinicalItem } from '../api/clinical-paths';
import { INTERPRETATION_LABELS, STATUS_WORDS, type RecordStatus } from './clinical-text';

/*
 * The add and edit forms of the four kinds, as data: which fields, and one schema per kind that
 * turns the form's text into the API's body through the shared input schema (STYLE habit 1: one
 * schema for the form and the server, so the messages are the server's own). Field names are the
 * API's, so every message lands under its field. Texts are message descriptors, shown in the
 * reader's language when the form is drawn (issue 35).
 */

/** Every control holds text; numbers and empty choices become what the API wants in the schema. */
export type ClinicalFormValues = Record<string, string>;

export interface FieldSpec {
  name: string;
  label: MessageDescriptor;
  /** 'date': a date field, or a text field when the item's date is partial (YYYY, YYYY-MM). */
  control: 'text' | 'select' | 'textarea' | 'date';
  required?: boolean;
  hint?: MessageDescriptor;
  placeholder?: MessageDescriptor;
  inputMode?: 'numeric' | 'decimal';
  options?: readonly { value: string; label: MessageDescriptor }[];
  /** Spans the form's two columns. */
  wide?: boolean;
  /** Messages the shared schema files under another name that belong under this field. */
  alsoShows?: readonly string[];
}

export interface FormSpec<K extends ClinicalKind> {
  fields: readonly FieldSpec[];
  /** The dialog's description: which fields are required ("Vaccine is required; the rest is optional."). */
  requiredNote: MessageDescriptor;
  schema: z.ZodType<ClinicalInputs[K], ClinicalFormValues>;
  /** The form for an item, or an empty one to add. */
  valuesOf: (item: ClinicalItem<K> | null) => ClinicalFormValues;
}

const DATE_HINT = msg`As precise as you know it: YYYY, YYYY-MM or YYYY-MM-DD.`;

/** '' is no number; anything else must read as one (NaN fails the shared schema with its message). */
function numberOrNull(text: string): number | null {
  const t = text.trim();
  return t === '' ? null : Number(t);
}

const NUMBER = /^-?\d+(?:\.\d+)?$/;

/**
 * The shared input schema run on what the form made, its messages kept under their fields. (A zod
 * `pipe` would do the same but wants the two types to match exactly, which text controls cannot.)
 */
function checkedBy<O>(schema: z.ZodType<O>) {
  return (input: unknown, ctx: z.RefinementCtx): O => {
    const result = schema.safeParse(input);
    if (result.success) return result.data;
    for (const issue of result.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    return z.NEVER;
  };
}

const notes: FieldSpec = { name: 'notes', label: msg`Notes`, control: 'textarea', wide: true };
const date = (name: string, label: MessageDescriptor): FieldSpec => ({
  name,
  label,
  control: 'text',
  hint: DATE_HINT,
  placeholder: msg`e.g. 2019-05`,
});
const text = (v: string | null | undefined) => v ?? '';
const statusOptions = (statuses: readonly RecordStatus[]) => statuses.map((s) => ({ value: s, label: STATUS_WORDS[s] }));

const strings = <T extends string>(...names: T[]) =>
  z.object(Object.fromEntries(names.map((n) => [n, z.string()])) as Record<T, z.ZodString>);

/** A range typed the way the shared `parseReferenceRange` reads it, from stored bounds. */
export function rangeInput(low: number | null, high: number | null): string {
  if (low !== null && high !== null) return `${low}-${high}`;
  if (high !== null) return `<${high}`;
  if (low !== null) return `>${low}`;
  return '';
}

export const immunizationForm: FormSpec<'immunizations'> = {
  requiredNote: msg`Vaccine is required; the rest is optional.`,
  fields: [
    { name: 'vaccine', label: msg`Vaccine`, control: 'text', required: true, wide: true },
    date('date', msg`Date`),
    { name: 'dose_number', label: msg`Dose number`, control: 'text', inputMode: 'numeric' },
    { name: 'lot_number', label: msg`Lot number`, control: 'text' },
    { name: 'site', label: msg`Site`, control: 'text', placeholder: msg`e.g. Left arm` },
    { name: 'performer', label: msg`Performer`, control: 'text', wide: true, hint: msg`Who gave it: a clinic, a pharmacy or a person.` },
    notes,
  ],
  schema: strings('vaccine', 'date', 'dose_number', 'lot_number', 'site', 'performer', 'notes')
    .transform((v) => ({ ...v, dose_number: numberOrNull(v.dose_number) }))
    .transform(checkedBy(immunizationInputSchema)),
  valuesOf: (item) => ({
    vaccine: text(item?.vaccine),
    date: text(item?.date),
    dose_number: item?.dose_number == null ? '' : String(item.dose_number),
    lot_number: text(item?.lot_number),
    site: text(item?.site),
    performer: text(item?.performer),
    notes: text(item?.notes),
  }),
};

export const labResultForm: FormSpec<'lab-results'> = {
  requiredNote: msg`Test name and Value are required; the rest is optional.`,
  fields: [
    {
      name: 'name',
      label: msg`Test name`,
      control: 'text',
      required: true,
      wide: true,
      placeholder: msg`e.g. HbA1c or Blood pressure (systolic)`,
    },
    {
      name: 'value',
      label: msg`Value`,
      control: 'text',
      required: true,
      inputMode: 'decimal',
      hint: msg`A number, or a word such as “Positive”.`,
    },
    { name: 'unit', label: msg`Unit`, control: 'text', placeholder: msg`e.g. mg/dL` },
    {
      name: 'reference_range',
      label: msg`Reference range`,
      control: 'text',
      hint: msg`As on the report, e.g. 4.0-5.6, < 200 or > 60.`,
      alsoShows: ['reference_low', 'reference_high'],
    },
    {
      name: 'interpretation',
      label: msg`Interpretation`,
      control: 'select',
      options: [
        { value: '', label: msg`Not given` },
        ...(Object.keys(INTERPRETATIONS) as (keyof typeof INTERPRETATIONS)[]).map((value) => ({
          value,
          label: INTERPRETATION_LABELS[value],
        })),
      ],
    },
    // A date field (issue 30); a partial date from an import stays text, so it is not lost.
    { ...date('date', msg`Date`), control: 'date' },
    {
      name: 'category',
      label: msg`Category`,
      control: 'select',
      options: [
        { value: 'laboratory', label: msg`Laboratory` },
        { value: 'vital-signs', label: msg`Vital sign` },
      ],
    },
    {
      name: 'loinc_code',
      label: msg`LOINC code`,
      control: 'text',
      hint: msg`Optional, e.g. 4548-4. Results with the same code chart together.`,
      wide: true,
    },
    notes,
  ],
  schema: strings('name', 'value', 'unit', 'reference_range', 'interpretation', 'date', 'category', 'loinc_code', 'notes')
    .transform(({ value, category, interpretation, ...rest }) => {
      // One box for both kinds of result: a number is a value, anything else a value as text.
      const v = value.trim();
      return {
        ...rest,
        category: category === 'vital-signs' ? ('vital-signs' as const) : ('laboratory' as const),
        interpretation: interpretation === '' ? null : interpretation,
        value: NUMBER.test(v) ? Number(v) : null,
        value_text: v === '' || NUMBER.test(v) ? null : v,
      };
    })
    .transform(checkedBy(labResultInputSchema)),
  valuesOf: (item) => ({
    name: text(item?.name),
    value: item ? (item.value !== null ? String(item.value) : text(item.value_text)) : '',
    unit: text(item?.unit),
    reference_range: item ? (item.reference_range ?? rangeInput(item.reference_low, item.reference_high)) : '',
    interpretation: text(item?.interpretation),
    date: text(item?.date),
    category: item?.category ?? 'laboratory',
    loinc_code: text(item?.loinc_code),
    notes: text(item?.notes),
  }),
};

export const conditionForm: FormSpec<'conditions'> = {
  requiredNote: msg`Condition is required; the rest is optional.`,
  fields: [
    { name: 'name', label: msg`Condition`, control: 'text', required: true, wide: true },
    { name: 'status', label: msg`Status`, control: 'select', options: statusOptions(CONDITION_STATUSES) },
    date('onset_date', msg`Onset date`),
    date('abatement_date', msg`Resolved date`),
    notes,
  ],
  schema: strings('name', 'status', 'onset_date', 'abatement_date', 'notes').transform(checkedBy(conditionInputSchema)),
  valuesOf: (item) => ({
    name: text(item?.name),
    status: item?.status ?? 'active',
    onset_date: text(item?.onset_date),
    abatement_date: text(item?.abatement_date),
    notes: text(item?.notes),
  }),
};

export const procedureForm: FormSpec<'procedures'> = {
  requiredNote: msg`Procedure is required; the rest is optional.`,
  fields: [
    { name: 'name', label: msg`Procedure`, control: 'text', required: true, wide: true },
    { name: 'status', label: msg`Status`, control: 'select', options: statusOptions(PROCEDURE_STATUSES) },
    date('performed_date', msg`Performed date`),
    { name: 'performer', label: msg`Performer`, control: 'text', wide: true, hint: msg`Who did it: a hospital, a clinic or a person.` },
    notes,
  ],
  schema: strings('name', 'status', 'performed_date', 'performer', 'notes').transform(checkedBy(procedureInputSchema)),
  valuesOf: (item) => ({
    name: text(item?.name),
    status: item?.status ?? 'completed',
    performed_date: text(item?.performed_date),
    performer: text(item?.performer),
    notes: text(item?.notes),
  }),
};

export const FORMS: { [K in ClinicalKind]: FormSpec<K> } = {
  immunizations: immunizationForm,
  'lab-results': labResultForm,
  conditions: conditionForm,
  procedures: procedureForm,
};
