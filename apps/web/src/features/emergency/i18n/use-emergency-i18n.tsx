import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { LOCALES, LOCALE_NAMES, isLocale, pickLocale, translator, type Locale, type Translate } from './locales';

interface EmergencyI18n {
  locale: Locale;
  t: Translate;
  setLocale: (locale: Locale) => void;
}

const I18nContext = createContext<EmergencyI18n>({ locale: 'en', t: translator('en'), setLocale: () => undefined });

function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : [];
}

/**
 * DESIGN §7: the emergency page speaks the responder's browser language, with a switcher. While
 * the page is open `<html lang>` names that language (screen readers, hyphenation, fonts), and the
 * app's own language comes back when the page is left.
 */
export function EmergencyI18nProvider({ children, initialLocale }: { children: ReactNode; initialLocale?: Locale }) {
  // The server's choice (from Accept-Language) when it rendered the first HTML, so hydration matches.
  const [locale, setLocale] = useState<Locale>(() => initialLocale ?? pickLocale(browserLanguages()));

  useEffect(() => {
    const root = document.documentElement;
    const previous = root.getAttribute('lang');
    root.setAttribute('lang', locale);
    return () => {
      if (previous === null) root.removeAttribute('lang');
      else root.setAttribute('lang', previous);
    };
  }, [locale]);

  const value = useMemo(() => ({ locale, t: translator(locale), setLocale }), [locale]);
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
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="2">
        <circle cx="12" cy="12" r="9" />
        <path d="M3 12h18M12 3c2.5 2.7 3.8 5.7 3.8 9s-1.3 6.3-3.8 9c-2.5-2.7-3.8-5.7-3.8-9S9.5 5.7 12 3z" />
      </svg>
      <select
        value={locale}
        onChange={(event) => {
          if (isLocale(event.target.value)) setLocale(event.target.value);
        }}
        className="min-h-11 rounded-lg border-2 border-black bg-white px-2 py-1 text-base font-semibold text-black"
      >
        {LOCALES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LOCALE_NAMES[l]}
          </option>
        ))}
      </select>
    </label>
  );
}
