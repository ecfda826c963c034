import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { Appointment } from '@kinchart/shared/appointments';
import { DEFAULT_REMINDER_MINUTES } from '@kinchart/shared/care';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { PersonSelect } from '../../../components/ui/person-select';
import { personNameOf, useForPerson } from '../../../lib/person-choice';
import { useAddAppointment } from '../api/add-appointment';
import { useUpdateAppointment } from '../api/update-appointment';
import {
  EMPTY_APPOINTMENT_FORM,
  appointmentFailureReason,
  toAppointmentFormValues,
  toAppointmentInput,
  type AppointmentFormValues,
} from '../utils/appointment-form';
import { ReminderChoices } from './reminder-choices';

export interface AppointmentFormModalProps {
  open: boolean;
  onClose: () => void;
  /** The appointment to edit; without one the modal adds a new appointment. */
  appointment?: Appointment | null;
  /** Adding: the person the "For" choice starts on (else the dashboard's choice, else yourself). */
  personId?: string | null;
}

/**
 * The 'Add New Appointment' modal (SPEC §2) and its edit twin, which takes the same fields and
 * sends the same body with PUT. Mounted on opening, so every opening starts from the appointment
 * (or empty).
 */
export function AppointmentFormModal(props: AppointmentFormModalProps) {
  if (!props.open) return null;
  return <AppointmentFormDialog key={props.appointment?.appointment_id ?? 'new'} {...props} />;
}

function AppointmentFormDialog({ onClose, appointment, personId }: AppointmentFormModalProps) {
  const { t } = useLingui();
  const formId = useId();
  // DESIGN §11: whose appointment a new one is. An edit keeps the appointment's person.
  const forPerson = useForPerson(personId);
  const addAppointment = useAddAppointment();
  const updateAppointment = useUpdateAppointment();
  const editing = Boolean(appointment);
  const busy = addAppointment.isPending || updateAppointment.isPending;
  const [failure, setFailure] = useState<string | null>(null);
  // Issue 32: the reminder lead times, a day and two hours before unless chosen otherwise.
  const [reminders, setReminders] = useState<number[]>(() => [...(appointment?.reminder_minutes ?? DEFAULT_REMINDER_MINUTES)]);
  const { register, handleSubmit, reset, watch } = useForm<AppointmentFormValues>({
    defaultValues: appointment ? toAppointmentFormValues(appointment) : EMPTY_APPOINTMENT_FORM,
  });

  // SPEC §5: date, start time, end time and provider name are required through the browser's own
  // `required` checks only. The server also refuses an end before the start; say so the same way,
  // before sending.
  const endTimeRef = useRef<HTMLInputElement | null>(null);
  const startTime = watch('start_time');
  const endTime = watch('end_time');
  const endBeforeStart = t`End time cannot be before the start time`;
  useEffect(() => {
    endTimeRef.current?.setCustomValidity(startTime && endTime && endTime < startTime ? endBeforeStart : '');
  }, [startTime, endTime, endBeforeStart]);
  const endTimeField = register('end_time');

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    const input = { ...toAppointmentInput(values), reminder_minutes: reminders };
    try {
      if (appointment) await updateAppointment.mutateAsync({ appointmentId: appointment.appointment_id, input });
      else await addAppointment.mutateAsync(forPerson.value ? { ...input, person_id: forPerson.value } : input);
    } catch (error) {
      // SPEC §8 only logs a failed add (the mutation still does), which left a user whose
      // server was unreachable pressing a button that did nothing: say so here, and keep
      // everything typed so a retry is one press.
      setFailure(appointmentFailureReason(error));
      return;
    }
    // SPEC §4: after a successful add the form resets and the modal closes (the list reloads).
    reset(EMPTY_APPOINTMENT_FORM);
    onClose();
  });

  const whose = appointment ? (personNameOf(forPerson.people, appointment.person_id, appointment.person_name) ?? t`Unknown person`) : '';

  return (
    <Modal
      open
      onClose={busy ? () => undefined : onClose}
      closeOnBackdrop={!busy}
      title={editing ? t`Edit Appointment` : t`Add New Appointment`}
      closeLabel={t`Close`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" form={formId} disabled={busy}>
            {editing ? (busy ? t`Saving...` : t`Save Changes`) : busy ? t`Adding...` : t`Add Appointment`}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2" aria-busy={busy}>
        {appointment && forPerson.showChoice ? (
          // An edit keeps the appointment's person: say whose it is.
          <p className="text-sm text-slate-700 sm:col-span-2">
            <Trans comment="Whose appointment this is">
              For <strong className="font-semibold text-slate-900">{whose}</strong>
            </Trans>
          </p>
        ) : null}
        {!editing && forPerson.showChoice ? (
          <PersonSelect
            label={t({ message: 'For', comment: 'Whose appointment this is: a person chosen from the list' })}
            people={forPerson.people}
            value={forPerson.value ?? ''}
            onChange={forPerson.onChange}
            disabled={busy}
            containerClassName="sm:col-span-2"
          />
        ) : null}
        <Field label={t`Date`} type="date" required containerClassName="sm:col-span-2" {...register('appointment_date')} />
        <Field label={t`Start Time`} type="time" required {...register('start_time')} />
        <Field
          label={t`End Time`}
          type="time"
          required
          {...endTimeField}
          ref={(element) => {
            endTimeField.ref(element);
            endTimeRef.current = element;
          }}
        />
        <Field label={t`Provider Name`} required autoComplete="off" containerClassName="sm:col-span-2" {...register('provider_name')} />
        <Field label={t`Reason for Visit`} autoComplete="off" containerClassName="sm:col-span-2" {...register('reason_for_visit')} />
        <Field label={t`Location`} autoComplete="off" containerClassName="sm:col-span-2" {...register('location')} />
        <ReminderChoices value={reminders} onChange={setReminders} disabled={busy} className="sm:col-span-2" />
        {failure ? (
          <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 font-medium text-red-700 sm:col-span-2">
            <Trans>The appointment could not be saved. {failure}</Trans>
          </p>
        ) : null}
      </form>
    </Modal>
  );
}
