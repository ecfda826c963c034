import { Navigate, Outlet, useLocation } from 'react-router';
import { isAuthOffline, useAuth } from '../../features/auth/api/check-auth';
import { ReauthPrompt } from '../../features/auth/components/reauth-prompt';
import { NotificationStream } from '../../features/notifications/api/notification-stream';
import { OfflineCardsSync } from '../../features/offline-cards/components/offline-cards-sync';
import { AdoptBrowserPreferences } from '../../features/settings/components/adopt-browser-preferences';
import { OfflinePage } from './offline-page';
import { PageLoading } from './page-loading';
import { useSignedInNav } from './signed-in-nav-loader';

/** Signed-in routes: 'Loading...' while the check runs, /login for anyone not signed in (SPEC §2, §4). */
export function PrivateLayout() {
  const auth = useAuth();
  const location = useLocation();
  const signedIn = auth.data?.authenticated === true;
  const nav = useSignedInNav(signedIn);
  // A signed-in page shows with its navigation bar, not before it (a failed download shows the page).
  if (auth.isPending || (signedIn && !nav.Nav && !nav.failed)) return <PageLoading />;
  // No connection to ask: the session may be alive, so wait for it instead of sending to /login.
  if (isAuthOffline(auth.data)) return <OfflinePage />;
  if (!auth.data?.authenticated) {
    const to = auth.data?.redirectTo ?? '/login';
    return <Navigate to={to} replace state={to === '/login' ? { from: location.pathname } : undefined} />;
  }
  // DESIGN §7: new notifications arrive while signed in; signing out unmounts this and closes it.
  // The emergency cards kept on this device (if any) follow every change. Actions that need a
  // recent password ask for it here (docs/decisions/0024).
  return (
    <>
      <ReauthPrompt />
      <NotificationStream />
      <OfflineCardsSync userId={auth.data.user.id} />
      {/* Issues 32 and 33: an account without a time zone or document languages takes this browser's, once. */}
      <AdoptBrowserPreferences />
      <Outlet />
    </>
  );
}
