import { useEffect, useId, useRef } from 'react';
import { useLingui } from '@lingui/react/macro';

/** Room kept above or below the highlighted line when the panel scrolls to it (px). */
const MARGIN = 24;

/**
 * One page of the report's text (issue 34), its lines as they were read (spaces kept, in a
 * typewriter face so columns line up), the line of the row in focus highlighted and scrolled into
 * view within the panel.
 */
export function PageText({ page, text, line, loading }: { page: number; text: string | null; line: number | null; loading: boolean }) {
  const { t } = useLingui();
  const TEXT = {
    heading: t`Page ${page} of the report`,
    highlighted: t`Highlighted: the line this result was read from.`,
    noText: t`The text of this page is not available.`,
    loading: t`Loading the page…`,
  };
  const headingId = useId();
  const marked = useRef<HTMLElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const lines = text === null ? [] : text.split('\n');

  useEffect(() => {
    // Only the panel scrolls: on a phone the page is under the rows, and moving focus from row to
    // row must not carry the reader away from them ("Show on page N" brings the page itself).
    const region = box.current;
    const mark = marked.current;
    if (!region || !mark) return;
    const outer = region.getBoundingClientRect();
    const inner = mark.getBoundingClientRect();
    if (inner.top < outer.top) region.scrollTop -= outer.top - inner.top + MARGIN;
    else if (inner.bottom > outer.bottom) region.scrollTop += inner.bottom - outer.bottom + MARGIN;
  }, [page, line, text]);

  return (
    <section aria-labelledby={headingId} className="flex min-h-0 flex-col gap-2 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        {TEXT.heading}
      </h2>
      {text === null ? (
        <p className="text-sm text-slate-700">{loading ? TEXT.loading : TEXT.noText}</p>
      ) : (
        <>
          {line !== null ? <p className="text-sm text-slate-700">{TEXT.highlighted}</p> : null}
          {/* Scrolls by itself (a long page), reachable and scrollable by keyboard (axe: scrollable-region-focusable). */}
          <div
            ref={box}
            tabIndex={0}
            role="region"
            aria-label={TEXT.heading}
            className="max-h-[28rem] overflow-auto rounded-lg bg-slate-50 p-3 lg:max-h-[calc(100vh-12rem)]"
          >
            <pre className="font-mono text-xs leading-relaxed text-slate-900 sm:text-sm">
              {lines.map((content, index) =>
                index === line ? (
                  <mark key={index} ref={marked} className="block rounded bg-amber-200 text-slate-950 outline-2 outline-amber-500">
                    {content || ' '}
                  </mark>
                ) : (
                  <span key={index} className="block">
                    {content || ' '}
                  </span>
                ),
              )}
            </pre>
          </div>
        </>
      )}
    </section>
  );
}
