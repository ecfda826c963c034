import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { QueryState } from '../../../components/query-state';
import { Button } from '../../../components/ui/button';
import { formatDate } from '../../../lib/format';
import { canWrite } from '../../../lib/person-choice';
import { usePeople } from '../../../lib/queries/people';
import { useSchedule } from '../api/get-schedule';
import { activeIntlLocale, describeSchedule } from '../utils/dose-time';
import { AdherenceStrip } from './adherence-strip';
import { ScheduleDialog } from './schedule-dialog';

export interface MedicationScheduleProps {
  /** The person the medication belongs to (null while the people list is not there: nothing shows). */
  personId: string | null;
  medicationId: string;
  /** The medication's name as running text. */
  name: string;
  /** Editors and up change the schedule; viewers read it (DESIGN §11). Left out: the person's role in the people list. */
  canEdit?: boolean;
  /** The last 30 days as a strip and the adherence percent (the medication view). */
  withHistory?: boolean;
}

/** "40 on hand · runs out around Dec 17, 2026": the quantity in the reader's digits, the date in their words. */
function onHandWords(quantity: number, runsOutOn: string | null): string {
  const count = new Intl.NumberFormat(activeIntlLocale(), { maximumFractionDigits: 2 }).format(quantity);
  if (!runsOutOn) return t({ message: `${count} on hand`, comment: 'How many units of a medication are left' });
  const date = formatDate(runsOutOn);
  return t({
    message: `${count} on hand · runs out around ${date}`,
    comment: 'How many units of a medication are left, and when they run out',
  });
}

/**
 * A medication's schedule on its item (issue 32): in words ("08:00, 20:00 · every day"), when the
 * quantity on hand runs out, and for editors the button to the schedule editor. Used by the
 * Prescriptions cards and the profile and family member editors' medication items.
 */
export function MedicationSchedule({ personId, medicationId, name, canEdit: allowed, withHistory = false }: MedicationScheduleProps) {
  const { t } = useLingui();
  const schedule = useSchedule(personId, medicationId);
  const people = usePeople();
  const person = people.data?.find((p) => p.id === personId);
  const canEdit = allowed ?? (person ? canWrite(person) : false);
  const [editing, setEditing] = useState(false);
  if (personId === null) return null;

  return (
    <div className="flex flex-col gap-2 border-t border-slate-200 pt-3 text-sm">
      <QueryState query={schedule} loading={t`Loading schedule...`} error={t`The schedule could not be loaded.`} compact>
        {(stored) => (
          <>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="text-slate-900">
                <span className="font-medium text-slate-600">
                  {t({ message: 'Schedule:', comment: 'Label before a schedule in words' })}{' '}
                </span>
                {stored ? describeSchedule(stored) : t`Not scheduled`}
              </p>
              {canEdit ? (
                <Button variant="secondary" size="sm" onClick={() => setEditing(true)}>
                  {stored ? (
                    <Trans>
                      Edit schedule <span className="sr-only">of {name}</span>
                    </Trans>
                  ) : (
                    <Trans>
                      Add schedule <span className="sr-only">of {name}</span>
                    </Trans>
                  )}
                </Button>
              ) : null}
            </div>
            {stored?.quantity_on_hand !== null && stored?.quantity_on_hand !== undefined ? (
              <p className="text-slate-700">{onHandWords(stored.quantity_on_hand, stored.runs_out_on)}</p>
            ) : null}
            {withHistory && stored && !stored.as_needed ? (
              <AdherenceStrip personId={personId} medicationId={medicationId} name={name} />
            ) : null}
            <ScheduleDialog
              open={editing}
              personId={personId}
              medicationId={medicationId}
              name={name}
              schedule={stored}
              onClose={() => setEditing(false)}
            />
          </>
        )}
      </QueryState>
    </div>
  );
}
