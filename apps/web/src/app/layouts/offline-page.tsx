import { Trans } from '@lingui/react/macro';
import { SavedCardsLink } from '../../features/auth/components/saved-cards-link';

/**
 * A signed-in page opened with no connection (issue 30, item 22): the session cannot be checked,
 * so rather than the login page the person is told why and the page opens once the connection
 * is back (ConnectionBanner asks again). The emergency cards kept on this device stay one tap away.
 */
export function OfflinePage() {
  return (
    <div className="mx-auto flex max-w-xl flex-col gap-3 py-10 text-slate-800">
      <h1 className="text-2xl font-bold text-slate-900">
        <Trans>You are offline</Trans>
      </h1>
      <p>
        <Trans>Kinchart needs a connection to open this page. It opens by itself as soon as you are back online.</Trans>
      </p>
      <SavedCardsLink />
    </div>
  );
}
