import { i18n, type Messages } from '@lingui/core';
import { directionOf, intlLocale, type AppLanguage } from './languages';

// DESIGN §15, decision 0056: compiled catalogs, one chunk per language and part (the Lingui Vite
// plugin compiles each PO file on import), so a reader downloads only their language, and only
// the parts the pages they open need:
// - public: the frame, shared components, marketing and sign-in pages — before the first render;
// - server: the server's answers (decision 0054) — with the sign-in pages and any signed-in page;
// - app: the rest of the app — with the signed-in pages and the public pages that show records.
type Load = () => Promise<{ messages: Messages }>;
const PARTS = {
  public: import.meta.glob<{ messages: Messages }>('../locales/*/public.po'),
  server: import.meta.glob<{ messages: Messages }>('../locales/*/server.po'),
  app: import.meta.glob<{ messages: Messages }>('../locales/*/messages.po'),
} satisfies Record<string, Record<string, Load>>;

export type CatalogPart = Exclude<keyof typeof PARTS, 'public'>;

/** The parts pages have asked for so far: a change of language loads them again in the new one. */
const wanted = new Set<CatalogPart>();

async function partOf(part: keyof typeof PARTS, language: AppLanguage): Promise<Messages> {
  const files = PARTS[part];
  const file = Object.keys(files).find((key) => key.startsWith(`../locales/${language}/`));
  const load = (file ? files[file] : undefined) ?? Object.entries(files).find(([key]) => key.startsWith('../locales/en/'))?.[1];
  return load ? (await load()).messages : {};
}

/** Loads `language`'s catalogs (the public part and every part asked for), makes them active, and names the language on `<html lang dir>`. */
export async function activateLanguage(language: AppLanguage): Promise<void> {
  const parts = await Promise.all([partOf('public', language), ...[...wanted].map((part) => partOf(part, language))]);
  i18n.loadAndActivate({ locale: language, locales: [intlLocale(language)], messages: Object.assign({}, ...parts) as Messages });
  if (typeof document !== 'undefined') {
    document.documentElement.lang = intlLocale(language);
    document.documentElement.dir = directionOf(language);
  }
}

/** Adds a part of the catalog in the active language (once); pages that need it wait for it. */
export async function loadCatalogParts(...parts: CatalogPart[]): Promise<void> {
  const missing = parts.filter((part) => !wanted.has(part));
  if (missing.length === 0) return;
  for (const part of missing) wanted.add(part);
  const language = (i18n.locale || 'en') as AppLanguage;
  const loaded = await Promise.all(missing.map((part) => partOf(part, language)));
  // A change of language meanwhile has loaded these parts in its own language already.
  if (i18n.locale === language) i18n.load(language, Object.assign({}, ...loaded) as Messages);
}

export { i18n };
