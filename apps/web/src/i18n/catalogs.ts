import { i18n, type Messages } from '@lingui/core';
import { directionOf, intlLocale, type AppLanguage } from './languages';

// DESIGN §15: one compiled catalog per language, each its own chunk (the Lingui Vite plugin
// compiles the PO file on import), so a visitor downloads only the language they read.
const appCatalogs = import.meta.glob<{ messages: Messages }>('../locales/*/messages.po');

async function catalogOf(language: AppLanguage): Promise<Messages> {
  const load = appCatalogs[`../locales/${language}/messages.po`] ?? appCatalogs['../locales/en/messages.po'];
  if (!load) return {};
  return (await load()).messages;
}

/** Loads `language`'s catalog, makes it the active one and names it on `<html lang dir>`. */
export async function activateLanguage(language: AppLanguage): Promise<void> {
  const messages = await catalogOf(language);
  i18n.loadAndActivate({ locale: language, locales: [intlLocale(language)], messages });
  if (typeof document !== 'undefined') {
    document.documentElement.lang = intlLocale(language);
    document.documentElement.dir = directionOf(language);
  }
}

export { i18n };
