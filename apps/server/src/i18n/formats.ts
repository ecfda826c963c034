import type { Language } from '@kinchart/shared/i18n';

// Issue 35: dates and times in a recipient's language, through Intl. English keeps the formats its
// texts have always had (the SPEC's, which tests and readers know); every other language gets its
// own (CLDR's) order, names and digits.

const cache = new Map<string, Intl.DateTimeFormat>();
function dateTimeFormat(language: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${language}|${JSON.stringify(options)}`;
  let found = cache.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(language, options);
    cache.set(key, found);
  }
  return found;
}

/** An instant in an email, in UTC: "Fri, 27 Nov 2026 21:25:44 GMT" in English. */
export function mailDateTime(at: Date, language: Language): string {
  if (language === 'en') return at.toUTCString();
  return dateTimeFormat(language, { dateStyle: 'full', timeStyle: 'long', timeZone: 'UTC' }).format(at);
}

/** A minute in an email, in UTC: "2026-11-24 03:58 UTC" in English. */
export function mailMinute(at: Date, language: Language): string {
  if (language === 'en') return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return dateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(at) + ' UTC';
}

/**
 * A local wall-clock "HH:MM" (already in the person's zone): as given, or without its leading zero
 * ("9:30") when `english` is 'clock', in English; the language's own way elsewhere ("9:30 AM" style
 * where the language counts twelve hours).
 */
export function wallClock(hhmm: string, language: Language, english: 'as-is' | 'clock' = 'as-is'): string {
  if (language === 'en') return english === 'clock' ? hhmm.replace(/^0(\d)/, '$1') : hhmm;
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  return dateTimeFormat(language, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).format(new Date(Date.UTC(2000, 0, 1, h, m)));
}

/** A local date "YYYY-MM-DD": as given in English; the language's medium date elsewhere. */
export function localDay(date: string, language: Language): string {
  if (language === 'en') return date;
  return dateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
}

/** "Friday, March 5" (English, as ever) or the language's weekday, day and month. */
export function weekdayDate(date: string, language: Language): string {
  return dateTimeFormat(language === 'en' ? 'en-US' : language, { timeZone: 'UTC', weekday: 'long', month: 'long', day: 'numeric' }).format(
    new Date(`${date}T00:00:00Z`),
  );
}

const relative = new Map<Language, Intl.RelativeTimeFormat>();
/** "in 2 hours", "in 30 minutes", in the language (Intl.RelativeTimeFormat). */
export function inTime(value: number, unit: 'minute' | 'hour', language: Language): string {
  let found = relative.get(language);
  if (!found) {
    found = new Intl.RelativeTimeFormat(language, { numeric: 'always' });
    relative.set(language, found);
  }
  return found.format(value, unit);
}
