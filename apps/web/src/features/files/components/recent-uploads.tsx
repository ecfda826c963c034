import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import type { MedicalFile } from '@kinchart/shared/files';
import { QueryState } from '../../../components/query-state';
import { Button } from '../../../components/ui/button';
import { useAppEvent } from '../../../lib/events';
import { filesQueryKey, useFiles } from '../api/get-files';
import { formatDate, orNotProvided } from '../utils/format';
import { recentUploads, recordName } from '../utils/record-list';
import { ChevronIcon, DocumentIcon } from './icons';

/** SPEC §9: at most 8 recent uploads; cards are 300 px wide and each click scrolls 300 px. */
export const RECENT_UPLOADS_LIMIT = 8;
export const RECENT_CARD_WIDTH = 300;

const arrowButton =
  'inline-flex size-10 items-center justify-center rounded-lg border border-slate-300 bg-white text-slate-800 ' +
  'hover:bg-slate-100 aria-disabled:cursor-not-allowed aria-disabled:opacity-50';

function openDocument(url: string) {
  window.open(url, '_blank', 'noopener,noreferrer');
}

function RecentUploadCard({ file }: { file: MedicalFile }) {
  const titleId = useId();
  const name = recordName(file);
  return (
    <article
      aria-labelledby={titleId}
      style={{ width: RECENT_CARD_WIDTH }}
      className="flex h-full shrink-0 flex-col gap-2 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm"
    >
      <p className="text-sm font-medium text-brand-800">{formatDate(file.record_date ?? file.created_at)}</p>
      <h3 id={titleId} className="line-clamp-2 font-semibold break-words text-slate-900" title={name}>
        {name}
      </h3>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="font-medium text-slate-700">
          <Trans>Provider</Trans>
        </dt>
        <dd className="truncate text-slate-900">{orNotProvided(file.provider_name)}</dd>
        <dt className="font-medium text-slate-700">
          <Trans>Location</Trans>
        </dt>
        <dd className="truncate text-slate-900">{orNotProvided(file.visit_location)}</dd>
        <dt className="font-medium text-slate-700">
          <Trans>Reason</Trans>
        </dt>
        <dd className="truncate text-slate-900">{orNotProvided(file.visit_reason)}</dd>
      </dl>
      <div className="mt-auto pt-2">
        <Button variant="secondary" size="sm" className="w-full" aria-describedby={titleId} onClick={() => openDocument(file.url)}>
          <DocumentIcon className="size-4" />
          <Trans>View Document</Trans>
        </Button>
      </div>
    </article>
  );
}

export interface RecentUploadsProps {
  /** Whose uploads (DESIGN §11: they follow the person selected on the dashboard); everyone's without one. */
  personId?: string | undefined;
}

/**
 * SPEC §2 Dashboard: the newest uploads in a horizontal scroller with left and right buttons, a
 * View All Records link, and 'No records yet' when there are none (only then: a failed request
 * says so and offers Try again). They are the selected person's (DESIGN §11).
 */
export function RecentUploads({ personId }: RecentUploadsProps) {
  const { t } = useLingui();
  const headingId = useId();
  const queryClient = useQueryClient();
  const files = useFiles(personId);
  const scrollerRef = useRef<HTMLUListElement>(null);
  const [edges, setEdges] = useState({ atStart: true, atEnd: true });

  // SPEC §4 Refresh events: an upload anywhere on the page refreshes the dashboard.
  useAppEvent('filesUpdated', () => {
    void queryClient.invalidateQueries({ queryKey: filesQueryKey }, { cancelRefetch: false });
  });

  // SPEC §4: a fetch failure empties the list.
  const recent = useMemo(() => (files.isError ? [] : recentUploads(files.data ?? [], RECENT_UPLOADS_LIMIT)), [files.data, files.isError]);

  const updateEdges = useCallback(() => {
    const el = scrollerRef.current;
    if (!el) return;
    // Right to left, scrollLeft runs from 0 down to negative numbers: the distance from the start is its size.
    const offset = Math.abs(el.scrollLeft);
    setEdges({ atStart: offset <= 1, atEnd: offset + el.clientWidth >= el.scrollWidth - 1 });
  }, []);

  useEffect(() => {
    updateEdges();
    window.addEventListener('resize', updateEdges);
    return () => window.removeEventListener('resize', updateEdges);
  }, [recent, updateEdges]);

  // aria-disabled rather than disabled at the ends, so keyboard focus is not dropped mid-scroll.
  const scroll = (direction: -1 | 1) => {
    if (direction < 0 ? edges.atStart : edges.atEnd) return;
    const el = scrollerRef.current;
    if (!el) return;
    // "Left" and "right" are back and forward; in a right-to-left language forward is toward the left.
    const forward = el.closest('[dir]')?.getAttribute('dir') === 'rtl' ? -1 : 1;
    el.scrollBy({ left: direction * forward * RECENT_CARD_WIDTH, behavior: 'smooth' });
  };

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={headingId} className="text-xl font-semibold text-slate-900">
          <Trans>Recent Uploads</Trans>
        </h2>
        <div className="flex items-center gap-2">
          {recent.length > 0 ? (
            <>
              <button
                type="button"
                className={arrowButton}
                aria-label={t({
                  message: 'Scroll recent uploads left',
                  comment: 'Back toward the first card; in a right-to-left language this button is on the right: say back or previous',
                })}
                aria-disabled={edges.atStart}
                onClick={() => scroll(-1)}
              >
                <ChevronIcon direction="left" />
              </button>
              <button
                type="button"
                className={arrowButton}
                aria-label={t({
                  message: 'Scroll recent uploads right',
                  comment: 'On toward the last card; in a right-to-left language this button is on the left: say forward or next',
                })}
                aria-disabled={edges.atEnd}
                onClick={() => scroll(1)}
              >
                <ChevronIcon direction="right" />
              </button>
            </>
          ) : null}
          <Link to="/view-records" className="rounded-md px-2 py-1 text-sm font-semibold text-brand-700 underline hover:text-brand-900">
            <Trans>View All Records</Trans>
          </Link>
        </div>
      </div>

      {/* Not "No records yet" on a failure: a failed request says nothing about whether there are records. */}
      <QueryState
        query={files}
        loading={t`Loading records...`}
        error={t`Your records could not be loaded.`}
        isEmpty={() => recent.length === 0}
        empty={
          <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-6 text-center text-slate-700">
            <Trans>No records yet</Trans>
          </p>
        }
      >
        {() => (
          <ul
            ref={scrollerRef}
            onScroll={updateEdges}
            aria-labelledby={headingId}
            className="flex gap-4 overflow-x-auto scroll-smooth pb-2"
          >
            {recent.map((file) => (
              <li key={file.id} className="shrink-0">
                <RecentUploadCard file={file} />
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  );
}
