import { useLingui } from '@lingui/react/macro';
import { useLocation, useNavigate, useRouteError } from 'react-router';
import { PageProblem } from './page-problem';

/** A chunk that a page imports itself (not through its route) failed to download. */
function isLoadFailure(error: unknown): boolean {
  return error instanceof TypeError && /dynamically imported module|module script|preload/i.test(error.message);
}

/**
 * The error boundary of the pages below each layout: a page that breaks is replaced by this,
 * and the header, navigation and footer stay (SPEC §2 Layout). Try again renders the page anew:
 * navigating to the same address resets React Router's error state.
 */
export function PageError() {
  const { t } = useLingui();
  const error = useRouteError();
  const location = useLocation();
  const navigate = useNavigate();
  const loadFailure = isLoadFailure(error);
  const retryTarget = { pathname: location.pathname, search: location.search, hash: location.hash };
  return (
    <PageProblem
      title={loadFailure ? t`This page could not be loaded.` : t`This page could not be shown.`}
      detail={
        loadFailure
          ? t`Part of it did not arrive. Check your connection, then try again; your records are safe.`
          : t`Something went wrong while showing it. Try again; your records are safe.`
      }
      offerReload
      onRetry={() => void navigate(retryTarget, { replace: true, state: location.state as unknown })}
    />
  );
}
