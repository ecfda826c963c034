import { format, isValid, parseISO } from 'date-fns';

/** A stored YYYY-MM-DD date as people read it ('Mar 4, 1980'); the raw text if it is not a date. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const date = parseISO(value.slice(0, 10));
  return isValid(date) ? format(date, 'MMM d, yyyy') : value;
}

/** An ISO instant in the reader's time zone ('Mar 4, 2026, 2:05 PM'); empty when there is none. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '';
  const date = parseISO(value);
  return isValid(date) ? format(date, 'MMM d, yyyy, h:mm a') : value;
}
