import { format, isValid, parseISO } from 'date-fns';

/** A stored YYYY-MM-DD date as people read it ('Mar 4, 1980'); the raw text if it is not a date. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const date = parseISO(value.slice(0, 10));
  return isValid(date) ? format(date, 'MMM d, yyyy') : value;
}
