import { useState, type ComponentType } from 'react';
import { loadCatalogParts, type CatalogPart } from '../i18n/catalogs';
import { PageProblem } from './page-problem';

type LoadPage = () => Promise<ComponentType>;

const NOT_LOADED = 'This page could not be loaded.';
const CHECK_CONNECTION = 'Its code did not arrive. Check your connection, then try again; your records are safe.';

/**
 * A route's `lazy` for one page chunk (DESIGN §8). React Router keeps the first answer of `lazy`
 * for good, a failed download included, so a failure is not passed on: the route gets a stand-in
 * that says what failed, inside the layout, and whose Try again downloads the chunk again.
 */
export function lazyPage(load: LoadPage, catalogs: CatalogPart[] = []): () => Promise<{ Component: ComponentType }> {
  let loaded: ComponentType | undefined;
  // The page shows once its catalog parts have arrived too, so it never flashes English (decision 0056).
  const attempt = async (): Promise<ComponentType> => (loaded ??= (await Promise.all([load(), loadCatalogParts(...catalogs)]))[0]);
  function PageAfterFailedLoad() {
    return <RetryLoad attempt={attempt} initial={loaded} />;
  }
  return async () => {
    try {
      return { Component: await attempt() };
    } catch (error) {
      console.error('Page code could not be loaded:', error);
      return { Component: PageAfterFailedLoad };
    }
  };
}

type RetryState = { kind: 'failed'; attempts: number } | { kind: 'loading'; attempts: number } | { kind: 'ready'; Page: ComponentType };

function RetryLoad({ attempt, initial }: { attempt: () => Promise<ComponentType>; initial: ComponentType | undefined }) {
  const [state, setState] = useState<RetryState>(initial ? { kind: 'ready', Page: initial } : { kind: 'failed', attempts: 1 });
  if (state.kind === 'ready') {
    const { Page } = state;
    return <Page />;
  }
  const retry = () => {
    const attempts = state.attempts + 1;
    setState({ kind: 'loading', attempts });
    attempt().then(
      (Page) => setState({ kind: 'ready', Page }),
      (error: unknown) => {
        console.error('Page code could not be loaded:', error);
        setState({ kind: 'failed', attempts });
      },
    );
  };
  return (
    <PageProblem
      title={NOT_LOADED}
      detail={CHECK_CONNECTION}
      onRetry={retry}
      retrying={state.kind === 'loading'}
      offerReload={state.attempts > 1}
    />
  );
}
