import { Link, useLocation } from 'react-router';
import { useAuth } from '../../features/auth/api/check-auth';
import { buttonClassName } from '../../components/ui/button';
import { BrandLink } from './brand-link';
import { SignedInNav } from './signed-in-nav';

/**
 * The header of every page except the marketing and emergency pages: it shows whether someone
 * is signed in, and the navigation bar only when they are (SPEC §2 Layout).
 */
export function AppHeader() {
  const auth = useAuth();
  const { pathname } = useLocation();

  if (auth.data?.authenticated) return <SignedInNav user={auth.data.user} />;

  return (
    <header className="on-dark bg-brand-900 text-white">
      <div className="mx-auto flex max-w-7xl items-center justify-between gap-4 px-4 py-3 sm:px-6 lg:px-8">
        <BrandLink to="/" />
        {auth.isPending ? null : (
          <div className="flex items-center gap-2">
            {pathname !== '/login' ? (
              <Link to="/login" className="rounded-lg px-3 py-2 text-sm font-semibold text-white hover:bg-brand-800">
                Login
              </Link>
            ) : null}
            {pathname !== '/signup' ? (
              <Link to="/signup" className={buttonClassName('inverse', 'sm')}>
                Sign Up
              </Link>
            ) : null}
          </div>
        )}
      </div>
    </header>
  );
}
