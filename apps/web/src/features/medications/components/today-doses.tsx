import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useMemo, useRef, type ReactNode } from 'react';
import type { Dose, DoseStatus } from '@kinchart/shared/care';
import type { Person } from '@kinchart/shared/people';
import type { Medication } from '@kinchart/shared/profile';
import { QueryState } from '../../../components/query-state';
import { Button } from '../../../components/ui/button';
import { canWrite, ownPerson } from '../../../lib/person-choice';
import { personLabel } from '../../../lib/queries/people';
import { useMedications } from '../api/get-medications';
import { usePeopleDoses } from '../api/get-doses';
import { usePersonSchedules } from '../api/get-schedule';
import { doseName, useDoseActions } from '../hooks/use-dose-actions';
import { isOnPersonsToday, isOpen, localTimeOf, offsetMinutesOf, STATUS_LABELS, statusLabel, todayWindow } from '../utils/dose-time';
import { medicationLabel, unnamedMedication } from './medication-card';

type Actions = ReturnType<typeof useDoseActions>;

const BADGE: Record<DoseStatus, string> = {
  upcoming: 'bg-slate-100 text-slate-800 border-slate-300',
  due: 'bg-amber-100 text-amber-900 border-amber-300',
  taken: 'bg-green-100 text-green-800 border-green-300',
  skipped: 'bg-slate-200 text-slate-800 border-slate-400',
  missed: 'bg-red-100 text-red-800 border-red-300',
};

function StatusBadge({ status }: { status: DoseStatus }) {
  const { t } = useLingui();
  return <span className={`rounded-full border px-2 py-0.5 text-xs font-semibold ${BADGE[status]}`}>{t(STATUS_LABELS[status])}</span>;
}

/** A time slot's doses: the person's scheduled doses of today at one local time. */
export interface Slot {
  time: string;
  doses: Dose[];
}

/** The person's doses of today (read in their zone) as time slots, and the as-needed doses taken today. */
export function todayOf(doses: readonly Dose[], now: Date): { slots: Slot[]; asNeeded: Dose[] } {
  const today = doses.filter((d) => isOnPersonsToday(d, now));
  const slots = new Map<string, Dose[]>();
  for (const dose of today) {
    if (dose.as_needed) continue;
    const time = localTimeOf(dose);
    slots.set(time, [...(slots.get(time) ?? []), dose]);
  }
  return {
    slots: [...slots.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([time, list]) => ({ time, doses: list })),
    asNeeded: today.filter((d) => d.as_needed),
  };
}

/** The time `instant` shows on a clock `offset` minutes from UTC (HH:MM). */
const timeAt = (instant: string, offset: number) => new Date(Date.parse(instant) + offset * 60_000).toISOString().slice(11, 16);

/** The Undo button's name: "Undo: Albuterol at 08:00". */
const undoLabel = (name: string) =>
  t({ message: `Undo: ${name}`, comment: 'Button that undoes the logging of a dose; name: "Albuterol at 08:00"' });

/** "Taken at 08:03 by sam", in the person's zone. */
function loggedWords(dose: Dose): string | null {
  if (dose.status !== 'taken' && dose.status !== 'skipped') return null;
  const user = dose.logged_by;
  if (dose.status === 'skipped') return user ? t`Skipped by ${user}` : statusLabel('skipped');
  if (!dose.taken_at) return user ? t`Taken by ${user}` : statusLabel('taken');
  const time = timeAt(dose.taken_at, offsetMinutesOf(dose.scheduled_at));
  return user ? t`Taken at ${time} by ${user}` : t`Taken at ${time}`;
}

function DoseRow({ personId, dose, canEdit, actions }: { personId: string; dose: Dose; canEdit: boolean; actions: Actions }) {
  const { t } = useLingui();
  const busy = actions.pending.has(dose.dose_id);
  const name = doseName(dose);
  const logged = loggedWords(dose);
  const rowRef = useRef<HTMLLIElement>(null);
  const focusHere = actions.focusDoseId === dose.dose_id;
  // The button pressed is gone once the dose changes (Taken becomes Undo): focus its successor
  // rather than leave the keyboard at the top of the page.
  useEffect(() => {
    if (!focusHere) return;
    const active = document.activeElement;
    if (active !== null && active !== document.body) return;
    const next = rowRef.current?.querySelector<HTMLButtonElement>('button:not(:disabled)');
    if (!next) return;
    next.focus();
    actions.focused();
  }, [focusHere, dose.status, busy, actions]);
  return (
    <li ref={rowRef} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex min-w-0 flex-col gap-1">
        <p className="flex flex-wrap items-center gap-2">
          <span dir="auto" className="font-semibold break-words text-slate-900">
            {dose.medication_name?.trim() || unnamedMedication()}
          </span>
          {dose.dosage ? (
            <span dir="auto" className="text-sm text-slate-700">
              {dose.dosage}
            </span>
          ) : null}
          <StatusBadge status={dose.status} />
        </p>
        {logged ? <p className="text-sm text-slate-700">{logged}</p> : null}
      </div>
      {canEdit ? (
        <div className="flex shrink-0 flex-wrap gap-2">
          {isOpen(dose) ? (
            <>
              <Button
                size="sm"
                disabled={busy}
                aria-label={t({ message: `Taken: ${name}`, comment: 'Button that logs a dose as taken; name: "Albuterol at 08:00"' })}
                onClick={() => void actions.log(personId, dose, 'taken')}
              >
                {t({ message: 'Taken', comment: 'Button that logs a dose as taken' })}
              </Button>
              <Button
                variant="secondary"
                size="sm"
                disabled={busy}
                aria-label={t({ message: `Skip: ${name}`, comment: 'Button that logs a dose as skipped; name: "Albuterol at 08:00"' })}
                onClick={() => void actions.log(personId, dose, 'skipped')}
              >
                {t({ message: 'Skip', comment: 'Button that logs a dose as skipped' })}
              </Button>
            </>
          ) : (
            <Button
              variant="secondary"
              size="sm"
              disabled={busy}
              aria-label={undoLabel(name)}
              onClick={() => void actions.undo(personId, dose)}
            >
              {t`Undo`}
            </Button>
          )}
        </div>
      ) : null}
    </li>
  );
}

function SlotGroup({
  person,
  personId,
  slot,
  canEdit,
  actions,
}: {
  person: string;
  personId: string;
  slot: Slot;
  canEdit: boolean;
  actions: Actions;
}) {
  const { t } = useLingui();
  const open = slot.doses.filter(isOpen);
  const busy = open.some((d) => actions.pending.has(d.dose_id));
  const time = slot.time;
  return (
    <div
      role="group"
      aria-label={t({ message: `${person} at ${time}`, comment: 'A group of doses: "Mia at 08:00"' })}
      className="rounded-xl border border-slate-200 bg-white px-4 py-2"
    >
      <div className="flex flex-wrap items-center justify-between gap-2 pt-1">
        <h4 className="text-base font-semibold text-slate-900">{slot.time}</h4>
        {canEdit && open.length > 0 ? (
          <Button
            size="sm"
            disabled={busy}
            aria-label={t({ message: `Take all: ${person} at ${time}`, comment: 'Button that logs every dose of one time as taken' })}
            onClick={() => void actions.takeAll(personId, open)}
          >
            {t`Take all`}
          </Button>
        ) : null}
      </div>
      <ul className="divide-y divide-slate-200">
        {slot.doses.map((dose) => (
          <DoseRow key={dose.dose_id} personId={personId} dose={dose} canEdit={canEdit} actions={actions} />
        ))}
      </ul>
    </div>
  );
}

/** As-needed medications: Log a dose, and today's logged ones with Undo. */
function AsNeeded({
  personId,
  medications,
  taken,
  canEdit,
  actions,
}: {
  personId: string;
  medications: Medication[];
  taken: Dose[];
  canEdit: boolean;
  actions: Actions;
}) {
  const { t } = useLingui();
  const headingId = useId();
  return (
    <div role="group" aria-labelledby={headingId} className="rounded-xl border border-slate-200 bg-white px-4 py-2">
      <h4 id={headingId} className="pt-1 text-base font-semibold text-slate-900">
        {t({ message: 'As needed', comment: 'A medication taken when needed, without fixed times' })}
      </h4>
      <ul className="divide-y divide-slate-200">
        {medications.map((medication) => {
          const name = medicationLabel(medication);
          const mine = taken.filter((d) => d.medication_id === medication.id);
          return (
            <li key={medication.id} className="flex flex-col gap-2 py-3">
              <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
                <p className="flex flex-wrap items-center gap-2">
                  <span dir="auto" className="font-semibold break-words text-slate-900">
                    {name}
                  </span>
                  {medication.dosage ? (
                    <span dir="auto" className="text-sm text-slate-700">
                      {medication.dosage}
                    </span>
                  ) : null}
                </p>
                {canEdit ? (
                  <Button
                    variant="secondary"
                    size="sm"
                    className="self-start"
                    disabled={actions.pending.has(`as-needed:${personId}:${medication.id}`)}
                    onClick={() => void actions.logAsNeeded(personId, medication.id, name)}
                  >
                    <Trans>
                      Log a dose <span className="sr-only">of {name}</span>
                    </Trans>
                  </Button>
                ) : null}
              </div>
              {mine.length > 0 ? (
                <ul className="flex flex-col gap-1">
                  {mine.map((dose) => (
                    <li key={dose.dose_id} className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
                      <span>{loggedWords(dose)}</span>
                      {canEdit ? (
                        <Button
                          variant="ghost"
                          size="sm"
                          disabled={actions.pending.has(dose.dose_id)}
                          aria-label={undoLabel(doseName(dose))}
                          onClick={() => void actions.undo(personId, dose)}
                        >
                          {t`Undo`}
                        </Button>
                      ) : null}
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** One person's today: their slots, then their as-needed medications; nothing when they have neither. */
function PersonToday({ person, own, doses, now, actions }: { person: Person; own: boolean; doses: Dose[]; now: Date; actions: Actions }) {
  const headingId = useId();
  const medications = useMedications(own ? null : person.id);
  const current = useMemo(() => (medications.data ?? []).filter((m) => m.is_current), [medications.data]);
  const schedules = usePersonSchedules(person.id);
  const asNeededIds = new Set((schedules.data ?? []).filter((s) => s.as_needed).map((s) => s.medication_id));
  const asNeededMedications = current.filter((m) => asNeededIds.has(m.id));
  const { slots, asNeeded } = todayOf(doses, now);
  if (slots.length === 0 && asNeededMedications.length === 0 && asNeeded.length === 0) return null;

  const name = personLabel(person);
  const sharedBy = person.shared_by;
  const canEdit = canWrite(person);
  // A dose logged for a medication that is no longer as-needed still shows, under its own name.
  const loggedOthers = asNeeded.filter((d) => !asNeededMedications.some((m) => m.id === d.medication_id));
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h3 id={headingId} className="text-lg font-semibold text-slate-900">
        {name}
        {sharedBy ? (
          <span className="ms-2 text-sm font-normal text-slate-700">
            <Trans>Shared by {sharedBy}</Trans>
          </span>
        ) : null}
      </h3>
      {canEdit ? null : (
        <p className="text-sm text-slate-700">
          <Trans>View only: you can see {name}&apos;s doses but not log them.</Trans>
        </p>
      )}
      {slots.map((slot) => (
        <SlotGroup key={slot.time} person={name} personId={person.id} slot={slot} canEdit={canEdit} actions={actions} />
      ))}
      {asNeededMedications.length > 0 || loggedOthers.length > 0 ? (
        <AsNeeded
          personId={person.id}
          medications={[
            ...asNeededMedications,
            ...current.filter((m) => !asNeededMedications.includes(m) && loggedOthers.some((d) => d.medication_id === m.id)),
          ]}
          taken={asNeeded}
          canEdit={canEdit}
          actions={actions}
        />
      ) : null}
    </section>
  );
}

/**
 * The dashboard's "Today" (issue 32): every visible person's doses of today in their own zone,
 * grouped by person and time, with Taken / Skip per dose, Undo once logged, Take all per time and
 * Log a dose for as-needed medications. Viewers see the doses without the buttons. The people come
 * from the dashboard's list (GET /api/user/people), which reports its own failure.
 */
export function TodayDoses({ people }: { people: Person[] }) {
  const { t } = useLingui();
  const headingId = useId();
  const me = ownPerson(people);
  const now = new Date();
  const { from, to } = todayWindow(now);
  const doses = usePeopleDoses(
    people.map((p) => p.id),
    from,
    to,
  );
  const actions = useDoseActions();
  const loaded = doses.every((q) => q.data !== undefined);
  const nothingToday = loaded && doses.every((q) => !(q.data ?? []).some((d) => !d.as_needed && isOnPersonsToday(d, now)));
  const failed = doses.find((q) => q.isError && q.data === undefined);

  let body: ReactNode;
  if (failed) {
    body = <QueryState query={failed} loading={t`Loading today's doses...`} error={t`Today's doses could not be loaded.`} />;
  } else if (!loaded) {
    body = (
      <p role="status" className="text-slate-700">
        {t`Loading today's doses...`}
      </p>
    );
  } else {
    body = (
      <>
        {nothingToday ? (
          <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-6 text-center text-slate-700">
            <Trans>No doses are scheduled for today.</Trans>
          </p>
        ) : null}
        {people.map((person, i) => (
          <PersonToday key={person.id} person={person} own={person === me} doses={doses[i]?.data ?? []} now={now} actions={actions} />
        ))}
      </>
    );
  }

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <h2 id={headingId} className="text-xl font-semibold text-slate-900">
        {t({ message: 'Today', comment: "Heading of the dashboard's list of today's doses" })}
      </h2>
      <p role="status" className="sr-only">
        {actions.announcement}
      </p>
      {body}
    </section>
  );
}
