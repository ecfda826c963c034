import { useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { SEARCH_QUERY_MAX, type SearchResult } from '@kinchart/shared/search';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { DocumentTitle } from '../../../components/ui/page-header';
import { PersonSelect } from '../../../components/ui/person-select';
import { errorMessage } from '../../../lib/api-client';
import { formatDate, formatDateTime } from '../../../lib/format';
import { usePeople } from '../../../lib/queries/people';
import { setSelectedPersonId } from '../../../lib/selected-person';
import { useSearch } from '../api/search';
import { HighlightedSnippet } from '../components/highlighted-snippet';
import { KIND_LABELS, groupResults, opensDocument, selectedPersonFor } from '../lib/search-results';

/**
 * /search?q=…&person=… (issue 33): one search over the files and every list of every person the
 * user may see, grouped by person and then by kind, each result opening its record.
 */
export function SearchPage() {
  const { t } = useLingui();
  const [params, setParams] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  const person = params.get('person') || undefined;
  const people = usePeople();
  const tooLong = q.length > SEARCH_QUERY_MAX;
  const search = useSearch({ q: tooLong ? '' : q, person });
  const headingId = useId();

  const onSubmit = (form: HTMLFormElement) => {
    const field = new FormData(form).get('q');
    const next = typeof field === 'string' ? field.trim() : '';
    setParams({ ...(next ? { q: next } : {}), ...(person ? { person } : {}) });
  };

  const results = search.data?.pages.flatMap((page) => page.results) ?? [];
  const count = results.length;
  const groups = groupResults(results, people.data);

  let body;
  // The shared rule's texts (SEARCH_EMPTY_MESSAGE, SEARCH_TOO_LONG_MESSAGE), in the reader's language.
  const max = SEARCH_QUERY_MAX;
  if (q === '')
    body = (
      <p className="text-slate-700">
        <Trans>Enter something to search for.</Trans>
      </p>
    );
  else if (tooLong)
    body = (
      <p role="alert" className="font-medium text-red-800">
        <Trans>A search may be at most {max} characters.</Trans>
      </p>
    );
  else if (search.isPending)
    body = (
      <p role="status" className="text-slate-700">
        <Trans>Searching...</Trans>
      </p>
    );
  else if (search.isError && results.length === 0)
    body = (
      <div className="flex flex-wrap items-center gap-3 rounded-lg border border-red-200 bg-red-50 px-4 py-3">
        <p role="alert" className="font-medium text-red-800">
          {errorMessage(search.error, t`Search failed. Please try again.`, t`Could not search. Check your connection and try again.`)}
        </p>
        <Button variant="secondary" size="sm" disabled={search.isFetching} onClick={() => void search.refetch()}>
          <Trans>Try again</Trans>
        </Button>
      </div>
    );
  else if (results.length === 0)
    body = (
      <p className="rounded-xl border border-dashed border-slate-300 bg-white px-4 py-8 text-center text-slate-700">
        <Trans>No results for “{q}”.</Trans>
      </p>
    );
  else
    body = (
      <div className="flex flex-col gap-8">
        {groups.map((group) => (
          <section key={group.personId} aria-labelledby={`${headingId}-${group.personId}`} className="flex flex-col gap-4">
            <h2 id={`${headingId}-${group.personId}`} className="text-xl font-semibold text-slate-900">
              {group.name}
            </h2>
            {group.kinds.map((kind) => (
              <section key={kind.kind} aria-labelledby={`${headingId}-${group.personId}-${kind.kind}`} className="flex flex-col gap-2">
                <h3 id={`${headingId}-${group.personId}-${kind.kind}`} className="text-base font-semibold text-slate-800">
                  {t(KIND_LABELS[kind.kind])}
                </h3>
                <ul className="flex flex-col gap-2">
                  {kind.results.map((result) => (
                    <li key={`${result.kind}-${result.id}`}>
                      <ResultItem result={result} onOpen={() => setSelectedPersonId(selectedPersonFor(result, people.data))} />
                    </li>
                  ))}
                </ul>
              </section>
            ))}
          </section>
        ))}
        {search.isFetchNextPageError ? (
          <p role="alert" className="font-medium text-red-800">
            {errorMessage(search.error, t`More results could not be loaded.`, t`More results could not be loaded. Check your connection.`)}
          </p>
        ) : null}
        {search.hasNextPage ? (
          <div>
            <Button variant="secondary" disabled={search.isFetchingNextPage} onClick={() => void search.fetchNextPage()}>
              {search.isFetchingNextPage ? t`Loading more...` : t`Load more`}
            </Button>
          </div>
        ) : null}
      </div>
    );

  return (
    <>
      <DocumentTitle title={q ? t`Search: ${q}` : t`Search`} />
      <h1 className="mb-6 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
        <Trans>Search</Trans>
      </h1>
      <form
        role="search"
        aria-label={t`Search records`}
        // A new query from the bar starts the form afresh with it.
        key={q}
        className="mb-8 flex flex-col gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:flex-row sm:items-end"
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit(event.currentTarget);
        }}
      >
        <Field
          label={t`Search for`}
          name="q"
          type="search"
          defaultValue={q}
          maxLength={SEARCH_QUERY_MAX}
          containerClassName="min-w-0 flex-1"
        />
        {people.data && people.data.length > 1 ? (
          // Like other screens' person filters, a choice applies at once.
          <PersonSelect
            label={t`Person`}
            people={people.data}
            value={person ?? ''}
            onChange={(who) => setParams({ ...(q ? { q } : {}), ...(who ? { person: who } : {}) })}
            everyoneLabel={t`Everyone`}
            containerClassName="sm:w-64"
          />
        ) : null}
        <Button type="submit">
          <Trans>Search</Trans>
        </Button>
      </form>
      <div aria-live="polite" aria-busy={search.isFetching}>
        {results.length > 0 ? (
          <p className="sr-only">
            <Plural value={count} one={`# result for “${q}”.`} other={`# results for “${q}”.`} />
          </p>
        ) : null}
      </div>
      {body}
    </>
  );
}

function resultDate(value: string | null): string {
  if (!value) return '';
  return value.length > 10 ? formatDateTime(value) : formatDate(value);
}

function ResultItem({ result, onOpen }: { result: SearchResult; onOpen: () => void }) {
  const date = resultDate(result.date);
  const page = result.page;
  const linkClass = 'font-semibold text-brand-800 underline-offset-2 hover:underline';
  return (
    <article className="flex flex-col gap-1 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <h4 className="break-words">
        {opensDocument(result) ? (
          <a href={result.url} target="_blank" rel="noopener noreferrer" className={linkClass}>
            {result.title}{' '}
            <span className="sr-only">
              <Trans>(opens in a new tab)</Trans>
            </span>
          </a>
        ) : (
          <Link to={result.url} onClick={onOpen} className={linkClass}>
            {result.title}
          </Link>
        )}
      </h4>
      {date || result.page !== undefined ? (
        <p className="flex flex-wrap gap-x-3 text-sm text-slate-600">
          {date ? <span>{date}</span> : null}
          {page !== undefined ? (
            <span>
              <Trans>Page {page}</Trans>
            </span>
          ) : null}
        </p>
      ) : null}
      {result.snippet ? <HighlightedSnippet snippet={result.snippet} highlights={result.highlights} /> : null}
    </article>
  );
}
