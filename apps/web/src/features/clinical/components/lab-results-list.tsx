import { useId, useMemo } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { plural } from '@lingui/core/macro';
import type { LabResult } from '@kinchart/shared/clinical';
import { Button } from '../../../components/ui/button';
import { codingLabels, formatPartialDate, interpretationLabel, isolated, rangeLabel, valueText } from '../utils/clinical-text';
import { groupLabResults, outOfRangeText, sourceOf, trendsOf, unitsNote, type LabGroup } from '../utils/lab-groups';
import type { ItemActions } from './clinical-section';
import { StatusBadge, useItemActionNames } from './item-card';
import { LabTrend } from './lab-trend';
import { OutOfRangeMarker } from './out-of-range-marker';
import { SourceLink } from './source-link';

/** "HbA1c (2024-02-10)": the result's name in the delete question and in its buttons' names. */
export const labResultTitle = (r: LabResult) => `${r.name}${r.date ? ` (${formatPartialDate(r.date)})` : ''}`;

/**
 * Lab results and vital signs by test (LOINC code, else name), the test with the newest result
 * first, each newest first; a trend chart once a test has two numeric values (DESIGN §12).
 */
export function LabResultsList({ items, actions }: { items: LabResult[]; actions: ItemActions<'lab-results'> }) {
  const groups = useMemo(() => groupLabResults(items), [items]);
  return (
    <ul className="flex flex-col gap-6">
      {groups.map((group) => (
        <li key={group.key}>
          <LabGroupCard group={group} actions={actions} />
        </li>
      ))}
    </ul>
  );
}

function LabGroupCard({ group, actions }: { group: LabGroup; actions: ItemActions<'lab-results'> }) {
  const headingId = useId();
  const trends = useMemo(() => trendsOf(group), [group]);
  const note = useMemo(() => unitsNote(group), [group]);
  const vital = group.results.some((r) => r.category === 'vital-signs');
  const { t } = useLingui();
  const count = group.results.length;
  const name = group.name;
  return (
    <article aria-labelledby={headingId} className="flex flex-col gap-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={headingId} className="min-w-0 text-lg font-semibold break-words text-slate-900">
          {group.name}
        </h3>
        <p className="text-xs text-slate-600">
          {[
            vital ? t`Vital sign` : null,
            group.loincCode ? `LOINC ${group.loincCode}` : null,
            t`${plural(count, { one: '# result', other: '# results' })}`,
          ]
            .filter((part): part is string => part !== null)
            .map(isolated)
            .join(' · ')}
        </p>
      </div>
      {note ? <p className="text-sm text-slate-700">{note}</p> : null}
      {trends.map((trend) => (
        <LabTrend key={trend.unit ?? ''} name={group.name} trend={trend} />
      ))}
      <ul aria-label={t`${name} results, newest first`} className="divide-y divide-slate-200 border-t border-slate-200">
        {group.results.map((result) => (
          <LabResultRow key={result.id} result={result} groupLoinc={group.loincCode} actions={actions} />
        ))}
      </ul>
    </article>
  );
}

function LabResultRow({
  result,
  groupLoinc,
  actions,
}: {
  result: LabResult;
  groupLoinc: string | null;
  actions: ItemActions<'lab-results'>;
}) {
  const out = outOfRangeText(result);
  const range = rangeLabel(result);
  const source = sourceOf(result);
  const title = labResultTitle(result);
  const { editWord, deleteWord } = useItemActionNames();
  // The group's LOINC code is in its heading already.
  const codes = codingLabels(result.codings).filter((c) => c !== `LOINC ${groupLoinc ?? ''}`);
  return (
    <li id={`lab-result-${result.id}`} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-start sm:justify-between">
      <div className="flex min-w-0 flex-col gap-1">
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <span className="text-sm text-slate-600 tabular-nums">
            {result.date ? <time dateTime={result.date}>{formatPartialDate(result.date)}</time> : <Trans>No date</Trans>}
          </span>
          {/* A measured value reads as on the report, number then unit, in a right-to-left page too. */}
          <span dir="ltr" className={`font-semibold tabular-nums ${out ? 'text-red-800' : 'text-slate-900'}`}>
            {valueText(result)}
          </span>
          {range ? (
            <span className="text-sm text-slate-600">
              <Trans>Range {range}</Trans>
            </span>
          ) : null}
          {out ? (
            <OutOfRangeMarker text={out} />
          ) : result.interpretation ? (
            <StatusBadge>{interpretationLabel(result.interpretation)}</StatusBadge>
          ) : null}
        </p>
        {result.notes ? <p className="text-sm break-words whitespace-pre-line text-slate-700">{result.notes}</p> : null}
        {source ? (
          <p className="text-sm">
            <SourceLink source={source} />
          </p>
        ) : null}
        {codes.length > 0 ? (
          <p className="text-xs text-slate-600">
            <span className="sr-only">
              <Trans>Codes:</Trans>{' '}
            </span>
            {codes.join(' · ')}
          </p>
        ) : null}
      </div>
      {actions.edit || actions.remove ? (
        <div className="flex shrink-0 gap-2">
          {actions.edit ? (
            <Button variant="secondary" size="sm" onClick={() => actions.edit?.(result)}>
              {editWord} <span className="sr-only">{title}</span>
            </Button>
          ) : null}
          {actions.remove ? (
            <Button
              variant="secondary"
              size="sm"
              className="text-red-700! hover:bg-red-50!"

              onClick={() => actions.remove?.(result)}
            >
              {deleteWord} <span className="sr-only">{title}</span>
            </Button>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}
