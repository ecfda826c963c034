import { plural, t } from '@lingui/core/macro';
import { useCallback, useState } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Dose } from '@kinchart/shared/care';
import { serverMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/toast';
import { adherenceQueryPrefix } from '../api/get-adherence';
import { dosesQueryPrefix } from '../api/get-doses';
import { personSchedulesQueryKey } from '../api/get-schedule';
import { logAsNeededDose } from '../api/log-as-needed-dose';
import { logDose } from '../api/log-dose';
import { undoDose } from '../api/undo-dose';
import { unnamedMedication } from '../components/medication-card';
import { localTimeOf, statusAt } from '../utils/dose-time';

/** How a dose is named in messages and button labels: "Albuterol at 08:00". */
export function doseName(dose: Pick<Dose, 'medication_name' | 'scheduled_at'>): string {
  const name = dose.medication_name?.trim() || unnamedMedication();
  const time = localTimeOf(dose);
  return t({ message: `${name} at ${time}`, comment: 'A dose: the medication and its time of day ("Albuterol at 08:00")' });
}

/** Every cached dose list of the person, changed in place (the optimistic step and its rollback). */
function changeDoses(queryClient: QueryClient, personId: string, change: (doses: Dose[]) => Dose[]): void {
  queryClient.setQueriesData<Dose[]>({ queryKey: dosesQueryPrefix(personId) }, (doses) => (doses ? change(doses) : doses));
}

const replace = (next: Dose) => (doses: Dose[]) => doses.map((d) => (d.dose_id === next.dose_id ? next : d));

/** The doses, the adherence and (taking a dose lowers the quantity on hand) the schedules, as the server has them now. */
function refresh(queryClient: QueryClient, personId: string): void {
  void queryClient.invalidateQueries({ queryKey: dosesQueryPrefix(personId) });
  void queryClient.invalidateQueries({ queryKey: adherenceQueryPrefix(personId) });
  void queryClient.invalidateQueries({ queryKey: personSchedulesQueryKey(personId) });
}

const failure = (error: unknown) => serverMessage(error) ?? t`Please check your connection and try again.`;

/**
 * Taken, Skip, Undo, Take all and Log a dose for the Today block. Optimistic but truthful: the
 * dose changes at once on screen; a refusal puts it back as it was and says so in a toast; either
 * way the lists are read again from the server afterwards. `pending` holds the doses in flight.
 */
export function useDoseActions() {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());
  // What the last action did, for a polite live region: the row's buttons change under the
  // person's finger (Taken becomes Undo), so the result is said, and focus is kept on that row.
  const [announcement, setAnnouncement] = useState('');
  const [focusDoseId, setFocusDoseId] = useState<string | null>(null);
  const mark = useCallback((ids: string[], on: boolean) => {
    setPending((current) => {
      const next = new Set(current);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  }, []);

  /** Logs one dose; resolves whether the server took it. Quiet: the caller reports failures. */
  const send = useCallback(
    async (personId: string, dose: Dose, status: 'taken' | 'skipped'): Promise<unknown> => {
      const now = new Date().toISOString();
      changeDoses(queryClient, personId, replace({ ...dose, status, logged_at: now, taken_at: status === 'taken' ? now : null }));
      try {
        changeDoses(queryClient, personId, replace(await logDose(personId, dose.dose_id, { status })));
        return null;
      } catch (error) {
        changeDoses(queryClient, personId, replace(dose));
        return error ?? new Error('failed');
      }
    },
    [queryClient],
  );

  const log = useCallback(
    async (personId: string, dose: Dose, status: 'taken' | 'skipped') => {
      mark([dose.dose_id], true);
      await queryClient.cancelQueries({ queryKey: dosesQueryPrefix(personId) });
      setFocusDoseId(dose.dose_id);
      const error = await send(personId, dose, status);
      mark([dose.dose_id], false);
      const name = doseName(dose);
      if (error) {
        const reason = failure(error);
        notify.error(t`${name} was not logged. ${reason}`);
      } else setAnnouncement(status === 'taken' ? t`${name}: taken.` : t`${name}: skipped.`);
      refresh(queryClient, personId);
    },
    [mark, queryClient, send],
  );

  const takeAll = useCallback(
    async (personId: string, doses: Dose[]) => {
      const ids = doses.map((d) => d.dose_id);
      mark(ids, true);
      await queryClient.cancelQueries({ queryKey: dosesQueryPrefix(personId) });
      setFocusDoseId(doses[0]?.dose_id ?? null);
      const errors = (await Promise.all(doses.map((dose) => send(personId, dose, 'taken')))).filter(Boolean);
      mark(ids, false);
      if (errors.length > 0) {
        const failed = errors.length;
        const reason = failure(errors[0]);
        notify.error(
          plural(doses.length, {
            one: `${failed} of # dose was not logged. ${reason}`,
            other: `${failed} of # doses were not logged. ${reason}`,
          }),
        );
      } else {
        setAnnouncement(plural(doses.length, { one: '# dose taken.', other: '# doses taken.' }));
      }
      refresh(queryClient, personId);
    },
    [mark, queryClient, send],
  );

  const undo = useCallback(
    async (personId: string, dose: Dose) => {
      mark([dose.dose_id], true);
      setFocusDoseId(dose.dose_id);
      await queryClient.cancelQueries({ queryKey: dosesQueryPrefix(personId) });
      // An as-needed dose is only its log entry: undone, it is gone; a scheduled one is open again.
      changeDoses(queryClient, personId, (doses) =>
        dose.as_needed
          ? doses.filter((d) => d.dose_id !== dose.dose_id)
          : replace({ ...dose, status: statusAt(dose, new Date()), logged_at: null, logged_by: null, taken_at: null })(doses),
      );
      try {
        await undoDose(personId, dose.dose_id);
        const name = doseName(dose);
        setAnnouncement(t`${name}: undone.`);
      } catch (error) {
        changeDoses(queryClient, personId, (doses) =>
          doses.some((d) => d.dose_id === dose.dose_id)
            ? replace(dose)(doses)
            : [...doses, dose].sort((a, b) => Date.parse(a.scheduled_at) - Date.parse(b.scheduled_at)),
        );
        const name = doseName(dose);
        const reason = failure(error);
        notify.error(t`${name} was not undone. ${reason}`);
      }
      mark([dose.dose_id], false);
      refresh(queryClient, personId);
    },
    [mark, queryClient],
  );

  /** An as-needed medication taken now: shown once the server has it (its id is the server's). */
  const logAsNeeded = useCallback(
    async (personId: string, medicationId: string, name: string) => {
      const key = `as-needed:${personId}:${medicationId}`;
      mark([key], true);
      try {
        await logAsNeededDose(personId, medicationId);
        notify.success(t`Logged a dose of ${name}.`);
        setAnnouncement(t`Logged a dose of ${name}.`);
      } catch (error) {
        const reason = failure(error);
        notify.error(t`The dose of ${name} was not logged. ${reason}`);
      }
      mark([key], false);
      refresh(queryClient, personId);
    },
    [mark, queryClient],
  );

  /** The row has taken focus back: later changes of that dose leave focus where it is. */
  const focused = useCallback(() => setFocusDoseId(null), []);

  return { pending, announcement, focusDoseId, focused, log, takeAll, undo, logAsNeeded };
}
