import { z } from 'zod';
import type { BloodType } from './profile';
import { optionalName, optionalText, requiredName } from './profile';

// DESIGN §12 Clinical data: immunizations, lab results and vital signs, conditions and
// procedures, structured per person. Every item keeps the codings it came with (system, code,
// display) and dates as precise as they were given (`2015`, `2015-03`, `2015-03-14`).
// API: /api/user/people/{personId}/immunizations | lab-results | conditions | procedures.

/** The four kinds, as their API path segments. */
export const CLINICAL_KINDS = ['immunizations', 'lab-results', 'conditions', 'procedures'] as const;
export type ClinicalKind = (typeof CLINICAL_KINDS)[number];

/** How many items of one kind a person holds (an import stops adding at this). */
export const CLINICAL_CAP = 2000;

// ---------- partial dates ----------

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * `YYYY`, `YYYY-MM` or `YYYY-MM-DD`, each part real (FHIR's `date`). A full instant keeps its
 * date part, since a clinical date here is a calendar date.
 */
export function isPartialDate(value: string): boolean {
  if (!/^\d{4}(?:-\d{2}){0,2}$/.test(value)) return false;
  const [year, month, day] = value.split('-').map(Number) as [number, number | undefined, number | undefined];
  if (year < 1) return false;
  if (month === undefined) return true;
  if (month < 1 || month > 12) return false;
  if (day === undefined) return true;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return day >= 1 && day <= (month === 2 && !leap ? 28 : (DAYS_IN_MONTH[month - 1] ?? 0));
}

/** A FHIR date or dateTime cut to its date part (`2015-03-14T10:00:00Z` → `2015-03-14`); undefined when it is neither. */
export function partialDateOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const date = value.length > 10 && value[10] === 'T' ? value.slice(0, 10) : value;
  return isPartialDate(date) ? date : undefined;
}

const partialDate = (label: string) =>
  z
    .union([z.string(), z.null()], { error: `${label} must be a date as YYYY, YYYY-MM or YYYY-MM-DD` })
    .optional()
    .transform((v, ctx) => {
      if (v === null || v === undefined || v.trim() === '') return null;
      const date = partialDateOf(v.trim());
      if (date === undefined) {
        ctx.addIssue({ code: 'custom', message: `${label} must be a date as YYYY, YYYY-MM or YYYY-MM-DD` });
        return z.NEVER;
      }
      return date;
    });

// ---------- codings ----------

export const codingSchema = z.object({
  system: optionalText(500),
  code: optionalText(200),
  display: optionalText(500),
});
export type Coding = { system: string | null; code: string | null; display: string | null };

const codings = z
  .array(codingSchema, { error: 'codings must be a list of { system, code, display }' })
  .max(20, 'codings must have at most 20 entries')
  .nullable()
  .optional()
  // Absent: a new item has none and an edited one keeps its own; null or [] clears them.
  .transform((list) => (list === undefined ? undefined : (list ?? []).filter((c) => c.code !== null || c.display !== null)));

export const codingOutSchema = z.object({ system: z.string().nullable(), code: z.string().nullable(), display: z.string().nullable() });

/** Well-known code systems, as FHIR names them. */
export const SYSTEMS = {
  loinc: 'http://loinc.org',
  snomed: 'http://snomed.info/sct',
  cvx: 'http://hl7.org/fhir/sid/cvx',
} as const;

/**
 * SNOMED CT blood group findings (the IPS blood group values) for Kinchart's blood types: how the
 * export codes a blood group, and what an import recognises.
 */
export const BLOOD_GROUP_SNOMED: Record<BloodType, { code: string; display: string }> = {
  'A+': { code: '278149003', display: 'Blood group A Rh(D) positive' },
  'A-': { code: '278152006', display: 'Blood group A Rh(D) negative' },
  'B+': { code: '278150003', display: 'Blood group B Rh(D) positive' },
  'B-': { code: '278153001', display: 'Blood group B Rh(D) negative' },
  'AB+': { code: '278151004', display: 'Blood group AB Rh(D) positive' },
  'AB-': { code: '278154007', display: 'Blood group AB Rh(D) negative' },
  'O+': { code: '278147001', display: 'Blood group O Rh(D) positive' },
  'O-': { code: '278148006', display: 'Blood group O Rh(D) negative' },
};

const common = {
  notes: optionalText(2000),
  codings,
};

const itemOut = {
  id: z.string(),
  person_id: z.string(),
  notes: z.string().nullable(),
  codings: z.array(codingOutSchema),
  created_at: z.string(),
  updated_at: z.string(),
};

// ---------- immunizations ----------

export const immunizationInputSchema = z
  .object({
    vaccine: requiredName('Vaccine'),
    date: partialDate('Date'),
    dose_number: z
      .union(
        [
          z
            .number()
            .int('Dose number must be a whole number')
            .min(1, 'Dose number must be at least 1')
            .max(99, 'Dose number must be at most 99'),
          z.null(),
        ],
        {
          error: 'Dose number must be a whole number',
        },
      )
      .optional()
      .transform((v) => v ?? null),
    lot_number: optionalText(100),
    /** The issue's "lot"; `lot_number` wins when both are sent. */
    lot: optionalText(100),
    site: optionalText(100),
    performer: optionalName(),
    ...common,
  })
  .transform(({ lot, ...rest }) => ({ ...rest, lot_number: rest.lot_number ?? lot }));
export type ImmunizationFields = z.output<typeof immunizationInputSchema>;

export const immunizationSchema = z.object({
  ...itemOut,
  vaccine: z.string(),
  date: z.string().nullable(),
  dose_number: z.number().nullable(),
  lot_number: z.string().nullable(),
  site: z.string().nullable(),
  performer: z.string().nullable(),
});
export type Immunization = z.infer<typeof immunizationSchema>;

// ---------- lab results and vital signs ----------

export const LAB_CATEGORIES = ['laboratory', 'vital-signs'] as const;

/** HL7 v3 ObservationInterpretation codes a result may carry, with what the screens say. */
export const INTERPRETATIONS = {
  N: 'Normal',
  L: 'Low',
  H: 'High',
  LL: 'Critically low',
  HH: 'Critically high',
  A: 'Abnormal',
  AA: 'Critically abnormal',
  POS: 'Positive',
  NEG: 'Negative',
} as const;
export type Interpretation = keyof typeof INTERPRETATIONS;
const INTERPRETATION_CODES = Object.keys(INTERPRETATIONS) as [Interpretation, ...Interpretation[]];

const optionalNumber = (label: string) =>
  z
    .union([z.number(), z.null()], { error: `${label} must be a number` })
    .optional()
    .transform((v) => v ?? null)
    .refine((v) => v === null || (Number.isFinite(v) && Math.abs(v) < 1e12), `${label} must be a number`);

/** `low-high`, `<high`, `>low` as a person types a range ("4.0-5.6", "< 200"); undefined when it is none of them. */
export function parseReferenceRange(text: string): { low: number | null; high: number | null } | undefined {
  const t = text.replace(/\s+/g, '');
  const num = (s: string) => (/^-?\d+(?:\.\d+)?$/.test(s) ? Number(s) : undefined);
  if (t.startsWith('<')) {
    const high = num(t.replace(/^<=?/, ''));
    return high === undefined ? undefined : { low: null, high };
  }
  if (t.startsWith('>')) {
    const low = num(t.replace(/^>=?/, ''));
    return low === undefined ? undefined : { low, high: null };
  }
  const dash = t.indexOf('-', 1);
  if (dash < 0) return undefined;
  const low = num(t.slice(0, dash));
  const high = num(t.slice(dash + 1));
  return low === undefined || high === undefined ? undefined : { low, high };
}

export const labResultInputSchema = z
  .object({
    name: requiredName('Test name'),
    category: z
      .union([z.enum(LAB_CATEGORIES), z.null()], { error: `Category must be one of ${LAB_CATEGORIES.join(', ')}` })
      .optional()
      .transform((v) => v ?? 'laboratory'),
    loinc_code: z
      .union(
        [
          z
            .string()
            .trim()
            .max(20)
            .regex(/^\d{1,7}-\d$/, 'LOINC code must look like 4548-4'),
          z.literal(''),
          z.null(),
        ],
        {
          error: 'LOINC code must look like 4548-4',
        },
      )
      .optional()
      .transform((v) => (v ? v : null)),
    value: optionalNumber('Value'),
    /** A result that is not a number ("positive", "trace"). */
    value_text: optionalText(200),
    unit: optionalText(50),
    reference_low: optionalNumber('Reference low'),
    reference_high: optionalNumber('Reference high'),
    /** A range as written ("4.0-5.6", "<200"); fills low and high when they are not given. */
    reference_range: optionalText(100),
    interpretation: z
      .union([z.enum(INTERPRETATION_CODES), z.literal(''), z.null()], {
        error: `Interpretation must be one of ${INTERPRETATION_CODES.join(', ')}`,
      })
      .optional()
      .transform((v) => (v ? v : null)),
    date: partialDate('Date'),
    ...common,
  })
  .transform((input, ctx) => {
    let { reference_low, reference_high } = input;
    if (input.reference_range !== null && reference_low === null && reference_high === null) {
      const parsed = parseReferenceRange(input.reference_range);
      if (parsed) ({ low: reference_low, high: reference_high } = parsed);
    }
    if (input.value === null && input.value_text === null) {
      ctx.addIssue({ code: 'custom', message: 'Value is required', path: ['value'] });
      return z.NEVER;
    }
    if (reference_low !== null && reference_high !== null && reference_low > reference_high) {
      ctx.addIssue({ code: 'custom', message: 'Reference low cannot be above reference high', path: ['reference_low'] });
      return z.NEVER;
    }
    return { ...input, reference_low, reference_high };
  });
export type LabResultFields = z.output<typeof labResultInputSchema>;

/**
 * Whether a result lies outside its range: the interpretation when one is given (anything but
 * normal or negative), else the value against the reference range.
 */
export function isOutOfRange(r: {
  value: number | null;
  reference_low: number | null;
  reference_high: number | null;
  interpretation: string | null;
}): boolean {
  if (r.interpretation !== null) return r.interpretation !== 'N' && r.interpretation !== 'NEG';
  if (r.value === null) return false;
  return (r.reference_low !== null && r.value < r.reference_low) || (r.reference_high !== null && r.value > r.reference_high);
}

/** A range as the screens write it: "4–5.6", "< 200", "> 60", or the text it was given. */
export function rangeText(r: {
  reference_low: number | null;
  reference_high: number | null;
  reference_range: string | null;
}): string | null {
  if (r.reference_low !== null && r.reference_high !== null) return `${r.reference_low}–${r.reference_high}`;
  if (r.reference_high !== null) return `< ${r.reference_high}`;
  if (r.reference_low !== null) return `> ${r.reference_low}`;
  return r.reference_range;
}

export const labResultSchema = z.object({
  ...itemOut,
  name: z.string(),
  category: z.enum(LAB_CATEGORIES),
  loinc_code: z.string().nullable(),
  value: z.number().nullable(),
  value_text: z.string().nullable(),
  unit: z.string().nullable(),
  reference_low: z.number().nullable(),
  reference_high: z.number().nullable(),
  reference_range: z.string().nullable(),
  interpretation: z.enum(INTERPRETATION_CODES).nullable(),
  out_of_range: z.boolean(),
  date: z.string().nullable(),
  /** The file the result was accepted from and its page (issue 34, decision 0052); null when typed or imported, or the file is gone. */
  source_file_id: z.string().nullable(),
  source_page: z.number().int().nullable(),
  /** The value and range in the unit the test's trend uses (the LOINC table's), where UCUM converts it; else null. */
  trend: z
    .object({ value: z.number(), unit: z.string(), reference_low: z.number().nullable(), reference_high: z.number().nullable() })
    .nullable(),
});
export type LabResult = z.infer<typeof labResultSchema>;

// ---------- conditions ----------

/** FHIR's condition-clinical values. */
export const CONDITION_STATUSES = ['active', 'recurrence', 'relapse', 'inactive', 'remission', 'resolved'] as const;

export const conditionInputSchema = z.object({
  name: requiredName('Condition'),
  status: z
    .union([z.enum(CONDITION_STATUSES), z.null()], { error: `Status must be one of ${CONDITION_STATUSES.join(', ')}` })
    .optional()
    .transform((v) => v ?? 'active'),
  onset_date: partialDate('Onset date'),
  abatement_date: partialDate('Resolved date'),
  ...common,
});
export type ConditionFields = z.output<typeof conditionInputSchema>;

export const conditionSchema = z.object({
  ...itemOut,
  name: z.string(),
  status: z.enum(CONDITION_STATUSES),
  onset_date: z.string().nullable(),
  abatement_date: z.string().nullable(),
});
export type Condition = z.infer<typeof conditionSchema>;

// ---------- procedures ----------

/** FHIR's event-status values a procedure takes. */
export const PROCEDURE_STATUSES = [
  'completed',
  'in-progress',
  'preparation',
  'not-done',
  'on-hold',
  'stopped',
  'entered-in-error',
  'unknown',
] as const;

export const procedureInputSchema = z.object({
  name: requiredName('Procedure'),
  status: z
    .union([z.enum(PROCEDURE_STATUSES), z.null()], { error: `Status must be one of ${PROCEDURE_STATUSES.join(', ')}` })
    .optional()
    .transform((v) => v ?? 'completed'),
  performed_date: partialDate('Performed date'),
  performer: optionalName(),
  ...common,
});
export type ProcedureFields = z.output<typeof procedureInputSchema>;

export const procedureSchema = z.object({
  ...itemOut,
  name: z.string(),
  status: z.enum(PROCEDURE_STATUSES),
  performed_date: z.string().nullable(),
  performer: z.string().nullable(),
});
export type Procedure = z.infer<typeof procedureSchema>;

export const CLINICAL_LABELS: Record<ClinicalKind, { one: string; many: string }> = {
  immunizations: { one: 'Immunization', many: 'Immunizations' },
  'lab-results': { one: 'Lab result', many: 'Lab results' },
  conditions: { one: 'Condition', many: 'Conditions' },
  procedures: { one: 'Procedure', many: 'Procedures' },
};
