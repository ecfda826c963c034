import { Trans } from '@lingui/react/macro';
import { Link, useLocation, useSearchParams } from 'react-router';
import { NEXT_PARAM, safeNextPath, withNext } from '../../lib/next-path';
import { isAuthOffline, useAuth } from '../../features/auth/api/check-auth';
import { buttonClassName } from '../../components/ui/button';
import { BrandLink } from './brand-link';
import { useSignedInNav } from './signed-in-nav-loader';

/**
 * The header of every page except the marketing and emergency pages: it shows whether someone
 * is signed in, and the navigation bar only when they are (SPEC §2 Layout).
 */
export function AppHeader() {
  const auth = useAuth();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  // The way back after signing in or up: the page's own `?next=` (on /login and /signup), or the
  // invitation being looked at — so an invitee who uses these links still comes back to accept.
  const back = safeNextPath(params.get(NEXT_PARAM)) ?? (pathname.startsWith('/invite/') ? safeNextPath(pathname) : null);
  const signedIn = auth.data?.authenticated === true;
  const { Nav } = useSignedInNav(signedIn);

  if (auth.data?.authenticated && Nav) return <Nav user={auth.data.user} />;

  return (
    <header className="on-dark bg-brand-900 text-white">
      <div className="mx-auto flex max-w-7xl items-center justify-between gap-4 px-4 py-3 sm:px-6 lg:px-8">
        {/* Signed in, while the signed-in bar downloads: its brand link, nothing else yet. */}
        <BrandLink to={signedIn ? '/dashboard' : '/'} />
        {/* Offline nobody is known to be signed out: no Login / Sign Up then (issue 30). */}
        {auth.isPending || signedIn || isAuthOffline(auth.data) ? null : (
          <div className="flex items-center gap-2">
            {pathname !== '/login' ? (
              <Link to={withNext('/login', back)} className="rounded-lg px-3 py-2 text-sm font-semibold text-white hover:bg-brand-800">
                <Trans>Login</Trans>
              </Link>
            ) : null}
            {pathname !== '/signup' ? (
              <Link to={withNext('/signup', back)} className={buttonClassName('inverse', 'sm')}>
                <Trans>Sign Up</Trans>
              </Link>
            ) : null}
          </div>
        )}
      </div>
    </header>
  );
}
