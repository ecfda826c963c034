import { Outlet } from 'react-router';
import { AppHeader } from './app-header';
import { ConnectionBanner } from './connection-banner';
import { SiteFooter } from './site-footer';
import { MAIN_CONTENT_ID, SkipLink } from '../../components/ui/skip-link';

/** Sign-in screens, legal pages and every signed-in page: app header, content, footer. */
export function AppLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <SkipLink />
      <AppHeader />
      <ConnectionBanner />
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="mx-auto w-full max-w-7xl flex-1 px-4 py-8 focus:outline-none sm:px-6 lg:px-8">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
