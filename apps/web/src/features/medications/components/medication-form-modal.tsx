import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Medication } from '@kinchart/shared/profile';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { serverMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/toast';
import { useAddMedication } from '../api/add-medication';
import { useUpdateMedication } from '../api/update-medication';
import {
  emptyPrescriptionForm,
  localToday,
  prescriptionFormFrom,
  prescriptionFormSchema,
  toMedicationInput,
  type PrescriptionFormOutput,
  type PrescriptionFormValues,
} from '../utils/prescription-form';
import { AlertMessage } from '../../../components/ui/alert-message';

export interface MedicationFormModalProps {
  open: boolean;
  /** The medication to edit; without one the modal adds a new medication. */
  medication?: Medication | null;
  onClose: () => void;
  /** Whose medication: null for your own profile, else the person's id (DESIGN §11). */
  personId: string | null;
}

/** The add and edit modals of /prescriptions (SPEC §2, §4, §5). A fresh form on every opening. */
export function MedicationFormModal(props: MedicationFormModalProps) {
  if (!props.open) return null;
  return <MedicationFormDialog {...props} />;
}

// SPEC §8 Prescriptions screen.
const FAILED = { add: msg`Failed to add medication. Please try again.`, edit: msg`Failed to update medication. Please try again.` };
const SAVED = { add: msg`Medication added successfully!`, edit: msg`Medication updated successfully!` };

function MedicationFormDialog({ medication, onClose, personId }: MedicationFormModalProps) {
  const { t } = useLingui();
  const mode = medication ? 'edit' : 'add';
  const formId = useId();
  const checkboxId = useId();
  const addMedication = useAddMedication(personId);
  const updateMedication = useUpdateMedication(personId);
  const [failure, setFailure] = useState<string | null>(null);

  const {
    register,
    handleSubmit,
    watch,
    getValues,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<PrescriptionFormValues, unknown, PrescriptionFormOutput>({
    resolver: zodResolver(prescriptionFormSchema),
    defaultValues: medication ? prescriptionFormFrom(medication) : emptyPrescriptionForm(),
  });
  const isCurrent = watch('is_current');

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    const input = toMedicationInput(values);
    try {
      if (medication) await updateMedication.mutateAsync({ id: medication.id, input });
      else await addMedication.mutateAsync(input);
      notify.success(t(SAVED[mode]));
      onClose();
    } catch (error) {
      // SPEC §8: a browser alert with the screen's text; the same text (and the server's reason,
      // when it gave one) also stays in the dialog, announced, once the alert is dismissed.
      const reason = serverMessage(error);
      const failed = t(FAILED[mode]);
      setFailure(reason ? `${failed} ${reason}` : failed);
      window.alert(failed);
    }
  });

  const title = mode === 'add' ? t`Add Medication` : t`Edit Medication`;
  return (
    <Modal
      open
      onClose={isSubmitting ? () => undefined : onClose}
      closeOnBackdrop={!isSubmitting}
      title={title}
      description={t`All fields are required.`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={isSubmitting}>
            {t`Cancel`}
          </Button>
          <Button type="submit" form={formId} disabled={isSubmitting}>
            {isSubmitting ? t`Saving...` : mode === 'add' ? t`Add Medication` : t`Save Changes`}
          </Button>
        </>
      }
    >
      {/* noValidate: the checks are ours (with messages tied to each field), not the browser's. */}
      <form id={formId} onSubmit={onSubmit} noValidate className="grid gap-4 sm:grid-cols-2" aria-busy={isSubmitting}>
        <Field
          label={t`Medication Name`}
          autoComplete="off"
          required
          containerClassName="sm:col-span-2"
          error={errors.medication_name?.message}
          {...register('medication_name')}
        />
        <Field
          label={t`Dosage`}
          placeholder={t({ message: 'e.g. 10 mg', comment: 'Example of a dosage' })}
          required
          autoComplete="off"
          error={errors.dosage?.message}
          {...register('dosage')}
        />
        <Field
          label={t`Frequency`}
          placeholder={t({ message: 'e.g. Once daily', comment: 'Example of how often a medication is taken' })}
          required
          autoComplete="off"
          error={errors.frequency?.message}
          {...register('frequency')}
        />
        <Field
          label={t`Purpose`}
          placeholder={t({ message: 'e.g. Blood pressure', comment: 'Example of what a medication is for' })}
          required
          autoComplete="off"
          containerClassName="sm:col-span-2"
          error={errors.purpose?.message}
          {...register('purpose')}
        />
        <Field label={t`Start Date`} type="date" required error={errors.start_date?.message} {...register('start_date')} />
        <div className="flex items-center gap-3 sm:self-end sm:pb-2">
          <input
            id={checkboxId}
            type="checkbox"
            className="size-5 rounded border-slate-400 accent-brand-700"
            {...register('is_current', {
              onChange: () => {
                // Someone who stops taking it most likely stopped today; they can change it.
                if (!getValues('is_current') && getValues('end_date') === '') setValue('end_date', localToday());
              },
            })}
          />
          <label htmlFor={checkboxId} className="text-sm font-medium text-slate-800">
            <Trans>Currently Taking</Trans>
          </label>
        </div>
        {isCurrent ? null : (
          <Field
            label={t`End Date`}
            type="date"
            required
            min={watch('start_date') || undefined}
            error={errors.end_date?.message}
            {...register('end_date')}
          />
        )}
        {failure ? <AlertMessage className="text-sm sm:col-span-2">{failure}</AlertMessage> : null}
      </form>
    </Modal>
  );
}
