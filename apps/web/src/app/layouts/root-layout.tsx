import { useEffect, useRef } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { MAIN_CONTENT_ID } from '../../components/ui/skip-link';
import { ToastHost } from './toast-host';

/**
 * After a client-side navigation, move focus to the new page's main region so keyboard and
 * screen-reader users start reading the new content instead of staying on the old link.
 */
function useFocusMainOnNavigate() {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    document.getElementById(MAIN_CONTENT_ID)?.focus({ preventScroll: true });
  }, [pathname]);
}

export function RootLayout() {
  useFocusMainOnNavigate();
  return (
    <>
      <Outlet />
      <ToastHost />
      <ScrollRestoration />
    </>
  );
}
