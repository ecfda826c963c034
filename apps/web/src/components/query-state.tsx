import { Trans } from '@lingui/react/macro';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Button } from './ui/button';

export interface QueryStateProps<T> {
  /** The list or record being read. */
  query: UseQueryResult<T>;
  /** What shows while it loads, e.g. 'Loading records...'. */
  loading: string;
  /** What a failure says; a function gets the error (for the server's own message). */
  error: string | ((error: Error) => string);
  /** The retry button's label (SPEC texts: 'Try again' nearly everywhere). */
  retryLabel?: string;
  /** Whether the answer counts as empty; then `empty` shows instead of the children. */
  isEmpty?: (data: T) => boolean;
  /** The empty state: a text shows in the standard empty box, anything else as it is. */
  empty?: ReactNode;
  /** Something else the children need is still on its way: keep saying loading (unless the query failed). */
  waitFor?: boolean;
  /** A failed refetch keeps showing the data it had, for screens that report the failure another way. */
  keepData?: boolean;
  /** Small print, for settings sections and dialogs. */
  compact?: boolean;
  /** Spacing for the loading, error and empty blocks (not the children). */
  className?: string;
  /** The answer itself; without children only the loading and error blocks show. */
  children?: (data: T) => ReactNode;
}

function classes(...parts: (string | false | undefined)[]): string {
  return parts.filter(Boolean).join(' ');
}

/**
 * The loading, error-with-retry and empty states of one query, the same on every screen: loading
 * is announced politely (role=status), a failure at once (role=alert) with a button that fetches
 * again, and a failed request is never shown as an empty list (SPEC §4: a failure says so).
 */
export function QueryState<T>({
  query,
  loading,
  error,
  retryLabel,
  isEmpty,
  empty,
  waitFor = false,
  keepData = false,
  compact = false,
  className,
  children,
}: QueryStateProps<T>) {
  const data = query.isError && !keepData ? undefined : query.data;

  if (data === undefined && query.isError) {
    return (
      <div className={classes('flex flex-wrap items-center gap-3 rounded-lg border border-red-200 bg-red-50 px-4 py-3', className)}>
        <p role="alert" className={classes('font-medium text-red-800', compact && 'text-sm')}>
          {typeof error === 'function' ? error(query.error) : error}
        </p>
        <Button variant="secondary" size="sm" disabled={query.isFetching} onClick={() => void query.refetch()}>
          {retryLabel ?? <Trans>Try again</Trans>}
        </Button>
      </div>
    );
  }
  if (data === undefined || waitFor) {
    return (
      <p role="status" className={classes('text-slate-700', compact && 'text-sm', className)}>
        {loading}
      </p>
    );
  }
  if (isEmpty?.(data)) {
    if (typeof empty !== 'string') return <>{empty}</>;
    return (
      <p
        className={classes(
          compact
            ? 'text-sm text-slate-700'
            : 'rounded-xl border border-dashed border-slate-300 bg-white px-4 py-8 text-center text-slate-700',
          className,
        )}
      >
        {empty}
      </p>
    );
  }
  return <>{children?.(data)}</>;
}
