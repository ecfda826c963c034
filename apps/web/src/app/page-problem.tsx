import { Trans } from '@lingui/react/macro';
import { Button } from '../components/ui/button';
import { DocumentTitle } from '../components/ui/page-header';

export interface PageProblemProps {
  /** What failed, in the page's h1: "This page could not be loaded." */
  title: string;
  detail: string;
  onRetry: () => void;
  retrying?: boolean;
  /** After a retry failed too: a full reload, in case the browser keeps the failed download. */
  offerReload?: boolean;
}

/**
 * A page that failed, shown where the page would be: the header, navigation and footer stay, so
 * the person can try again or go elsewhere (DESIGN §8: every page is its own lazy chunk).
 */
export function PageProblem({ title, detail, onRetry, retrying = false, offerReload = false }: PageProblemProps) {
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-12 text-center">
      <DocumentTitle title={title.endsWith('.') ? title.slice(0, -1) : title} />
      <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
      <p role="alert" className="text-slate-700">
        {detail}
      </p>
      <div className="flex flex-wrap justify-center gap-3">
        <Button onClick={onRetry} disabled={retrying}>
          {retrying ? <Trans>Trying again...</Trans> : <Trans>Try again</Trans>}
        </Button>
        {offerReload ? (
          <Button variant="secondary" onClick={() => window.location.reload()}>
            <Trans>Reload page</Trans>
          </Button>
        ) : null}
      </div>
    </div>
  );
}
