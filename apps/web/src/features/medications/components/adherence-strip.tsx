import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useMemo } from 'react';
import { addDays, type Dose } from '@kinchart/shared/care';
import { QueryState } from '../../../components/query-state';
import { formatDate } from '../../../lib/format';
import { useAdherence } from '../api/get-adherence';
import { useDoses } from '../api/get-doses';
import { activeIntlLocale, dayOutcome, localDateOf, OUTCOME_LABELS, personsToday, recentWindow, type DayOutcome } from '../utils/dose-time';

export const STRIP_DAYS = 30;

/** Colour and a sign for each outcome: the sign carries the meaning for anyone who cannot tell the colours apart. */
const CELL: Record<DayOutcome, { sign: string; className: string }> = {
  'all-taken': { sign: '✓', className: 'border-green-800 bg-green-700 text-white' },
  missed: { sign: '✕', className: 'border-red-800 bg-red-100 text-red-800' },
  'to-come': { sign: '○', className: 'border-slate-500 bg-white text-slate-700' },
  none: { sign: '', className: 'border-slate-300 bg-slate-100 text-slate-700' },
};

/** "80% taken (4 of 5 doses)": the percent and the counts in the reader's digits. */
function adherenceWords(item: { percent: number | null; taken: number; scheduled: number }): string {
  const locale = activeIntlLocale();
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format((item.percent ?? 0) / 100);
  const taken = new Intl.NumberFormat(locale).format(item.taken);
  return plural(item.scheduled, {
    one: `${percent} taken (${taken} of # dose)`,
    other: `${percent} taken (${taken} of # doses)`,
  });
}

export interface StripDay {
  date: string;
  outcome: DayOutcome;
}

/** The last `days` days up to `today` (oldest first), each with the medication's outcome that day. */
export function stripDays(doses: readonly Dose[], medicationId: string, today: string, days = STRIP_DAYS): StripDay[] {
  const byDate = new Map<string, Dose[]>();
  for (const dose of doses) {
    if (dose.medication_id !== medicationId || dose.as_needed) continue;
    const date = localDateOf(dose);
    byDate.set(date, [...(byDate.get(date) ?? []), dose]);
  }
  return Array.from({ length: days }, (_, i) => {
    const date = addDays(today, i - days + 1);
    return { date, outcome: dayOutcome(byDate.get(date) ?? []) };
  });
}

/**
 * The medication view's last 30 days (issue 32): one cell per day, coloured and signed by that
 * day's outcome, each with its words for screen readers, and the adherence percent.
 */
export function AdherenceStrip({ personId, medicationId, name }: { personId: string; medicationId: string; name: string }) {
  const { t, i18n } = useLingui();
  const days = STRIP_DAYS;
  const captionId = useId();
  // The window is fixed for the life of the card; the list refreshes itself each minute.
  const range = useMemo(() => recentWindow(new Date(), STRIP_DAYS + 1), []);
  const doses = useDoses(personId, range.from, range.to);
  const adherence = useAdherence(personId, STRIP_DAYS);

  return (
    <section aria-labelledby={captionId} className="flex flex-col gap-2">
      <h4 id={captionId} className="font-medium text-slate-600">
        <Trans>
          Last {days} days <span className="sr-only">of {name}</span>
        </Trans>
      </h4>
      <QueryState query={adherence} loading={t`Loading adherence...`} error={t`The adherence could not be loaded.`} compact>
        {(answer) => {
          const item = answer.adherence.find((a) => a.medication_id === medicationId);
          return (
            <p className="text-slate-900">
              {item && item.percent !== null ? adherenceWords(item) : t`No doses due yet in the last ${days} days`}
            </p>
          );
        }}
      </QueryState>
      <QueryState query={doses} loading={t`Loading doses...`} error={t`The doses could not be loaded.`} compact>
        {(list) => (
          <ol className="grid grid-cols-[repeat(15,minmax(0,1fr))] gap-1" aria-label={t`Each of the last ${days} days of ${name}`}>
            {stripDays(list, medicationId, personsToday(list, new Date())).map(({ date, outcome }) => {
              const day = formatDate(date);
              const result = i18n._(OUTCOME_LABELS[outcome]);
              const words = t({ message: `${day}: ${result}`, comment: 'One day of the 30-day strip: "Nov 25, 2026: all taken"' });
              return (
                <li
                  key={date}
                  title={words}
                  data-outcome={outcome}
                  className={`flex aspect-square items-center justify-center rounded border text-xs leading-none font-bold ${CELL[outcome].className}`}
                >
                  <span aria-hidden="true">{CELL[outcome].sign}</span>
                  <span className="sr-only">{words}</span>
                </li>
              );
            })}
          </ol>
        )}
      </QueryState>
      <p className="text-xs text-slate-700">
        <Trans comment="The key to the 30-day strip's signs">
          <span aria-hidden="true">✓</span> all taken · <span aria-hidden="true">✕</span> some missed or skipped ·{' '}
          <span aria-hidden="true">○</span> still to come · blank: none scheduled
        </Trans>
      </p>
    </section>
  );
}
