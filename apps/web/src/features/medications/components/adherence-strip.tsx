import { useId, useMemo } from 'react';
import { addDays, type Dose } from '@kinchart/shared/care';
import { QueryState } from '../../../components/query-state';
import { formatDate } from '../../../lib/format';
import { useAdherence } from '../api/get-adherence';
import { useDoses } from '../api/get-doses';
import { dayOutcome, localDateOf, OUTCOME_LABELS, personsToday, recentWindow, type DayOutcome } from '../utils/dose-time';

export const STRIP_DAYS = 30;

/** Colour and a sign for each outcome: the sign carries the meaning for anyone who cannot tell the colours apart. */
const CELL: Record<DayOutcome, { sign: string; className: string }> = {
  'all-taken': { sign: '✓', className: 'border-green-800 bg-green-700 text-white' },
  missed: { sign: '✕', className: 'border-red-800 bg-red-100 text-red-800' },
  'to-come': { sign: '○', className: 'border-slate-500 bg-white text-slate-700' },
  none: { sign: '', className: 'border-slate-300 bg-slate-100 text-slate-700' },
};

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
  const captionId = useId();
  // The window is fixed for the life of the card; the list refreshes itself each minute.
  const range = useMemo(() => recentWindow(new Date(), STRIP_DAYS + 1), []);
  const doses = useDoses(personId, range.from, range.to);
  const adherence = useAdherence(personId, STRIP_DAYS);

  return (
    <section aria-labelledby={captionId} className="flex flex-col gap-2">
      <h4 id={captionId} className="font-medium text-slate-600">
        Last {STRIP_DAYS} days <span className="sr-only">of {name}</span>
      </h4>
      <QueryState query={adherence} loading="Loading adherence..." error="The adherence could not be loaded." compact>
        {(answer) => {
          const item = answer.adherence.find((a) => a.medication_id === medicationId);
          return (
            <p className="text-slate-900">
              {item && item.percent !== null
                ? `${item.percent}% taken (${item.taken} of ${item.scheduled} ${item.scheduled === 1 ? 'dose' : 'doses'})`
                : `No doses due yet in the last ${STRIP_DAYS} days`}
            </p>
          );
        }}
      </QueryState>
      <QueryState query={doses} loading="Loading doses..." error="The doses could not be loaded." compact>
        {(list) => (
          <ol className="grid grid-cols-[repeat(15,minmax(0,1fr))] gap-1" aria-label={`Each of the last ${STRIP_DAYS} days of ${name}`}>
            {stripDays(list, medicationId, personsToday(list, new Date())).map(({ date, outcome }) => {
              const words = `${formatDate(date)}: ${OUTCOME_LABELS[outcome]}`;
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
        <span aria-hidden="true">✓</span> all taken · <span aria-hidden="true">✕</span> some missed or skipped ·{' '}
        <span aria-hidden="true">○</span> still to come · blank: none scheduled
      </p>
    </section>
  );
}
