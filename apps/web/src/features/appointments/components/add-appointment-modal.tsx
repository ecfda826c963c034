import { useEffect, useId, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { useAddAppointment } from '../api/add-appointment';
import { EMPTY_APPOINTMENT_FORM, toAppointmentInput, type AppointmentFormValues } from '../utils/appointment-form';

export interface AddAppointmentModalProps {
  open: boolean;
  onClose: () => void;
}

/** The 'Add New Appointment' modal (SPEC §2). Mounted on opening, so every opening starts empty. */
export function AddAppointmentModal(props: AddAppointmentModalProps) {
  if (!props.open) return null;
  return <AddAppointmentDialog {...props} />;
}

const END_BEFORE_START = 'End time cannot be before the start time';

function AddAppointmentDialog({ onClose }: AddAppointmentModalProps) {
  const formId = useId();
  const addAppointment = useAddAppointment();
  const busy = addAppointment.isPending;
  const { register, handleSubmit, reset, watch } = useForm<AppointmentFormValues>({ defaultValues: EMPTY_APPOINTMENT_FORM });

  // SPEC §5: date, start time, end time and provider name are required through the browser's own
  // `required` checks only. The server also refuses an end before the start; say so the same way,
  // before sending, since a failed add is otherwise only logged (SPEC §8).
  const endTimeRef = useRef<HTMLInputElement | null>(null);
  const startTime = watch('start_time');
  const endTime = watch('end_time');
  useEffect(() => {
    endTimeRef.current?.setCustomValidity(startTime && endTime && endTime < startTime ? END_BEFORE_START : '');
  }, [startTime, endTime]);
  const endTimeField = register('end_time');

  const onSubmit = handleSubmit(async (values) => {
    try {
      await addAppointment.mutateAsync(toAppointmentInput(values));
    } catch {
      return; // logged by the mutation; the form stays as it was (SPEC §8)
    }
    // SPEC §4: after a successful add the form resets and the modal closes (the list reloads).
    reset(EMPTY_APPOINTMENT_FORM);
    onClose();
  });

  return (
    <Modal
      open
      onClose={onClose}
      closeOnBackdrop={!busy}
      title="Add New Appointment"
      closeLabel="Close"
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" form={formId} disabled={busy}>
            {busy ? 'Adding...' : 'Add Appointment'}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2" aria-busy={busy}>
        <Field label="Date" type="date" required containerClassName="sm:col-span-2" {...register('appointment_date')} />
        <Field label="Start Time" type="time" required {...register('start_time')} />
        <Field
          label="End Time"
          type="time"
          required
          {...endTimeField}
          ref={(element) => {
            endTimeField.ref(element);
            endTimeRef.current = element;
          }}
        />
        <Field
          label="Provider Name"
          required
          autoComplete="off"
          containerClassName="sm:col-span-2"
          {...register('provider_name')}
        />
        <Field label="Reason for Visit" autoComplete="off" containerClassName="sm:col-span-2" {...register('reason_for_visit')} />
        <Field label="Location" autoComplete="off" containerClassName="sm:col-span-2" {...register('location')} />
      </form>
    </Modal>
  );
}
