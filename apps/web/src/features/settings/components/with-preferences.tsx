import type { ReactNode } from 'react';
import { Trans } from '@lingui/react/macro';
import type { Preferences } from '@kinchart/shared/care';
import { usePreferences } from '../api/preferences';

/**
 * The account's preferences for a Settings section's form (GET /api/user/preferences): a line
 * while they load, an alert if they cannot, else the form `children` makes of them.
 */
export function WithPreferences({ children }: { children: (preferences: Preferences) => ReactNode }) {
  const preferences = usePreferences();
  if (preferences.isPending)
    return (
      <p className="text-sm text-slate-700">
        <Trans>Loading preferences...</Trans>
      </p>
    );
  if (preferences.isError) {
    return (
      <p role="alert" className="text-sm font-medium text-red-700">
        <Trans>Your preferences could not be loaded. Please try again later.</Trans>
      </p>
    );
  }
  return children(preferences.data);
}
