import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import type { Appointment } from '@kinchart/shared/appointments';
import { Button, buttonClassName } from '../../../components/ui/button';
import { PageHeader } from '../../../components/ui/page-header';
import { appointmentsIcsUrl } from '../api/appointments-ics';
import { useAppointments } from '../api/get-appointments';
import { AppointmentFormModal } from '../components/appointment-form-modal';
import { AppointmentDetailsModal } from '../components/appointment-details-modal';
import { toCalendarEvent, type AppointmentEvent } from '../utils/calendar-events';

// DESIGN §8: the calendar is its own chunk; the page shell (title, buttons) renders first.
const AppointmentsCalendar = lazy(async () => ({
  default: (await import('../components/appointments-calendar')).AppointmentsCalendar,
}));

const NO_APPOINTMENTS: Appointment[] = [];

/** /appointments (SPEC §2): the calendar, the add and edit modals and the details modal. */
export function AppointmentsPage() {
  const appointments = useAppointments();
  const [adding, setAdding] = useState(false);
  const [selected, setSelected] = useState<Appointment | null>(null);
  const [editing, setEditing] = useState<Appointment | null>(null);

  // A failed load is only logged (SPEC §8); the calendar then simply has nothing in it.
  const list = appointments.data ?? NO_APPOINTMENTS;
  const events = useMemo(() => list.map(toCalendarEvent), [list]);
  const onSelectEvent = useCallback((event: AppointmentEvent) => setSelected(event.appointment), []);

  return (
    <>
      <PageHeader
        title="Appointments"
        subtitle="Manage your healthcare appointments"
        actions={
          <>
            <a href={appointmentsIcsUrl()} download className={buttonClassName('secondary')}>
              Download calendar (.ics)
            </a>
            <Button onClick={() => setAdding(true)}>Add New Appointment</Button>
          </>
        }
      />
      <section aria-label="Appointments calendar" aria-busy={appointments.isPending}>
        <Suspense
          fallback={
            <div className="flex h-[700px] items-center justify-center rounded-xl border border-slate-200 bg-white text-slate-700">
              Loading calendar...
            </div>
          }
        >
          <AppointmentsCalendar events={events} onSelectEvent={onSelectEvent} />
        </Suspense>
      </section>
      <AppointmentFormModal open={adding} onClose={() => setAdding(false)} />
      <AppointmentFormModal open={editing !== null} appointment={editing} onClose={() => setEditing(null)} />
      <AppointmentDetailsModal
        appointment={selected}
        onClose={() => setSelected(null)}
        onEdit={(appointment) => {
          // The form takes the details' place; it closes back to the calendar.
          setSelected(null);
          setEditing(appointment);
        }}
      />
    </>
  );
}
