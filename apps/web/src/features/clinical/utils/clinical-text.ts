import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { SYSTEMS, type CONDITION_STATUSES, type Coding, type Interpretation, type PROCEDURE_STATUSES } from '@kinchart/shared/clinical';
import { directionOf, intlLocale, type AppLanguage } from '../../../i18n/languages';

// How the health records screen writes what the API gives: codings, statuses, values — in the
// reader's language (issue 35). Stored values stay English; these maps only show them.

/** Short names of the code systems people meet on a record (names, never translated). */
const SYSTEM_NAMES: Record<string, string> = {
  [SYSTEMS.loinc]: 'LOINC',
  [SYSTEMS.snomed]: 'SNOMED',
  [SYSTEMS.cvx]: 'CVX',
  'http://hl7.org/fhir/sid/icd-10': 'ICD-10',
  'http://hl7.org/fhir/sid/icd-10-cm': 'ICD-10-CM',
  // eslint-disable-next-line lingui/no-unlocalized-strings -- a code system's proper name, never translated
  'http://www.nlm.nih.gov/research/umls/rxnorm': 'RxNorm',
};

/** The active language as Intl takes it (the pseudo-locale formats as English). */
export function displayLocale(): string {
  return intlLocale((i18n.locale || 'en') as AppLanguage);
}

/**
 * A piece of a line joined with others ("LOINC 4548-4 · 2 results"), isolated in a right-to-left
 * language so the bidi algorithm does not carry a number from one piece into its neighbour.
 */
export function isolated(text: string): string {
  return directionOf((i18n.locale || 'en') as AppLanguage) === 'rtl' ? `\u2068${text}\u2069` : text;
}

/**
 * A coding as a small line under the item: "SNOMED 195967001", "LOINC 4548-4"; a code of a system
 * the screen does not know reads "Code 123". Codings without a code are left out (their display is
 * the item's name already), and so are repeats.
 */
export function codingLabels(codings: readonly Coding[]): string[] {
  const labels = codings
    .filter((c) => c.code)
    .map((c) => {
      const system = c.system ? SYSTEM_NAMES[c.system] : undefined;
      const code = c.code ?? '';
      return system ? `${system} ${code}` : t({ message: `Code ${code}`, comment: 'A medical code of an unknown code system' });
    });
  return [...new Set(labels)];
}

/**
 * FHIR statuses of conditions and procedures as words. "In remission", because the plain word
 * would mislead: a condition in remission is not over (decision 0035).
 */
export type RecordStatus = (typeof CONDITION_STATUSES)[number] | (typeof PROCEDURE_STATUSES)[number];
export const STATUS_WORDS: Record<RecordStatus, MessageDescriptor> = {
  active: msg({ message: 'Active', comment: 'Status of a medical condition or procedure' }),
  recurrence: msg({ message: 'Recurrence', comment: 'Status of a medical condition' }),
  relapse: msg({ message: 'Relapse', comment: 'Status of a medical condition' }),
  inactive: msg({ message: 'Inactive', comment: 'Status of a medical condition' }),
  remission: msg({ message: 'In remission', comment: 'Status of a medical condition' }),
  resolved: msg({ message: 'Resolved', comment: 'Status of a medical condition' }),
  completed: msg({ message: 'Completed', comment: 'Status of a medical procedure' }),
  'in-progress': msg({ message: 'In progress', comment: 'Status of a medical procedure' }),
  preparation: msg({ message: 'Preparation', comment: 'Status of a medical procedure' }),
  'not-done': msg({ message: 'Not done', comment: 'Status of a medical procedure' }),
  'on-hold': msg({ message: 'On hold', comment: 'Status of a medical procedure' }),
  stopped: msg({ message: 'Stopped', comment: 'Status of a medical procedure' }),
  'entered-in-error': msg({ message: 'Entered in error', comment: 'Status of a medical procedure' }),
  unknown: msg({ message: 'Unknown', comment: 'Status of a medical procedure' }),
};

/** A FHIR status as a word: "active" → "Active", "not-done" → "Not done", "remission" → "In remission". */
export function statusLabel(status: string): string {
  const word = (STATUS_WORDS as Partial<Record<string, MessageDescriptor>>)[status];
  if (word) return i18n._(word);
  const words = status.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A lab result's interpretation (HL7 v2 table 0078) as a word. */
export const INTERPRETATION_LABELS: Record<Interpretation, MessageDescriptor> = {
  N: msg({ message: 'Normal', comment: 'Lab result interpretation' }),
  L: msg({ message: 'Low', comment: 'Lab result interpretation' }),
  H: msg({ message: 'High', comment: 'Lab result interpretation' }),
  LL: msg({ message: 'Critically low', comment: 'Lab result interpretation' }),
  HH: msg({ message: 'Critically high', comment: 'Lab result interpretation' }),
  A: msg({ message: 'Abnormal', comment: 'Lab result interpretation' }),
  AA: msg({ message: 'Critically abnormal', comment: 'Lab result interpretation' }),
  POS: msg({ message: 'Positive', comment: 'Lab result interpretation' }),
  NEG: msg({ message: 'Negative', comment: 'Lab result interpretation' }),
};

export function interpretationLabel(code: Interpretation): string {
  return i18n._(INTERPRETATION_LABELS[code]);
}

/**
 * A lab value in the reader's digits and decimal sign, with exactly the decimals it was stored
 * with (6.10 is stored as 6.1, so that is what reads), never grouped: a thousands sign in one
 * language is the decimal sign of another, and a misread value is worse than a long one.
 */
export function formatLabNumber(value: number): string {
  const text = String(value);
  if (!/^-?\d+(?:\.\d+)?$/.test(text)) return text;
  const decimals = text.split('.')[1]?.length ?? 0;
  return new Intl.NumberFormat(displayLocale(), {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
    useGrouping: false,
  }).format(value);
}

/** A number or a text value with its unit: "6.1 %", "120 mmHg", "Positive". Units stay as written (UCUM). */
export function valueText(result: { value: number | null; value_text: string | null; unit: string | null }): string {
  const value = result.value === null ? (result.value_text ?? '') : formatLabNumber(result.value);
  return result.unit && result.value !== null ? `${value} ${result.unit}` : value;
}

/** A reference range as people read it, "4–5.6", "< 200", "> 60", else as written on the report; null without one. */
export function rangeLabel(r: {
  reference_low: number | null;
  reference_high: number | null;
  reference_range: string | null;
}): string | null {
  if (r.reference_low !== null && r.reference_high !== null)
    return `${formatLabNumber(r.reference_low)}–${formatLabNumber(r.reference_high)}`;
  if (r.reference_high !== null) return `< ${formatLabNumber(r.reference_high)}`;
  if (r.reference_low !== null) return `> ${formatLabNumber(r.reference_low)}`;
  return r.reference_range;
}

/** "and"-lists in the reader's language: "mg/dL and g/L". */
export function listWords(words: readonly string[]): string {
  return new Intl.ListFormat(displayLocale(), { type: 'conjunction' }).format(words);
}

/** A plain list in the reader's language, without "and": "Hives, Rash". */
export function listItems(words: readonly string[]): string {
  return new Intl.ListFormat(displayLocale(), { type: 'unit', style: 'short' }).format(words);
}

/** What a condition's end date means for its status: when it went into remission, else when it resolved. */
export const abatementLabel = (status: string): string =>
  status === 'remission'
    ? t`In remission since`
    : t({ message: 'Resolved', context: 'date label', comment: 'Label of the date a condition resolved' });
const YEAR = /^\d{4}$/;
const MONTH = /^\d{4}-\d{2}$/;
const DAY = /^\d{4}-\d{2}-\d{2}/;

/**
 * A partial date as people read it: "2022", "Jun 2023", "Feb 10, 2024" (in the reader's language);
 * anything else as given. Read as a calendar date, never shifted by the time zone.
 */
export function formatPartialDate(date: string): string {
  if (YEAR.test(date)) return date;
  const month = MONTH.test(date);
  if (!month && !DAY.test(date)) return date;
  const [year = 0, monthNumber = 1, day = 1] = date.slice(0, 10).split('-').map(Number);
  const parsed = new Date(Date.UTC(year, monthNumber - 1, day));
  if (Number.isNaN(parsed.getTime()) || parsed.getUTCMonth() !== monthNumber - 1 || parsed.getUTCDate() !== day) return date;
  return new Intl.DateTimeFormat(displayLocale(), {
    timeZone: 'UTC',
    year: 'numeric',
    month: 'short',
    ...(month ? {} : { day: 'numeric' }),
  }).format(parsed);
}

/** A YYYY or YYYY-MM date, which a date field cannot hold. */
export const isPartialDate = (date: string): boolean => YEAR.test(date) || MONTH.test(date);
