import { setupI18n, type I18n, type Messages } from '@lingui/core';
import { LANGUAGES, LANGUAGE_NAMES, isLanguage, languageDirection, pickLanguage, type Language } from '@kinchart/shared/i18n';
import { MESSAGES, type MessageKey } from './messages';

/*
 * DESIGN §7, §15: the emergency page speaks the responder's language — any of Kinchart's 13, picked
 * from the browser's list (Accept-Language on the server, navigator.languages here) by the rules
 * the app uses too (packages/shared pickLanguage). Its texts are the emergency catalog's; a page
 * loads the one language it shows (each catalog is its own chunk), the server renderer has all.
 */

/** The languages a responder gets, as BCP 47 tags (also `<html lang>`), in the switcher's order. */
export const LOCALES = LANGUAGES;
export type Locale = Language;

/** Each language in its own name, for the switcher. */
export const LOCALE_NAMES: Record<Locale, string> = LANGUAGE_NAMES;

/** The first of the browser's languages (navigator.languages) that the page speaks; else English. */
export const pickLocale: (languages: readonly string[]) => Locale = pickLanguage;

export const isLocale: (value: unknown) => value is Locale = isLanguage;

/** `dir` for the page: Arabic reads right to left. */
export function directionOf(locale: Locale): 'ltr' | 'rtl' {
  return languageDirection(locale);
}

/** A language's compiled emergency catalog (the Lingui Vite plugin compiles the PO file on import). */
// Not in the server renderer's build, which bundles every catalog itself (src/emergency/entry-server).
const catalogs: Record<string, () => Promise<{ messages: Messages }>> = import.meta.env.SSR
  ? {}
  : import.meta.glob<{ messages: Messages }>('../../../locales/*/emergency.po');

/**
 * The catalog a language's page needs, loaded on its own. `pseudo` (development only) has one
 * too, for the app's kept emergency cards.
 */
export async function loadEmergencyMessages(language: Locale | 'pseudo'): Promise<Messages> {
  const load = catalogs[`../../../locales/${language}/emergency.po`] ?? catalogs['../../../locales/en/emergency.po'];
  return load ? (await load()).messages : {};
}

/** A Lingui instance of its own: the page's language can differ from the app's (and is switched on its own). */
export function emergencyI18n(language: Locale | 'pseudo', messages: Messages): I18n {
  return setupI18n({ locale: language, locales: [language === 'pseudo' ? 'en' : language], messages: { [language]: messages } });
}

export type Translate = (key: MessageKey, vars?: Record<string, string | number>) => string;

/** The page's `t('key', { name })`: the key is the message's id in the emergency catalog. */
export function translator(i18n: I18n): Translate {
  return (key, vars) => i18n._(vars ? { ...MESSAGES[key], values: vars } : MESSAGES[key]);
}

export type { MessageKey };
