import { Outlet } from 'react-router';
import { MarketingHeader } from './marketing-header';
import { SiteFooter } from './site-footer';
import { MAIN_CONTENT_ID, SkipLink } from '../../components/ui/skip-link';

/** /, /about, /howitworks and /faq: marketing bar, full-width content, footer. */
export function MarketingLayout() {
  return (
    <div className="flex min-h-screen flex-col bg-white">
      <SkipLink />
      <MarketingHeader />
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="flex-1 focus:outline-none">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
