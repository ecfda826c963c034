import { Link } from 'react-router';
import { buttonClassName } from '../components/ui/button';
import { DocumentTitle } from '../components/ui/page-header';

export function NotFoundPage() {
  return (
    <div className="mx-auto max-w-xl py-12 text-center">
      <DocumentTitle title="Page not found" />
      <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">404</p>
      <h1 className="mt-2 text-3xl font-bold text-slate-900">Page not found</h1>
      <p className="mt-4 text-slate-700">
        The page you asked for does not exist or has moved. Check the address, or carry on from one of these.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to="/" className={buttonClassName('primary')}>
          Go Home
        </Link>
        <Link to="/dashboard" className={buttonClassName('secondary')}>
          Dashboard
        </Link>
      </div>
    </div>
  );
}
