import { SYSTEMS, type Coding } from '@kinchart/shared/clinical';
import { format, isValid, parseISO } from 'date-fns';

// How the health records screen writes what the API gives: codings, statuses, values.

/** Short names of the code systems people meet on a record. */
const SYSTEM_NAMES: Record<string, string> = {
  [SYSTEMS.loinc]: 'LOINC',
  [SYSTEMS.snomed]: 'SNOMED',
  [SYSTEMS.cvx]: 'CVX',
  'http://hl7.org/fhir/sid/icd-10': 'ICD-10',
  'http://hl7.org/fhir/sid/icd-10-cm': 'ICD-10-CM',
  'http://www.nlm.nih.gov/research/umls/rxnorm': 'RxNorm',
};

/**
 * A coding as a small line under the item: "SNOMED 195967001", "LOINC 4548-4"; a code of a system
 * the screen does not know reads "Code 123". Codings without a code are left out (their display is
 * the item's name already), and so are repeats.
 */
export function codingLabels(codings: readonly Coding[]): string[] {
  const labels = codings.filter((c) => c.code).map((c) => `${(c.system && SYSTEM_NAMES[c.system]) || 'Code'} ${c.code ?? ''}`);
  return [...new Set(labels)];
}

/** Statuses whose plain word would mislead: a condition in remission is not over (decision 0035). */
const STATUS_WORDS: Record<string, string> = { remission: 'In remission' };

/** A FHIR status as a word: "active" → "Active", "not-done" → "Not done", "remission" → "In remission". */
export function statusLabel(status: string): string {
  const word = STATUS_WORDS[status];
  if (word) return word;
  const words = status.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A number or a text value with its unit: "6.1 %", "120 mmHg", "Positive". */
export function valueText(result: { value: number | null; value_text: string | null; unit: string | null }): string {
  const value = result.value === null ? (result.value_text ?? '') : String(result.value);
  return result.unit && result.value !== null ? `${value} ${result.unit}` : value;
}

/** What a condition's end date means for its status: when it went into remission, else when it resolved. */
export const abatementLabel = (status: string): string => (status === 'remission' ? 'In remission since' : 'Resolved');
const YEAR = /^\d{4}$/;
const MONTH = /^\d{4}-\d{2}$/;

/**
 * A partial date as people read it: "2022", "Jun 2023", "Feb 10, 2024"; anything else as given.
 * Read as a calendar date, never shifted by the time zone.
 */
export function formatPartialDate(date: string): string {
  if (YEAR.test(date)) return date;
  const parsed = parseISO(MONTH.test(date) ? `${date}-01` : date.slice(0, 10));
  if (!isValid(parsed)) return date;
  return format(parsed, MONTH.test(date) ? 'MMM yyyy' : 'MMM d, yyyy');
}

/** A YYYY or YYYY-MM date, which a date field cannot hold. */
export const isPartialDate = (date: string): boolean => YEAR.test(date) || MONTH.test(date);
