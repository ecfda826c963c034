import { LANGUAGES, LANGUAGE_NAMES } from '@kinchart/shared/i18n';
import { useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import { isAppLanguage, PSEUDO, type AppLanguage } from './languages';
import { useLanguage } from './language-provider';

/** The development-only pseudo-locale, named as its own texts look. */
const PSEUDO_NAME = 'Pseudo (ƥśéûđő)';
const choices: readonly AppLanguage[] = import.meta.env.DEV ? [...LANGUAGES, PSEUDO] : LANGUAGES;

/**
 * Issue 35: the language chooser, on every page (the footer) and in Settings. A native select:
 * the most robust control on any phone. Each language is named in itself, with its own `lang`, so
 * a reader finds theirs and a screen reader pronounces it.
 */
export function LanguageSelect({ showLabel = false, className = '' }: { showLabel?: boolean; className?: string }) {
  const { t } = useLingui();
  const { language, changeLanguage } = useLanguage();
  const id = useId();
  return (
    <div className={`flex items-center gap-2 ${className}`}>
      <label htmlFor={id} className={showLabel ? 'font-medium text-slate-800' : 'sr-only'}>
        {t`Language`}
      </label>
      {showLabel ? null : (
        <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5 shrink-0" fill="none" stroke="currentColor" strokeWidth="2">
          <circle cx="12" cy="12" r="9" />
          <path d="M3 12h18M12 3c2.5 2.7 3.8 5.7 3.8 9s-1.3 6.3-3.8 9c-2.5-2.7-3.8-5.7-3.8-9S9.5 5.7 12 3z" />
        </svg>
      )}
      <select
        id={id}
        value={language}
        onChange={(event) => {
          if (isAppLanguage(event.target.value)) void changeLanguage(event.target.value);
        }}
        className="min-h-11 rounded-lg border border-slate-400 bg-white px-2 py-1 text-base text-slate-900"
      >
        {choices.map((choice) => (
          <option key={choice} value={choice} lang={choice === PSEUDO ? 'en' : choice}>
            {choice === PSEUDO ? PSEUDO_NAME : LANGUAGE_NAMES[choice]}
          </option>
        ))}
      </select>
    </div>
  );
}
