import { Fragment, useId } from 'react';
import { plural } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import type { ImportReportRow } from '@kinchart/shared/export';

/**
 * The summary's words for the resource types whose count the answer's `imported` does not give as
 * rows: allergies and conditions are read into the profile's details (the answer counts what the
 * file held); immunizations, lab results and procedures are counted as the rows they became.
 */
const REPORT_LABELS: Record<string, (count: number) => string> = {
  AllergyIntolerance: (count) => plural(count, { one: '# allergy', other: '# allergies' }),
  Condition: (count) => plural(count, { one: '# condition', other: '# conditions' }),
};

/**
 * "2 conditions": the allergies and conditions a FHIR import added or merged, read off its report.
 * The answer's older `allergies` and `conditions` counts say what the file held, even when it was
 * all here already; the report says what changed.
 */
export function reportLines(report: ImportReportRow[]): string[] {
  return Object.entries(REPORT_LABELS).flatMap(([type, words]) => {
    const row = report.find((r) => r.resource_type === type);
    const n = row ? row.imported + row.merged : 0;
    return n > 0 ? [words(n)] : [];
  });
}

/** Whether anything of the file was added or merged (a FHIR import's report says it per resource). */
export function reportAddedSomething(report: ImportReportRow[]): boolean {
  return report.some((r) => r.imported > 0 || r.merged > 0);
}

const leftOut = (row: ImportReportRow) => row.dropped.reduce((n, d) => n + d.count, 0);

/** "ExplanationOfBenefit" → its words, so a narrow screen wraps the name between them, not inside one. */
function words(type: string): string[] {
  const out: string[] = [];
  let word = '';
  for (const ch of type) {
    const upper = ch >= 'A' && ch <= 'Z';
    if (upper && word !== '' && !(word.at(-1)! >= 'A' && word.at(-1)! <= 'Z')) {
      out.push(word);
      word = '';
    }
    word += ch;
  }
  if (word) out.push(word);
  return out;
}

/**
 * DESIGN §12, decision 0022: a FHIR import is read resource by resource; this says, per resource
 * type, how many were imported, merged into the profile, already here, or left out — and why.
 */
export function ImportReport({ report }: { report: ImportReportRow[] }) {
  const captionId = useId();
  const reasonsId = useId();
  // The reasons are the server's words (decision 0022); the counts around them are the reader's.
  const reasons = report.flatMap((row) => [
    ...row.dropped.map(({ count, reason }) => ({
      type: row.resource_type,
      text: plural(count, { one: `# left out: ${reason}`, other: `# left out: ${reason}` }),
    })),
    ...row.parts_left_out.map(({ count, reason }) => ({
      type: row.resource_type,
      text: plural(count, { one: `part left out: ${reason}`, other: `# parts left out: ${reason}` }),
    })),
  ]);
  const cell = 'px-1 py-1.5 text-end tabular-nums sm:px-2';
  const head = 'px-1 py-1.5 text-end font-semibold sm:px-2';
  return (
    // On a phone the settings card is the frame: the table takes the whole width it has.
    <div className="flex flex-col gap-3 bg-white text-sm text-slate-800 sm:rounded-lg sm:border sm:border-slate-200 sm:px-3 sm:py-3">
      {/* A focusable region, so a keyboard can scroll the table on a narrow screen. */}
      <div className="overflow-x-auto" role="region" aria-labelledby={captionId} tabIndex={0}>
        <table className="w-full border-collapse text-start text-xs sm:text-sm">
          <caption id={captionId} className="px-1 pb-2 text-start text-sm font-semibold text-slate-900 sm:px-2">
            <Trans>What the file held, by resource type</Trans>
          </caption>
          <thead>
            <tr className="border-b border-slate-300 text-xs text-slate-700">
              <th scope="col" className="px-1 py-1.5 font-semibold sm:px-2">
                <Trans>Resource type</Trans>
              </th>
              <th scope="col" className={head}>
                <Trans>Imported</Trans>
              </th>
              <th scope="col" className={head}>
                <Trans>Merged</Trans>
              </th>
              <th scope="col" className={head}>
                <Trans>Already here</Trans>
              </th>
              <th scope="col" className={head}>
                <Trans>Left out</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {report.map((row) => (
              <tr key={row.resource_type} className="border-b border-slate-100 last:border-0">
                <th scope="row" className="px-1 py-1.5 font-medium sm:px-2">
                  {words(row.resource_type).map((w, i) => (
                    <Fragment key={i}>
                      {i > 0 ? <wbr /> : null}
                      {w}
                    </Fragment>
                  ))}
                </th>
                <td className={cell}>{row.imported}</td>
                <td className={cell}>{row.merged}</td>
                <td className={cell}>{row.already_present}</td>
                <td className={`${cell} ${leftOut(row) > 0 ? 'font-semibold text-amber-900' : ''}`}>{leftOut(row)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {reasons.length > 0 ? (
        <div>
          <p id={reasonsId} className="font-semibold text-slate-900">
            <Trans>Left out, and why</Trans>
          </p>
          <ul aria-labelledby={reasonsId} className="mt-1 flex list-disc flex-col gap-0.5 ps-5">
            {reasons.map((r) => (
              <li key={`${r.type}:${r.text}`} className="[overflow-wrap:anywhere]">
                <span className="font-medium">{r.type}</span>: {r.text}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <p className="text-xs text-slate-700">
        <Trans>
          Merged: read into the profile or into another record (a medication named by a prescription, a clinic named as who gave a vaccine).
        </Trans>
      </p>
    </div>
  );
}
