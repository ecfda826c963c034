import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useMemo } from 'react';
import { Link } from 'react-router';
import { appointmentTitle, type Appointment } from '@kinchart/shared/appointments';
import { QueryState } from '../../../components/query-state';
import { useAppointments } from '../api/get-appointments';
import { formatDatePart, formatLongDate, formatTimeRange, toCalendarEvent } from '../utils/calendar-events';

/** How many upcoming appointments the dashboard lists. */
export const UPCOMING_LIMIT = 5;

/** Appointments not over yet at `now`, soonest first, at most `limit`. */
export function upcomingAppointments(list: readonly Appointment[], now: Date, limit = UPCOMING_LIMIT) {
  return list
    .map((appointment) => toCalendarEvent(appointment))
    .filter((event) => event.end >= now)
    .sort((a, b) => a.start.getTime() - b.start.getTime())
    .slice(0, limit);
}

/** "9:30 AM – 10:00 AM", or "All day" for an appointment without times (SPEC §3 fills the day). */
function timeText(appointment: Appointment, start: Date, end: Date): string {
  if (!appointment.start_time && !appointment.end_time) return t`All day`;
  return formatTimeRange(start, end);
}

export interface UpcomingAppointmentsProps {
  /** Whose appointments (the person selected on the dashboard); everyone's without one. */
  personId?: string | undefined;
}

/**
 * The dashboard's "Upcoming appointments" (DESIGN §11): the selected person's next appointments,
 * soonest first, with a link to the calendar.
 */
export function UpcomingAppointments({ personId }: UpcomingAppointmentsProps) {
  const { t } = useLingui();
  const headingId = useId();
  const appointments = useAppointments(personId);
  const upcoming = useMemo(() => upcomingAppointments(appointments.data ?? [], new Date()), [appointments.data]);
  const calendarHref = personId ? `/appointments?${new URLSearchParams({ person: personId }).toString()}` : '/appointments';

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={headingId} className="text-xl font-semibold text-slate-900">
          <Trans>Upcoming appointments</Trans>
        </h2>
        <Link to={calendarHref} className="rounded-md px-2 py-1 text-sm font-semibold text-brand-700 underline hover:text-brand-900">
          <Trans>View All Appointments</Trans>
        </Link>
      </div>
      <QueryState
        query={appointments}
        loading={t`Loading appointments...`}
        error={t`Appointments could not be loaded.`}
        isEmpty={() => upcoming.length === 0}
        empty={
          <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-6 text-center text-slate-700">
            <Trans>No upcoming appointments</Trans>
          </p>
        }
      >
        {() => (
          <ul aria-labelledby={headingId} className="grid gap-3 md:grid-cols-2 xl:grid-cols-3">
            {upcoming.map(({ appointment, start, end }) => (
              <li key={appointment.appointment_id} className="flex gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
                {/* The date as a calendar leaf for the eye; screen readers get it written out below. */}
                <p aria-hidden="true" className="flex w-14 shrink-0 flex-col items-center rounded-lg bg-brand-50 py-1 text-brand-900">
                  <span className="text-xs font-semibold uppercase">{formatDatePart(start, { month: 'short' })}</span>
                  <span className="text-xl leading-tight font-bold">{formatDatePart(start, { day: 'numeric' })}</span>
                  <span className="text-xs">{formatDatePart(start, { weekday: 'short' })}</span>
                </p>
                <div className="flex min-w-0 flex-col gap-0.5 text-sm">
                  <p className="sr-only">{formatLongDate(start)}</p>
                  <p dir="auto" className="font-semibold break-words text-slate-900">
                    {appointmentTitle(appointment)}
                  </p>
                  <p className="text-slate-700">{timeText(appointment, start, end)}</p>
                  {appointment.location ? <p className="break-words text-slate-700">{appointment.location}</p> : null}
                </div>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  );
}
