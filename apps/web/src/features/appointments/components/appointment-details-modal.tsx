import type { Appointment } from '@kinchart/shared/appointments';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { useDeleteAppointment } from '../api/delete-appointment';
import { displayAppointmentDate, displayAppointmentTime } from '../utils/calendar-events';

export interface AppointmentDetailsModalProps {
  /** The selected appointment; the modal is closed while this is null (SPEC §4). */
  appointment: Appointment | null;
  onClose: () => void;
}

/** Opened by clicking an event: the appointment's details with Delete and Close (SPEC §2). */
export function AppointmentDetailsModal({ appointment, onClose }: AppointmentDetailsModalProps) {
  const deleteAppointment = useDeleteAppointment();
  const busy = deleteAppointment.isPending;
  if (!appointment) return null;

  const onDelete = async () => {
    try {
      await deleteAppointment.mutateAsync(appointment.appointment_id);
    } catch {
      return; // logged by the mutation; nothing else changes (SPEC §8)
    }
    onClose();
  };

  const rows: [string, string | null][] = [
    ['Date', displayAppointmentDate(appointment.appointment_date)],
    ['Start Time', displayAppointmentTime(appointment.start_time)],
    ['End Time', displayAppointmentTime(appointment.end_time)],
    ['Provider', appointment.provider_name],
    ['Reason for Visit', appointment.reason_for_visit],
    ['Location', appointment.location],
  ];

  return (
    <Modal
      open
      onClose={busy ? () => undefined : onClose}
      closeOnBackdrop={!busy}
      title="Appointment Details"
      closeLabel="Close appointment details"
      footer={
        <>
          <Button variant="danger" onClick={() => void onDelete()} disabled={busy}>
            {busy ? 'Deleting...' : 'Delete'}
          </Button>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Close
          </Button>
        </>
      }
    >
      <dl className="grid grid-cols-1 gap-x-6 gap-y-3 sm:grid-cols-[auto_1fr]">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-sm font-medium text-slate-600">{label}</dt>
            <dd className="-mt-2 break-words text-slate-900 sm:mt-0">{value || 'Not provided'}</dd>
          </div>
        ))}
      </dl>
    </Modal>
  );
}
