import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link, NavLink } from 'react-router';
import { useAuth } from '../../features/auth/api/check-auth';
import { buttonClassName } from '../../components/ui/button';
import { BrandLink } from './brand-link';

const marketingLinks = [
  { to: '/about', label: msg`About` },
  { to: '/howitworks', label: msg`How It Works` },
  { to: '/faq', label: msg`FAQ` },
];

/**
 * The marketing pages (/, /about, /howitworks, /faq) carry this bar instead of the app header
 * (SPEC §2 Layout).
 */
export function MarketingHeader() {
  const auth = useAuth();
  const { t } = useLingui();
  const signedIn = auth.data?.authenticated === true;
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-x-6 gap-y-3 px-4 py-3 sm:px-6 lg:px-8">
        <BrandLink to="/" tone="light" />
        <nav aria-label={t`Main`} className="order-3 w-full sm:order-none sm:w-auto">
          <ul className="flex gap-1 overflow-x-auto">
            {marketingLinks.map((link) => (
              <li key={link.to}>
                <NavLink
                  to={link.to}
                  className={({ isActive }) =>
                    `block whitespace-nowrap rounded-lg px-3 py-2 text-sm font-medium ${
                      isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900'
                    }`
                  }
                >
                  {t(link.label)}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="flex items-center gap-2">
          {signedIn ? (
            <Link to="/dashboard" className={buttonClassName('primary', 'sm')}>
              <Trans>Dashboard</Trans>
            </Link>
          ) : (
            <>
              <Link to="/login" className={buttonClassName('ghost', 'sm')}>
                <Trans>Login</Trans>
              </Link>
              <Link to="/signup" className={buttonClassName('primary', 'sm')}>
                <Trans>Sign Up</Trans>
              </Link>
            </>
          )}
        </div>
      </div>
    </header>
  );
}
