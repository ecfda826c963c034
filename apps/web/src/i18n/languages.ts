import { LANGUAGES, languageDirection, pickLanguage, type Language } from '@kinchart/shared/i18n';

// Issue 35: the languages the app can show. `pseudo` (accented, 40 % longer, in brackets) is the
// English catalog stretched to catch clipped text; it is offered only in development, and a
// journey turns it on through the stored choice.

export type AppLanguage = Language | 'pseudo';
export const PSEUDO = 'pseudo';

export function isAppLanguage(value: unknown): value is AppLanguage {
  return value === PSEUDO || (typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value));
}

/** `lang` for `<html>` and Intl: the pseudo-locale formats dates and numbers as English. */
export function intlLocale(language: AppLanguage): string {
  return language === PSEUDO ? 'en' : language;
}

export function directionOf(language: AppLanguage): 'ltr' | 'rtl' {
  return languageDirection(language);
}

const STORAGE_KEY = 'kinchart.language';

/** The language this browser last chose (signed in or not). */
export function storedLanguage(): AppLanguage | undefined {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return isAppLanguage(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export function storeLanguage(language: AppLanguage): void {
  try {
    localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // Private browsing without storage: the choice lasts for this page only.
  }
}

export function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : [];
}

/** A language asked for in the address (`?lang=ar`): a link shared in a language opens in it. */
function requestedLanguage(): AppLanguage | undefined {
  if (typeof location === 'undefined') return undefined;
  const asked = new URLSearchParams(location.search).get('lang');
  return isAppLanguage(asked) ? asked : undefined;
}

/**
 * What a page opens in: a language the address asks for (then remembered), else the stored
 * choice, else the browser's first language Kinchart speaks (navigator.languages).
 */
export function initialLanguage(): AppLanguage {
  const asked = requestedLanguage();
  if (asked) storeLanguage(asked);
  return asked ?? storedLanguage() ?? pickLanguage(browserLanguages());
}
