import { i18n } from '@lingui/core';
import { isValid, parseISO } from 'date-fns';

// Issue 35: dates, times and numbers as the reader's language writes them (Intl), in the active
// catalog's locale. English reads as before ('Mar 4, 1980', 'Mar 4, 2026, 2:05 PM').

/** The Intl locale of the active language (the pseudo-locale formats as English). */
export function activeLocale(): string {
  const locale = i18n.locale;
  return !locale || locale === 'pseudo' ? 'en' : locale;
}

const cache = new Map<string, Intl.DateTimeFormat>();
function dateTimeFormat(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${activeLocale()}|${JSON.stringify(options)}`;
  let formatter = cache.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(activeLocale(), options);
    cache.set(key, formatter);
  }
  return formatter;
}

/** A stored YYYY-MM-DD date as people read it ('Mar 4, 1980'); the raw text if it is not a date. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const date = parseISO(value.slice(0, 10));
  return isValid(date) ? dateTimeFormat({ dateStyle: 'medium' }).format(date) : value;
}

/** An ISO instant in the reader's time zone ('Mar 4, 2026, 2:05 PM'); empty when there is none. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '';
  const date = parseISO(value);
  return isValid(date) ? dateTimeFormat({ dateStyle: 'medium', timeStyle: 'short' }).format(date) : value;
}

/** A number in the reader's digits and separators (1,234.5 · 1.234,5 · ١٬٢٣٤٫٥). */
export function formatNumber(value: number, options: Intl.NumberFormatOptions = {}): string {
  return new Intl.NumberFormat(activeLocale(), options).format(value);
}
