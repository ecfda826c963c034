import { useEffect, useRef } from 'react';
import type { PreferencesInput } from '@kinchart/shared/care';
import { documentLanguagesFor } from '@kinchart/shared/search';
import { browserTimeZone } from '../../../lib/time-zones';
import { usePreferences, useUpdatePreferences } from '../api/preferences';

/**
 * What an account that never chose takes from this browser, once, after sign-in, in one request:
 * - issue 32, docs/decisions/0045: an account without a time zone of its own (made before zones, or
 *   by single sign-on, which has no browser to ask) takes this browser's;
 * - issue 33: an account that never chose its document languages takes those of the browser's
 *   languages Kinchart can read (English kept).
 * Both are then changed only in Settings.
 */
export function AdoptBrowserPreferences() {
  const preferences = usePreferences();
  const { mutate } = useUpdatePreferences();
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current || !preferences.data) return;
    const input: PreferencesInput = {};
    if (!preferences.data.time_zone_set) {
      const zone = browserTimeZone();
      if (zone) input.time_zone = zone;
    }
    if (!preferences.data.document_languages_set) input.document_languages = documentLanguagesFor(navigator.languages ?? []);
    if (Object.keys(input).length === 0) return;
    asked.current = true;
    mutate(input);
  }, [preferences.data, mutate]);
  return null;
}
