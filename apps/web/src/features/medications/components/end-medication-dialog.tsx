import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useId, useState, type FormEvent } from 'react';
import type { Medication } from '@kinchart/shared/profile';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { serverMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/toast';
import { useUpdateMedication } from '../api/update-medication';
import { displayDate, endDateProblem, endedMedicationInput, localToday } from '../utils/prescription-form';
import { medicationLabel } from './medication-card';

export interface EndMedicationDialogProps {
  /** The medication to end; the dialog is closed while this is null. */
  medication: Medication | null;
  onClose: () => void;
  /** Called after the medication was saved as ended (and the dialog closed). */
  onEnded?: () => void;
  /** Whose medication: null for your own profile, else the person's id (DESIGN §11). */
  personId: string | null;
}

/**
 * SPEC §4 leaves open how a medication becomes past; decision 0006 adds this: the user
 * confirms an end date (today unless they pick another, never before the start date) and the
 * medication is saved with is_current false, which moves it to Medication History.
 */
export function EndMedicationDialog({ medication, ...props }: EndMedicationDialogProps) {
  if (!medication) return null;
  return <EndMedicationForm key={medication.id} medication={medication} {...props} />;
}

const FAILED = msg`Failed to update medication. Please try again.`;

function EndMedicationForm({ medication, onClose, onEnded, personId }: EndMedicationDialogProps & { medication: Medication }) {
  const { t } = useLingui();
  const formId = useId();
  const today = localToday();
  // A medication that starts later than today cannot end today; offer its start date instead.
  const [endDate, setEndDate] = useState(() => (medication.start_date && medication.start_date > today ? medication.start_date : today));
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const update = useUpdateMedication(personId);
  const busy = update.isPending;
  const name = medicationLabel(medication);
  const started = medication.start_date ? displayDate(medication.start_date) : null;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = endDateProblem(endDate, medication.start_date);
    setError(problem);
    if (problem) return;
    setFailure(null);
    try {
      await update.mutateAsync({ id: medication.id, input: endedMedicationInput(medication, endDate) });
      notify.success(t`Medication updated successfully!`);
      onClose();
      onEnded?.();
    } catch (failed) {
      const reason = serverMessage(failed);
      const text = t(FAILED);
      setFailure(reason ? `${text} ${reason}` : text);
      window.alert(text);
    }
  };

  return (
    <Modal
      open
      onClose={busy ? () => undefined : onClose}
      closeOnBackdrop={!busy}
      size="sm"
      title={t`End medication`}
      description={t`${name} moves to Medication History.`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {t`Cancel`}
          </Button>
          <Button type="submit" form={formId} disabled={busy}>
            {busy ? t`Saving...` : t`End medication`}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={(event) => void onSubmit(event)} noValidate className="flex flex-col gap-4" aria-busy={busy}>
        <Field
          label={t`End Date`}
          type="date"
          required
          value={endDate}
          min={medication.start_date ?? undefined}
          onChange={(event) => setEndDate(event.target.value)}
          error={error}
          hint={started ? t`Started ${started}; the end date cannot be earlier.` : undefined}
        />
        {failure ? (
          <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm font-medium text-red-700">
            {failure}
          </p>
        ) : null}
      </form>
    </Modal>
  );
}
