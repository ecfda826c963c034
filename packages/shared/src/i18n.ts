// Issue 35, DESIGN §15 (no zod here: the emergency page's bundle imports these rules): the languages Kinchart speaks, the units it measures in, and how a
// browser's or a request's language list picks one. Both sides use these rules: the server for a
// new account (Accept-Language) and for every email, push and PDF; the web app for a visitor.

/** BCP 47 tags; each is also `<html lang>`. English is the source language (the SPEC's texts). */
export const LANGUAGES = ['en', 'es', 'fr', 'de', 'pt-BR', 'it', 'nl', 'pl', 'zh-Hans', 'ja', 'hi', 'ar', 'uk'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** Each language in its own name, for the chooser (a reader looks for their own language's name). */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  es: 'Español',
  fr: 'Français',
  de: 'Deutsch',
  'pt-BR': 'Português (Brasil)',
  it: 'Italiano',
  nl: 'Nederlands',
  pl: 'Polski',
  'zh-Hans': '简体中文',
  ja: '日本語',
  hi: 'हिन्दी',
  ar: 'العربية',
  uk: 'Українська',
};

const RIGHT_TO_LEFT: ReadonlySet<string> = new Set(['ar']);

/** `dir` for a language's `<html>`: Arabic reads right to left. */
export function languageDirection(language: string): 'ltr' | 'rtl' {
  return RIGHT_TO_LEFT.has(language) ? 'rtl' : 'ltr';
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The language a BCP 47 tag asks for, if Kinchart speaks it: any Portuguese reads Brazilian, any
 * Simplified Chinese (zh, zh-CN, zh-SG, zh-Hans-*) the Chinese catalog; Traditional (zh-TW, zh-HK,
 * zh-Hant) is not offered and falls through to the next choice.
 */
export function languageOfTag(tag: string): Language | undefined {
  const lower = tag.trim().toLowerCase();
  if (lower.length === 0 || lower.length > 35) return undefined;
  const [primary = '', ...rest] = lower.split('-');
  if (primary === 'zh') {
    if (rest.length === 0 || rest[0] === 'hans' || ['cn', 'sg', 'my'].includes(rest[0] ?? '')) return 'zh-Hans';
    return undefined;
  }
  if (primary === 'pt') return 'pt-BR';
  return LANGUAGES.find((language) => language === primary);
}

/** The first of a list of tags (navigator.languages, in order of preference) that Kinchart speaks. */
export function pickLanguage(tags: readonly string[]): Language {
  for (const tag of tags) {
    const language = languageOfTag(tag);
    if (language) return language;
  }
  return DEFAULT_LANGUAGE;
}

/**
 * An Accept-Language header's tags, best first (RFC 9110 §12.5.4): q=0 is "not this", equal
 * weights keep their order. Linear: split on commas and semicolons, no regular expression.
 */
export function acceptLanguageTags(header: string | undefined): string[] {
  if (!header) return [];
  const weighted: { tag: string; q: number; index: number }[] = [];
  header
    .slice(0, 1000)
    .split(',')
    .forEach((part, index) => {
      const [tag = '', ...params] = part.split(';').map((piece) => piece.trim());
      if (!tag || tag === '*') return;
      let q = 1;
      for (const param of params) {
        if (param.startsWith('q=')) q = Number(param.slice(2));
      }
      if (Number.isFinite(q) && q > 0) weighted.push({ tag, q, index });
    });
  return weighted.sort((a, b) => b.q - a.q || a.index - b.index).map((entry) => entry.tag);
}

// ---------- units ----------

export const UNIT_SYSTEMS = ['imperial', 'metric'] as const;
export type UnitSystem = (typeof UNIT_SYSTEMS)[number];

/** Countries that measure a person in feet and pounds. */
const IMPERIAL_REGIONS: ReadonlySet<string> = new Set(['us', 'lr', 'mm']);

/**
 * A new account's units from its first language tag: the SPEC's ft/in and lbs for English
 * without a region and for the US (and Liberia, Myanmar); centimetres and kilograms elsewhere.
 */
export function unitsForTags(tags: readonly string[]): UnitSystem {
  const first = tags[0]?.toLowerCase();
  if (!first) return 'imperial';
  const parts = first.split('-');
  const region = parts.find((part, index) => index > 0 && part.length === 2);
  if (region) return IMPERIAL_REGIONS.has(region) ? 'imperial' : 'metric';
  return parts[0] === 'en' ? 'imperial' : 'metric';
}
