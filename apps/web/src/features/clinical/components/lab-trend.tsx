import { lazy, Suspense, useId } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { formatLabNumber, formatPartialDate } from '../utils/clinical-text';
import { trendSummary, type Trend } from '../utils/lab-groups';
import { WarningIcon } from './out-of-range-marker';
import { SourceLink } from './source-link';

// uPlot comes with the canvas, on its own chunk, only once there is a trend to draw (decision 0021).
const TrendCanvas = lazy(() => import('./trend-canvas'));

/**
 * A test's values over time (DESIGN §12): the chart for the eyes — its reference range as a band,
 * out-of-range values as red triangles instead of dots — named in words for screen readers (role
 * img, the summary as its name), and the same values as a table behind a disclosure.
 */
export function LabTrend({ name, trend }: { name: string; trend: Trend }) {
  const { t } = useLingui();
  const captionId = useId();
  const unit = trend.unit;
  const hasRange = trend.low !== null || trend.high !== null;
  return (
    <figure aria-labelledby={captionId} className="flex min-w-0 flex-col gap-2">
      <figcaption id={captionId} className="text-sm font-medium text-slate-800">
        {unit ? (
          <Trans>
            {name} over time ({unit})
          </Trans>
        ) : (
          <Trans>{name} over time</Trans>
        )}
      </figcaption>
      <div role="img" aria-label={trendSummary(name, trend)} className="min-h-[200px] w-full min-w-0">
        <Suspense fallback={<div className="h-[200px] w-full rounded-lg bg-slate-50" />}>
          <TrendCanvas trend={trend} />
        </Suspense>
      </div>
      {/* The key explains shapes and colours to those who see them; the summary and table say it all in words. */}
      <ul aria-hidden="true" className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700">
        <li className="flex items-center gap-1.5">
          <svg viewBox="0 0 12 12" className="size-3">
            <circle cx="6" cy="6" r="4" fill="#fff" stroke="#4338ca" strokeWidth="2" />
          </svg>
          <Trans>Value</Trans>
        </li>
        <li className="flex items-center gap-1.5 text-red-800">
          <WarningIcon className="size-3.5" />
          <Trans>Out of range</Trans>
        </li>
        {hasRange ? (
          <li className="flex items-center gap-1.5">
            <span className="inline-block h-3 w-5 border-y border-dashed border-green-700 bg-green-600/15" />
            {trend.low !== null && trend.high !== null ? <Trans>Reference range</Trans> : <Trans>Reference range limit</Trans>}
          </li>
        ) : null}
      </ul>
      <details className="text-sm">
        <summary className="min-h-11 cursor-pointer py-2 font-medium text-brand-700">
          <Trans>Show the values as a table</Trans>
        </summary>
        {/* Narrow enough for a phone without scrolling: long words wrap in their cells. */}
        <div className="break-words">
          <table className="w-full border-collapse text-start text-xs sm:text-sm">
            <caption className="sr-only">
              <Trans>{name} values, oldest first</Trans>
            </caption>
            <thead>
              <tr className="border-b border-slate-300 text-slate-700">
                <th scope="col" className="py-1.5 pe-2 sm:pe-3 font-semibold">
                  <Trans>Date</Trans>
                </th>
                <th scope="col" className="py-1.5 pe-2 sm:pe-3 font-semibold">
                  <Trans>Value</Trans>
                </th>
                <th scope="col" className="py-1.5 pe-2 sm:pe-3 font-semibold">
                  <Trans>Unit</Trans>
                </th>
                <th scope="col" className="py-1.5 pe-2 sm:pe-3 font-semibold">
                  <Trans>Reference range</Trans>
                </th>
                <th scope="col" className="py-1.5 font-semibold">
                  <Trans>Flag</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {trend.points.map((point) => (
                <tr key={point.id} className="border-b border-slate-200">
                  <td className="py-1.5 pe-2 sm:pe-3 whitespace-nowrap">
                    <time dateTime={point.date}>{formatPartialDate(point.date)}</time>
                  </td>
                  <td className="py-1.5 pe-2 sm:pe-3 font-medium">
                    <span dir="ltr">{formatLabNumber(point.value)}</span>
                    {point.reported ? (
                      <span className="block font-normal text-slate-600">
                        <ReportedAs reported={point.reported} />
                      </span>
                    ) : null}
                    {point.source ? <SourceLink source={point.source} className="block text-xs font-normal" /> : null}
                  </td>
                  <td className="py-1.5 pe-2 sm:pe-3">
                    <span dir="ltr">{point.unit ?? '—'}</span>
                  </td>
                  <td className="py-1.5 pe-2 sm:pe-3">
                    <span dir="ltr">{point.range ?? '—'}</span>
                  </td>
                  <td className="py-1.5">
                    {point.outOfRange ? (
                      <span className="inline-flex items-center gap-1 font-semibold text-red-800">
                        <WarningIcon />
                        {point.outOfRange}
                      </span>
                    ) : (
                      t`Within range`
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

/** "reported as 2.9 g/L": the value as the report gave it, when the chart shows it converted. */
function ReportedAs({ reported }: { reported: string }) {
  return <Trans>reported as {reported}</Trans>;
}
