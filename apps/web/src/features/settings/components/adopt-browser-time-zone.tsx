import { useEffect, useRef } from 'react';
import { browserTimeZone } from '../../../lib/time-zones';
import { usePreferences, useUpdatePreferences } from '../api/preferences';

/**
 * Issue 32, docs/decisions/0045: an account without a time zone of its own (made before zones, or
 * by single sign-on, which has no browser to ask) takes this browser's, once, after sign-in. The
 * account's zone is then changed only in Settings.
 */
export function AdoptBrowserTimeZone() {
  const preferences = usePreferences();
  const { mutate } = useUpdatePreferences();
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current || !preferences.data || preferences.data.time_zone_set) return;
    const zone = browserTimeZone();
    if (!zone) return;
    asked.current = true;
    mutate({ time_zone: zone });
  }, [preferences.data, mutate]);
  return null;
}
