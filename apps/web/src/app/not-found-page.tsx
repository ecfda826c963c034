import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import { buttonClassName } from '../components/ui/button';
import { DocumentTitle } from '../components/ui/page-header';

export function NotFoundPage() {
  const { t } = useLingui();
  return (
    <div className="mx-auto max-w-xl py-12 text-center">
      <DocumentTitle title={t`Page not found`} />
      <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">404</p>
      <h1 className="mt-2 text-3xl font-bold text-slate-900">
        <Trans>Page not found</Trans>
      </h1>
      <p className="mt-4 text-slate-700">
        <Trans>The page you asked for does not exist or has moved. Check the address, or carry on from one of these.</Trans>
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to="/" className={buttonClassName('primary')}>
          <Trans>Go Home</Trans>
        </Link>
        <Link to="/dashboard" className={buttonClassName('secondary')}>
          <Trans>Dashboard</Trans>
        </Link>
      </div>
    </div>
  );
}
