import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState } from 'react';
import { NavLink, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { AuthUser } from '@kinchart/shared/auth';
import { LOGGED_OUT, clearSession, setLoggingOut } from '../../features/auth/api/check-auth';
import { useLogout } from '../../features/auth/api/logout';
import { ExportButton } from '../../features/export/components/export-button';
import { QuickUploadButton } from '../../features/files/components/quick-upload-button';
import { ImportMenuButton } from '../../features/import/components/import-menu-button';
import { NotificationsIndicator } from '../../features/notifications/components/notifications-indicator';
import { SearchBox } from '../../features/search/components/search-box';
import { notify, preloadToasts } from '../../lib/toast';
import { BrandLink } from './brand-link';

interface NavItem {
  to: string;
  label: MessageDescriptor;
  /** SPEC §2: /update-records reads "Update Records" in the mobile menu. */
  mobileLabel?: MessageDescriptor;
}

const navItems: NavItem[] = [
  { to: '/dashboard', label: msg`Dashboard` },
  { to: '/appointments', label: msg`Appointments` },
  { to: '/update-records', label: msg`Upload Records`, mobileLabel: msg`Update Records` },
  { to: '/view-records', label: msg`View Records` },
  { to: '/prescriptions', label: msg`Prescriptions` },
  // DESIGN §12, beyond SPEC §2's seven links: the clinical records of the people the user can see.
  { to: '/health-records', label: msg`Health Records` },
  { to: '/settings', label: msg`Settings` },
  { to: '/notifications', label: msg`Notifications` },
];

const barButton = 'inline-flex min-h-9 items-center justify-center rounded-lg px-3 py-1.5 text-sm font-semibold transition-colors';

/** SPEC §2 Layout: the logged-in top bar and its mobile menu. */
export function SignedInNav({ user }: { user: AuthUser }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const logout = useLogout();
  const { t } = useLingui();
  const username = user.username;
  const greeting = username ? t`Hello, ${username}!` : t`Welcome!`;

  // Signed-in screens toast often; fetch the toast library now rather than on the first one.
  useEffect(preloadToasts, []);

  // Escape closes the open menu and puts focus back on its button.
  useEffect(() => {
    if (!menuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [menuOpen]);

  const onLogout = async () => {
    setLoggingOut(true);
    try {
      await logout.mutateAsync();
    } catch {
      setLoggingOut(false);
      notify.error(t`Logout failed`);
      return;
    }
    setMenuOpen(false);
    // DESIGN §7: logging out removes the emergency cards kept on this device (loaded on demand).
    await import('../../features/offline-cards/lib/forget-offline-cards')
      .then(({ forgetOfflineCards }) => forgetOfflineCards())
      .catch(() => undefined);
    notify.success(t`Logged out successfully`);
    // SPEC §2: logout goes to /signup. The session is recorded as logged out (not expired), so
    // whichever runs first — this navigation, the private layout's redirect, or a 401 from a query
    // still in flight — the user lands on /signup, never /login. The sign-up page ends the
    // logging-out state once it is shown.
    clearSession(queryClient, LOGGED_OUT);
    void navigate('/signup', { replace: true });
  };

  return (
    <header className="on-dark relative bg-brand-900 text-white">
      <div className="mx-auto flex max-w-7xl items-center justify-between gap-2 px-4 py-3 sm:gap-4 sm:px-6 lg:px-8">
        <BrandLink to="/dashboard" />
        {/* Issue 33: one search over everything the user may see; `/` focuses it. */}
        <div className="ms-auto flex items-center lg:flex-1 lg:justify-end">
          <SearchBox />
        </div>
        {/* SPEC §2 Layout: the header shows notifications — the unread count, on every screen size. */}
        <NotificationsIndicator />
        <div className="hidden items-center gap-3 lg:flex">
          <p className="text-sm font-medium text-brand-100">{greeting}</p>
          {/* SPEC §2 Layout, §7: the navigation bar's own file-picker upload, with a toast on the result. */}
          <QuickUploadButton label={t`Upload`} className={`${barButton} bg-white text-brand-900 hover:bg-brand-50`} />
          {/* Decision 0004: everything in the account as one zip, with progress while it downloads. */}
          <ExportButton className={`${barButton} border border-brand-300 text-white hover:bg-brand-800`} />
          <button
            type="button"
            onClick={onLogout}
            disabled={logout.isPending}
            className={`${barButton} border border-white/70 text-white hover:bg-brand-800 disabled:opacity-70`}
          >
            <Trans>Logout</Trans>
          </button>
        </div>
        <button
          ref={toggleRef}
          type="button"
          aria-expanded={menuOpen}
          aria-controls={menuId}
          onClick={() => setMenuOpen((open) => !open)}
          className="inline-flex size-11 items-center justify-center rounded-lg text-white hover:bg-brand-800 lg:hidden"
        >
          <span className="sr-only">
            <Trans>Menu</Trans>
          </span>
          <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="2">
            {menuOpen ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
          </svg>
        </button>
      </div>

      <nav aria-label={t`Main`} className="hidden border-t border-brand-800 lg:block">
        <ul className="mx-auto flex max-w-7xl gap-1 px-4 py-2 sm:px-6 lg:px-8">
          {navItems.map((item) => (
            <li key={item.to}>
              <NavLink
                to={item.to}
                className={({ isActive }) =>
                  `block whitespace-nowrap rounded-lg px-3 py-2 text-sm font-medium ${
                    isActive ? 'bg-brand-700 text-white' : 'text-brand-100 hover:bg-brand-800 hover:text-white'
                  }`
                }
              >
                {t(item.label)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>

      <div id={menuId} hidden={!menuOpen} className="border-t border-brand-800 px-4 pb-4 sm:px-6 lg:hidden">
        <p className="py-3 text-sm font-medium text-brand-100">{greeting}</p>
        <nav aria-label={t`Main menu`}>
          <ul className="flex flex-col gap-1">
            {navItems.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  onClick={() => setMenuOpen(false)}
                  className={({ isActive }) =>
                    `block rounded-lg px-3 py-2.5 text-base font-medium ${
                      isActive ? 'bg-brand-700 text-white' : 'text-brand-100 hover:bg-brand-800 hover:text-white'
                    }`
                  }
                >
                  {t(item.mobileLabel ?? item.label)}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="mt-3 flex flex-wrap gap-2 border-t border-brand-800 pt-3">
          <QuickUploadButton
            label={t`Upload`}
            onChosen={() => setMenuOpen(false)}
            className={`${barButton} bg-white text-brand-900 hover:bg-brand-50`}
          />
          {/* SPEC §2: the mobile menu adds Import, which opens the file picker; decision 0004: the chosen
              export zip or FHIR Bundle opens the import dialog. */}
          <ImportMenuButton
            onChosen={() => setMenuOpen(false)}
            className={`${barButton} border border-white/70 text-white hover:bg-brand-800`}
          />
          <ExportButton className={`${barButton} border border-white/70 text-white hover:bg-brand-800`} />
          <button
            type="button"
            onClick={onLogout}
            disabled={logout.isPending}
            className={`${barButton} border border-white/70 text-white hover:bg-brand-800 disabled:opacity-70`}
          >
            <Trans>Logout</Trans>
          </button>
        </div>
      </div>
    </header>
  );
}
