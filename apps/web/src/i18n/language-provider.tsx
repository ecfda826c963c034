import { unitsForTags, type UnitSystem } from '@kinchart/shared/i18n';
import { I18nProvider } from '@lingui/react';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { activateLanguage, i18n } from './catalogs';
import { browserLanguages, storeLanguage, type AppLanguage } from './languages';

interface LanguageState {
  language: AppLanguage;
  /**
   * Loads the catalog, then shows every screen in it; remembered on this browser and, when
   * someone is signed in, on the account (through the saver the signed-in layout registers).
   */
  changeLanguage: (language: AppLanguage, options?: { save?: boolean }) => Promise<void>;
  /** Height and weight entry and display: the account's choice, else the browser region's. */
  units: UnitSystem;
  setUnits: (units: UnitSystem) => void;
}

const LanguageContext = createContext<LanguageState | null>(null);

/** Saves a chosen language on the signed-in account; null while signed out. */
export type LanguageSaver = (language: AppLanguage) => void;
let saver: LanguageSaver | null = null;

/** Registers the account's saver; answers the function that removes it (sign-out, unmount). */
export function onLanguageChosen(save: LanguageSaver): () => void {
  saver = save;
  return () => {
    if (saver === save) saver = null;
  };
}

/**
 * Issue 35: the app's language and units. main.tsx activates the first catalog before the first
 * render, so no screen flashes English; a change loads the next catalog first, then re-renders.
 */
export function LanguageProvider({ children }: { children: ReactNode }) {
  const [language, setLanguage] = useState<AppLanguage>(() => (i18n.locale || 'en') as AppLanguage);
  const [units, setUnits] = useState<UnitSystem>(() => unitsForTags(browserLanguages()));
  const changeLanguage = useCallback(async (next: AppLanguage, options: { save?: boolean } = {}) => {
    await activateLanguage(next);
    storeLanguage(next);
    setLanguage(next);
    if (options.save !== false) saver?.(next);
  }, []);
  const value = useMemo(() => ({ language, changeLanguage, units, setUnits }), [language, changeLanguage, units]);
  return (
    <LanguageContext.Provider value={value}>
      <I18nProvider i18n={i18n}>{children}</I18nProvider>
    </LanguageContext.Provider>
  );
}

export function useLanguage(): LanguageState {
  const state = useContext(LanguageContext);
  if (!state) throw new Error('useLanguage is used outside LanguageProvider.');
  return state;
}

/** The units heights and weights are entered and shown in. */
export function useUnits(): UnitSystem {
  return useLanguage().units;
}
