import { useEffect, useRef } from 'react';
import { isLanguage } from '@kinchart/shared/i18n';
import type { PreferencesInput } from '@kinchart/shared/care';
import { documentLanguagesFor } from '@kinchart/shared/search';
import { browserTimeZone } from '../../../lib/time-zones';
import { onLanguageChosen, useLanguage } from '../../../i18n/language-provider';
import { usePreferences, useUpdatePreferences } from '../api/preferences';

/**
 * What an account that never chose takes from this browser, once, after sign-in, in one request:
 * - issue 32, docs/decisions/0045: an account without a time zone of its own (made before zones, or
 *   by single sign-on, which has no browser to ask) takes this browser's;
 * - issue 33: an account that never chose its document languages takes those of the browser's
 *   languages Kinchart can read (English kept).
 * - issue 35: an account that never chose a language takes the one this browser shows; one that
 *   did shows its own here at once (the sister in Warsaw signs in on a borrowed laptop: Polish).
 * These are then changed only in Settings (and the language from any page's chooser).
 */
export function AdoptBrowserPreferences() {
  const preferences = usePreferences();
  const { mutate } = useUpdatePreferences();
  const { language, changeLanguage, setUnits } = useLanguage();
  const asked = useRef(false);

  // A language chosen from the footer or Settings while signed in is stored on the account.
  useEffect(() => onLanguageChosen((chosen) => isLanguage(chosen) && mutate({ language: chosen })), [mutate]);

  // The account's units follow it everywhere it signs in.
  const units = preferences.data?.units;
  useEffect(() => {
    if (units) setUnits(units);
  }, [units, setUnits]);

  useEffect(() => {
    if (asked.current || !preferences.data) return;
    asked.current = true;
    const input: PreferencesInput = {};
    if (preferences.data.language_set) {
      if (preferences.data.language !== language && language !== 'pseudo') void changeLanguage(preferences.data.language, { save: false });
    } else if (isLanguage(language)) input.language = language;
    if (!preferences.data.time_zone_set) {
      const zone = browserTimeZone();
      if (zone) input.time_zone = zone;
    }
    if (!preferences.data.document_languages_set) input.document_languages = documentLanguagesFor(navigator.languages ?? []);
    if (Object.keys(input).length === 0) return;
    mutate(input);
  }, [preferences.data, mutate, language, changeLanguage]);
  return null;
}
