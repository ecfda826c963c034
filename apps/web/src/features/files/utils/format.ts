import { formatFileSize } from '@kinchart/shared/files';
import { i18n } from '@lingui/core';
import { t } from '@lingui/core/macro';
import { intlLocale, isAppLanguage } from '../../../i18n/languages';

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The active language as Intl reads it (the pseudo-locale formats as English). */
export function activeIntlLocale(): string | undefined {
  return isAppLanguage(i18n.locale) ? intlLocale(i18n.locale) : undefined;
}

/**
 * A record or upload date for people. A bare YYYY-MM-DD is a calendar date and is shown as that
 * very day (parsing it as UTC would show the day before west of Greenwich).
 */
export function formatDate(value: string | null | undefined): string {
  if (!value) return t`Not provided`;
  const bare = DATE_ONLY.exec(value);
  const date = bare ? new Date(Number(bare[1]), Number(bare[2]) - 1, Number(bare[3])) : new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(activeIntlLocale(), { year: 'numeric', month: 'short', day: 'numeric' }).format(date);
}

/** A date-time for messages such as 'File "x" uploaded on {date-time}'. */
export function formatDateTime(date: Date): string {
  return date.toLocaleString(activeIntlLocale());
}

/** Today in the user's own time zone as YYYY-MM-DD: the Visit Date default (SPEC §3). */
export function localToday(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * A file size in the reader's language. English keeps SPEC §9's text ('1.5 KB', '512 Bytes');
 * other languages get Intl's units and separators ('1,5 Ko', '5,25 МБ'); both base 1024.
 */
export function fileSize(bytes: number): string {
  const locale = activeIntlLocale();
  if (!locale || locale === 'en') return formatFileSize(bytes);
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
  const exponent = !Number.isFinite(bytes) || bytes <= 0 ? 0 : Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), units.length - 1);
  const value = Math.max(0, Number.isFinite(bytes) ? bytes : 0) / 1024 ** exponent;
  return new Intl.NumberFormat(locale, { style: 'unit', unit: units[exponent], unitDisplay: 'short', maximumFractionDigits: 2 }).format(
    value,
  );
}

/** A record field that may be blank. */
export function orNotProvided(value: string | null | undefined): string {
  return value?.trim() ? value : t`Not provided`;
}
