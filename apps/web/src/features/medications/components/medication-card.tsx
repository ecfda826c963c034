import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, type ReactNode } from 'react';
import type { Medication } from '@kinchart/shared/profile';
import { Button } from '../../../components/ui/button';
import { displayDate } from '../utils/prescription-form';

/** What a medication saved without a name is called (the profile editor allows that). */
export const unnamedMedication = (): string => t`Unnamed medication`;

/** The medication's name, or a stand-in for one saved without. */
export function medicationLabel(medication: Medication): string {
  return medication.medication_name?.trim() || unnamedMedication();
}

export interface MedicationCardProps {
  medication: Medication;
  onEdit: (medication: Medication) => void;
  onEnd: (medication: Medication) => void;
  onDelete: (medication: Medication) => void;
  /** False for a viewer of a shared person: the card has no actions. */
  canEdit?: boolean;
  /** The schedule, runs-out date and last 30 days (issue 32), under the details. */
  schedule?: ReactNode;
}

/**
 * One medication. SPEC §2: current items carry an Active badge; past items an Ended badge, their
 * end date and only a Delete action. Buttons read "Edit", "Delete"… and their accessible names add
 * the medication, so a screen-reader user tabbing through the list knows which one they are on.
 */
export function MedicationCard({ medication, onEdit, onEnd, onDelete, canEdit = true, schedule }: MedicationCardProps) {
  const { t } = useLingui();
  const titleId = useId();
  const name = medicationLabel(medication);
  const current = medication.is_current;
  const details: [string, string | null][] = [
    [t`Dosage`, medication.dosage],
    [t`Frequency`, medication.frequency],
    [t`Purpose`, medication.purpose],
    [t`Start Date`, displayDate(medication.start_date)],
    ...(current ? [] : ([[t`End Date`, displayDate(medication.end_date)]] as [string, string | null][])),
  ];

  return (
    <article
      aria-labelledby={titleId}
      className="flex h-full flex-col gap-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
    >
      <div className="flex items-start justify-between gap-3">
        <h3 id={titleId} className="text-lg font-semibold break-words text-slate-900">
          {name}
        </h3>
        {current ? (
          <span className="shrink-0 rounded-full bg-green-100 px-2.5 py-0.5 text-sm font-semibold text-green-800">
            {t({ message: 'Active', context: 'medication' })}
          </span>
        ) : (
          <span className="shrink-0 rounded-full bg-slate-200 px-2.5 py-0.5 text-sm font-semibold text-slate-800">
            {t({ message: 'Ended', context: 'medication' })}
          </span>
        )}
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        {details.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-slate-600">{label}</dt>
            <dd className="break-words text-slate-900">
              {/* The person's own words keep their direction inside a right-to-left layout ("500 mg"). */}
              <bdi>{value || '—'}</bdi>
            </dd>
          </div>
        ))}
      </dl>
      {schedule}
      {canEdit ? (
        <div className="mt-auto flex flex-wrap gap-2">
          {current ? (
            <>
              <Button variant="secondary" size="sm" onClick={() => onEdit(medication)}>
                <Trans>
                  Edit <span className="sr-only">{name}</span>
                </Trans>
              </Button>
              <Button variant="secondary" size="sm" onClick={() => onEnd(medication)}>
                <Trans>
                  End medication <span className="sr-only">{name}</span>
                </Trans>
              </Button>
            </>
          ) : null}
          <Button variant="secondary" size="sm" className="text-red-700! hover:bg-red-50!" onClick={() => onDelete(medication)}>
            <Trans>
              Delete <span className="sr-only">{name}</span>
            </Trans>
          </Button>
        </div>
      ) : null}
    </article>
  );
}
