import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState } from 'react';
import { appointmentTitle, type Appointment } from '@kinchart/shared/appointments';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Modal } from '../../../components/ui/modal';
import { useDeleteAppointment } from '../api/delete-appointment';
import { appointmentFailureReason } from '../utils/appointment-form';
import { displayAppointmentDate, displayAppointmentTime } from '../utils/calendar-events';

export interface AppointmentDetailsModalProps {
  /** The selected appointment; the modal is closed while this is null (SPEC §4). */
  appointment: Appointment | null;
  onClose: () => void;
  /** Opens the edit form for this appointment. */
  onEdit: (appointment: Appointment) => void;
  /** Whose appointment it is (DESIGN §11), shown when the user has more than one person. */
  personName?: string | null;
  /** False for a viewer of a shared person: no Edit, no Delete. */
  canEdit?: boolean;
}

/**
 * Opened by clicking an event: the appointment's details with Delete and Close (SPEC §2), and
 * Edit. Delete asks first, like every other deletion (SPEC §4 "Deletion dialogs").
 */
export function AppointmentDetailsModal({ appointment, ...props }: AppointmentDetailsModalProps) {
  if (!appointment) return null;
  return <AppointmentDetailsDialog key={appointment.appointment_id} appointment={appointment} {...props} />;
}

function AppointmentDetailsDialog({
  appointment,
  onClose,
  onEdit,
  personName = null,
  canEdit = true,
}: AppointmentDetailsModalProps & { appointment: Appointment }) {
  const { t } = useLingui();
  const deleteAppointment = useDeleteAppointment();
  const busy = deleteAppointment.isPending;
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // Focus starts on Close: the first action here is Delete, and Enter must never begin a deletion.
  const closeButtonRef = useRef<HTMLButtonElement>(null);

  const onDelete = async () => {
    setFailure(null);
    try {
      await deleteAppointment.mutateAsync(appointment.appointment_id);
    } catch (error) {
      // Logged by the mutation (SPEC §8); the details stay, with the reason.
      setConfirming(false);
      setFailure(appointmentFailureReason(error));
      return;
    }
    setConfirming(false);
    onClose();
  };

  const rows: [string, string | null][] = [];
  if (personName) rows.push([t`Person`, personName]);
  rows.push(
    [t`Date`, displayAppointmentDate(appointment.appointment_date)],
    [t`Start Time`, displayAppointmentTime(appointment.start_time)],
    [t`End Time`, displayAppointmentTime(appointment.end_time)],
    [t`Provider`, appointment.provider_name],
    [t`Reason for Visit`, appointment.reason_for_visit],
    [t`Location`, appointment.location],
  );
  const title = appointmentTitle(appointment);
  const date = displayAppointmentDate(appointment.appointment_date);

  return (
    <>
      <Modal
        open
        onClose={busy ? () => undefined : onClose}
        closeOnBackdrop={!busy}
        title={t`Appointment Details`}
        closeLabel={t`Close appointment details`}
        initialFocusRef={closeButtonRef}
        footer={
          <>
            {canEdit ? (
              <>
                <Button variant="danger" onClick={() => setConfirming(true)} disabled={busy}>
                  <Trans>Delete</Trans>
                </Button>
                <Button variant="secondary" onClick={() => onEdit(appointment)} disabled={busy}>
                  <Trans>Edit</Trans>
                </Button>
              </>
            ) : null}
            <Button ref={closeButtonRef} variant="secondary" onClick={onClose} disabled={busy}>
              <Trans>Close</Trans>
            </Button>
          </>
        }
      >
        <dl className="grid grid-cols-1 gap-x-6 gap-y-3 sm:grid-cols-[auto_1fr]">
          {rows.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="text-sm font-medium text-slate-600">{label}</dt>
              <dd className="-mt-2 break-words text-slate-900 sm:mt-0">{value || t`Not provided`}</dd>
            </div>
          ))}
        </dl>
        {failure ? (
          <p role="alert" className="mt-4 rounded-lg bg-red-50 px-3 py-2 font-medium text-red-700">
            <Trans>The appointment could not be deleted. {failure}</Trans>
          </p>
        ) : null}
      </Modal>
      <ConfirmDialog
        open={confirming}
        title={t`Delete Appointment`}
        message={t`Are you sure you want to delete the appointment "${title}" on ${date}? This action cannot be undone.`}
        onConfirm={() => void onDelete()}
        onCancel={() => setConfirming(false)}
        busy={busy}
      />
    </>
  );
}
