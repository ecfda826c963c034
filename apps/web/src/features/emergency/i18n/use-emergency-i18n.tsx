import type { Messages } from '@lingui/core';
import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  LOCALES,
  LOCALE_NAMES,
  directionOf,
  emergencyI18n,
  isLocale,
  loadEmergencyMessages,
  pickLocale,
  translator,
  type Locale,
  type Translate,
} from './locales';

/** A language with its emergency catalog, ready to render (the server's, or loaded before hydration). */
export interface EmergencyCatalog {
  locale: Locale;
  messages: Messages;
}

interface EmergencyI18n {
  /** The language shown (and the one Intl formats in). */
  locale: Locale;
  t: Translate;
  setLocale: (locale: Locale) => void;
}

const english = translator(emergencyI18n('en', {}));
const I18nContext = createContext<EmergencyI18n>({ locale: 'en', t: english, setLocale: () => undefined });

export function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : [];
}

interface Shown {
  locale: Locale;
  t: Translate;
}

function shownOf({ locale, messages }: EmergencyCatalog, catalogLanguage: Locale | 'pseudo' = locale): Shown {
  return { locale, t: translator(emergencyI18n(catalogLanguage, messages)) };
}

/**
 * DESIGN §7: the emergency page speaks the responder's browser language, with a switcher. While
 * the page is open `<html lang dir>` name that language (screen readers, hyphenation, fonts; Arabic
 * mirrors), and the app's own language comes back when the page is left. Only the shown language's
 * catalog is loaded; until it is in, nothing is shown (the server-rendered page hands it over ready).
 *
 * `follow`: the app's language instead (the owner's kept emergency cards, inside the app, which
 * keeps `<html>` itself).
 */
export function EmergencyI18nProvider({
  children,
  initial,
  follow,
}: {
  children: ReactNode;
  initial?: EmergencyCatalog | undefined;
  follow?: Locale | 'pseudo' | undefined;
}) {
  const [shown, setShown] = useState<Shown | null>(() => (initial ? shownOf(initial) : null));
  const latest = useRef(0);

  const show = useCallback((language: Locale | 'pseudo') => {
    const request = ++latest.current;
    void loadEmergencyMessages(language).then((messages) => {
      if (request !== latest.current) return;
      setShown(shownOf({ locale: language === 'pseudo' ? 'en' : language, messages }, language));
    });
  }, []);

  // The first language (the browser's, unless the server's came with the page), or the followed one.
  const needsFirst = !initial;
  useEffect(() => {
    if (follow) show(follow);
    else if (needsFirst) show(pickLocale(browserLanguages()));
  }, [follow, needsFirst, show]);

  const locale = shown?.locale;
  // Before paint, so a switch to Arabic mirrors in the same frame as its words.
  useLayoutEffect(() => {
    if (!locale || follow) return;
    const root = document.documentElement;
    const previous = { lang: root.getAttribute('lang'), dir: root.getAttribute('dir') };
    root.setAttribute('lang', locale);
    root.setAttribute('dir', directionOf(locale));
    return () => {
      for (const [name, value] of Object.entries(previous)) {
        if (value === null) root.removeAttribute(name);
        else root.setAttribute(name, value);
      }
    };
  }, [locale, follow]);

  const value = useMemo(() => (shown ? { ...shown, setLocale: show } : null), [shown, show]);
  if (!value) return null;
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useEmergencyI18n(): EmergencyI18n {
  return useContext(I18nContext);
}

/**
 * A native select: the most robust control on any phone; each name is in its own language. The
 * label is for screen readers, a globe shows it to the eye: on a phone the switcher shares the
 * title's row, so the critical facts keep the first screen (DESIGN §7).
 */
export function LanguageSwitcher() {
  const { locale, t, setLocale } = useEmergencyI18n();
  return (
    <label className="flex items-center gap-1.5 text-base font-bold text-black">
      <span className="sr-only">{t('languageLabel')}</span>
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6 shrink-0" fill="none" stroke="currentColor" strokeWidth="2">
        <circle cx="12" cy="12" r="9" />
        <path d="M3 12h18M12 3c2.5 2.7 3.8 5.7 3.8 9s-1.3 6.3-3.8 9c-2.5-2.7-3.8-5.7-3.8-9S9.5 5.7 12 3z" />
      </svg>
      <select
        value={locale}
        onChange={(event) => {
          if (isLocale(event.target.value)) setLocale(event.target.value);
        }}
        className="min-h-11 max-w-[11rem] rounded-lg border-2 border-black bg-white px-2 py-1 text-base font-semibold text-black"
      >
        {LOCALES.map((l) => (
          <option key={l} value={l} lang={l} dir={directionOf(l)}>
            {LOCALE_NAMES[l]}
          </option>
        ))}
      </select>
    </label>
  );
}
