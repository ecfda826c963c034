import { de } from './de';
import { en, type MessageKey, type Messages } from './en';
import { es } from './es';
import { fr } from './fr';
import { zhHans } from './zh-hans';

/** DESIGN §7: the languages a responder gets, as BCP 47 tags (also used for `<html lang>`). */
export const LOCALES = ['en', 'es', 'fr', 'de', 'zh-Hans'] as const;
export type Locale = (typeof LOCALES)[number];

/** Each language in its own name, for the switcher. */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: 'English',
  es: 'Español',
  fr: 'Français',
  de: 'Deutsch',
  'zh-Hans': '简体中文',
};

const MESSAGES: Record<Locale, Messages> = { en, es, fr, de, 'zh-Hans': zhHans };

/** Traditional-script Chinese is not offered, so zh-TW, zh-HK and zh-Hant fall through. */
function localeOf(tag: string): Locale | undefined {
  const lower = tag.toLowerCase();
  if (lower === 'zh' || lower.startsWith('zh-')) {
    const simplified = lower === 'zh' || lower.startsWith('zh-hans') || /^zh-(cn|sg|my)(-|$)/.test(lower);
    return simplified ? 'zh-Hans' : undefined;
  }
  const primary = lower.split('-')[0];
  return LOCALES.find((l) => l === primary);
}

/** The first of the browser's languages (navigator.languages) that the page speaks; else English. */
export function pickLocale(languages: readonly string[]): Locale {
  for (const tag of languages) {
    const locale = localeOf(tag);
    if (locale) return locale;
  }
  return 'en';
}

export function isLocale(value: string): value is Locale {
  return (LOCALES as readonly string[]).includes(value);
}

export type Translate = (key: MessageKey, vars?: Record<string, string | number>) => string;

export function translator(locale: Locale): Translate {
  const messages = MESSAGES[locale];
  return (key, vars) => messages[key].replace(/\{(\w+)\}/g, (whole, name: string) => (vars && name in vars ? String(vars[name]) : whole));
}

export type { MessageKey };
