import { appointmentSpan, appointmentTitle, type AppointmentFields } from '@kinchart/shared/appointments';
import type { Db } from '../../db/database';
import { badRequest, notFound } from '../../lib/http-errors';
import { createAppointmentRepository, type AppointmentRow } from './appointment.repository';
import { buildCalendar, isValidTimeZone, toInstant } from './ics';

/** SPEC §7 Appointments: the answer carries the id twice, as `id` and `appointment_id`. */
const toAnswer = (row: AppointmentRow) => ({ ...row, appointment_id: row.id });

const NOT_FOUND = 'Appointment not found';

/**
 * A user's appointments and their calendar file. Another user's id is the same 404 as a missing
 * one (DESIGN §4); editing takes the same input and rules as adding.
 */
export function createAppointmentService(deps: { db: Db }) {
  const repo = createAppointmentRepository(deps.db);
  return {
    async list(userId: string) {
      return (await repo.list(userId)).map(toAnswer);
    },

    async create(userId: string, input: AppointmentFields) {
      return toAnswer(await repo.create(userId, input));
    },

    async update(userId: string, id: string, input: AppointmentFields) {
      const row = await repo.update(userId, id, input);
      if (!row) throw notFound(NOT_FOUND);
      return toAnswer(row);
    },

    async remove(userId: string, id: string): Promise<void> {
      if (!(await repo.delete(userId, id))) throw notFound(NOT_FOUND);
    },

    /**
     * The user's appointments as an iCalendar file. Wall-clock times are placed in `timeZone` (the
     * web app sends the browser's) and written in UTC.
     */
    async calendar(userId: string, timeZone = 'UTC'): Promise<string> {
      if (!isValidTimeZone(timeZone)) throw badRequest('tz must be an IANA time zone such as Europe/London');
      const rows = await repo.list(userId);
      return buildCalendar(
        rows.map((a) => {
          const span = appointmentSpan(a);
          return {
            uid: a.uid,
            start: toInstant(span.start, timeZone),
            end: toInstant(span.end, timeZone),
            summary: appointmentTitle(a),
            location: a.location,
            description: a.reason_for_visit,
          };
        }),
      );
    },
  };
}

export type AppointmentService = ReturnType<typeof createAppointmentService>;
