import { Trans, useLingui } from '@lingui/react/macro';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { DocumentTitle } from '../components/ui/page-header';

/** Shown when a route fails to render or its code cannot be loaded (for example after a deploy). */
export function RouteError() {
  const { t } = useLingui();
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <main id="main-content" tabIndex={-1} className="mx-auto max-w-xl px-4 py-16 text-center">
      <DocumentTitle title={notFound ? t`Page not found` : t`Something went wrong`} />
      <h1 className="text-3xl font-bold text-slate-900">{notFound ? t`Page not found` : t`Something went wrong`}</h1>
      <p className="mt-4 text-slate-700">
        {notFound ? t`We could not find that page.` : t`This page could not be shown. Reloading usually fixes it; your records are safe.`}
      </p>
      <div className="mt-8 flex justify-center gap-3">
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
        >
          <Trans>Reload page</Trans>
        </button>
        <a href="/" className="rounded-lg border border-slate-300 bg-white px-4 py-2 font-semibold text-slate-800 hover:bg-slate-100">
          <Trans>Go Home</Trans>
        </a>
      </div>
    </main>
  );
}
