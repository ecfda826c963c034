import { LOCALES, type Locale } from './locales';

/*
 * Dates, ages and units on the emergency page in the responder's language, with Intl only
 * (no date library: the page has to load fast on a weak signal).
 */

const CM_PER_INCH = 2.54;
const LB_PER_KG = 2.20462;

function unit(locale: Locale, name: string, value: number, maximumFractionDigits = 0): string {
  return new Intl.NumberFormat(locale, { style: 'unit', unit: name, unitDisplay: 'long', maximumFractionDigits }).format(value);
}

function shortUnit(locale: Locale, name: string, value: number, maximumFractionDigits = 0): string {
  return new Intl.NumberFormat(locale, { style: 'unit', unit: name, unitDisplay: 'short', maximumFractionDigits }).format(value);
}

/** A date of birth is a calendar date: parse it as UTC midnight so no time zone shifts it. */
function calendarDate(value: string | null): Date | null {
  if (!value || !/^\d{4}-\d{2}-\d{2}/.test(value)) return null;
  const date = new Date(`${value.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Whole months between a birth date and now; null before birth or without a date. */
function monthsSince(birth: Date, now: Date): number | null {
  let months = (now.getUTCFullYear() - birth.getUTCFullYear()) * 12 + (now.getUTCMonth() - birth.getUTCMonth());
  if (now.getUTCDate() < birth.getUTCDate()) months -= 1;
  return months >= 0 ? months : null;
}

/** "45 years", "45 años", "45岁"… — months under two years (a baby's age is counted in months). */
export function formatAgeFromBirthDate(locale: Locale, dateOfBirth: string | null, now = new Date()): string | null {
  const birth = calendarDate(dateOfBirth);
  const months = birth ? monthsSince(birth, now) : null;
  if (months === null) return null;
  return months < 24 ? unit(locale, 'month', months) : unit(locale, 'year', Math.floor(months / 12));
}

/**
 * An age the server already counted in whole years (the essentials answer): a baby's 0 reads
 * "< 1 year", "< 1 año"… rather than "0 years".
 */
export function formatAgeYears(locale: Locale, years: number | null): string | null {
  if (years === null) return null;
  return years < 1 ? `< ${unit(locale, 'year', 1)}` : unit(locale, 'year', years);
}

export function formatCalendarDate(locale: Locale, value: string | null): string | null {
  const date = calendarDate(value);
  return date ? new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(date) : null;
}

/** An instant (updated_at) as a date in the viewer's own time zone. */
export function formatInstantDate(locale: Locale, value: string | null): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : new Intl.DateTimeFormat(locale, { dateStyle: 'long' }).format(date);
}

/** Height is stored in cm (SPEC §5); English readers also get feet and inches. */
export function formatHeight(locale: Locale, cm: number | null): string | null {
  if (cm === null || !(cm > 0)) return null;
  const metric = shortUnit(locale, 'centimeter', Math.round(cm));
  if (locale !== 'en') return metric;
  const inches = Math.round(cm / CM_PER_INCH);
  return `${metric} (${shortUnit(locale, 'foot', Math.floor(inches / 12))} ${shortUnit(locale, 'inch', inches % 12)})`;
}

/** Weight is stored in kg (SPEC §5); English readers also get pounds. */
export function formatWeight(locale: Locale, kg: number | null): string | null {
  if (kg === null || !(kg > 0)) return null;
  const metric = shortUnit(locale, 'kilogram', kg, 1);
  return locale === 'en' ? `${metric} (${shortUnit(locale, 'pound', kg * LB_PER_KG, 1)})` : metric;
}

/**
 * Whether a free-text primary language ("English", "Español", "de") is the viewer's language, in
 * any of the names the page knows for it. Unknown text counts as different, so it is shown.
 */
export function isViewerLanguage(locale: Locale, primaryLanguage: string): boolean {
  const wanted = primaryLanguage.trim().toLowerCase();
  const code = locale === 'zh-Hans' ? 'zh' : locale === 'pt-BR' ? 'pt' : locale;
  const names = new Set<string>([code, locale.toLowerCase()]);
  for (const display of LOCALES) {
    try {
      const name = new Intl.DisplayNames([display], { type: 'language' }).of(code);
      if (name) names.add(name.toLowerCase());
      if (code !== locale) names.add((new Intl.DisplayNames([display], { type: 'language' }).of(locale) ?? '').toLowerCase());
    } catch {
      // Intl.DisplayNames missing: the code alone is compared.
    }
  }
  return names.has(wanted);
}
