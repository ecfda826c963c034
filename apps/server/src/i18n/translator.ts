import { setupI18n, type I18n, type Messages } from '@lingui/core';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '@kinchart/shared/i18n';
import { messages as ar } from '../locales/ar/server.po';
import { messages as de } from '../locales/de/server.po';
import { messages as en } from '../locales/en/server.po';
import { messages as es } from '../locales/es/server.po';
import { messages as fr } from '../locales/fr/server.po';
import { messages as hi } from '../locales/hi/server.po';
import { messages as it } from '../locales/it/server.po';
import { messages as ja } from '../locales/ja/server.po';
import { messages as nl } from '../locales/nl/server.po';
import { messages as pl } from '../locales/pl/server.po';
import { messages as ptBR } from '../locales/pt-BR/server.po';
import { messages as uk } from '../locales/uk/server.po';
import { messages as zhHans } from '../locales/zh-Hans/server.po';

// Issue 35, docs/decisions/0055: what the server writes to a person — emails, push payloads, in-app
// notification titles, reminders, the calendar feed, PDFs — is written in the RECIPIENT's language
// (users.language), each recipient separately. The texts are PO catalogs with explicit ids
// (src/locales/{locale}/server.po, ICU MessageFormat, compiled by po-catalogs.mjs); English is the
// source and the fallback of every message not yet translated.

const CATALOGS: Record<Language, Messages> = {
  en,
  es,
  fr,
  de,
  'pt-BR': ptBR,
  it,
  nl,
  pl,
  'zh-Hans': zhHans,
  ja,
  hi,
  ar,
  uk,
};

export type MessageValues = Record<string, string | number | Date>;

export interface Translator {
  language: Language;
  /** The message `id` of the catalog in this language, its ICU placeholders filled from `values`. */
  t(id: string, values?: MessageValues): string;
}

const translators = new Map<Language, Translator>();

/** A stored or requested language as one Kinchart speaks: English when unknown or never chosen. */
export function languageOrDefault(language: string | null | undefined): Language {
  return isLanguage(language) ? language : DEFAULT_LANGUAGE;
}

/** The translator of `language` (users.language as stored: null or unknown read as English). */
export function translator(language: string | null | undefined): Translator {
  const lang = languageOrDefault(language);
  let found = translators.get(lang);
  if (!found) {
    const i18n: I18n = setupI18n({ locale: lang, messages: { [lang]: CATALOGS[lang] } });
    found = {
      language: lang,
      t(id, values) {
        if (!(id in CATALOGS.en)) throw new Error(`no server message ${id}`);
        return i18n._(id, values);
      },
    };
    translators.set(lang, found);
  }
  return found;
}

/** Every id of the English catalog (tests: each language's catalog carries the same ones). */
export const MESSAGE_IDS: readonly string[] = Object.keys(en);
