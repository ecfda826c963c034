import type { EmergencyLookup } from '../features/emergency/api/use-emergency-access';
import type { Locale } from '../features/emergency/i18n/locales';

/**
 * What the server hands the emergency entry point's script with the first HTML: its PIN-less
 * lookup and the language it rendered in (the script loads that catalog), so the page hydrates into the same state without
 * asking the API again (which would notify the owner twice).
 */
export interface EmergencyPageState {
  locale: Locale;
  lookup: EmergencyLookup;
}

/** The `<script type="application/json">` element that carries the state. */
export const PAGE_STATE_ID = 'kinchart-emergency-state';

/** The share id is the path's last segment: /emergency/{id} or /family/emergency/{id}. */
export function shareIdOfPath(pathname: string): string {
  const last = pathname.split('/').filter(Boolean).pop() ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}
