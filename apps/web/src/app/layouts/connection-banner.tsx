import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { authQueryKey, isAuthOffline, refreshAuth, type AuthState } from '../../features/auth/api/check-auth';
import { useOnline } from '../../lib/connection';

/** Said while the server is out of reach (issue 30, item 22). */
export const OFFLINE_BANNER = 'You are offline. Kinchart will carry on once the connection is back.';

/**
 * A polite live region under the header: it is always on the page, so the message is announced
 * when it appears. When the connection comes back, a session check that found no connection is
 * asked again, and the page waiting for it opens. The kept emergency cards say it their own way.
 */
export function ConnectionBanner() {
  const online = useOnline();
  const { pathname } = useLocation();
  const queryClient = useQueryClient();

  useEffect(() => {
    if (!online) return;
    if (isAuthOffline(queryClient.getQueryData<AuthState>(authQueryKey))) void refreshAuth(queryClient);
  }, [online, queryClient]);

  const show = !online && pathname !== '/emergency-cards';
  return (
    <div role="status" aria-live="polite" className="empty:hidden">
      {show ? (
        <p className="border-b-2 border-amber-700 bg-amber-50 px-4 py-2 text-center text-sm font-semibold text-amber-950">
          {OFFLINE_BANNER}
        </p>
      ) : null}
    </div>
  );
}
