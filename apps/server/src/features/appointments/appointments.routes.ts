import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { appointmentInputSchema, appointmentSchema, appointmentSpan, appointmentTitle } from '@kinchart/shared/appointments';
import { messageSchema } from '@kinchart/shared/common';
import type { Db } from '../../db/database';
import { currentUser } from '../../plugins/session';
import { badRequest, notFound } from '../../lib/http-errors';
import type { AppointmentRow } from './appointment.repository';
import { createAppointmentRepository } from './appointment.repository';
import { buildCalendar, isValidTimeZone, toInstant } from './ics';

const toApi = (row: AppointmentRow) => ({ ...row, appointment_id: row.id });

// SPEC §7 Appointments, plus the calendar export of the Step 5 issue.
export async function appointmentRoutes(app: FastifyInstance, opts: { db: Db; requireUser: (r: FastifyRequest) => Promise<void> }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const repo = createAppointmentRepository(opts.db);
  app.addHook('onRequest', opts.requireUser);

  r.get('/api/user/appointments', { schema: { response: { 200: z.array(appointmentSchema) } } }, async (request) =>
    (await repo.list(currentUser(request).id)).map(toApi),
  );

  r.post(
    '/api/user/appointments',
    { schema: { body: appointmentInputSchema, response: { 201: appointmentSchema.extend({ message: z.string() }) } } },
    async (request, reply) => {
      const row = await repo.create(currentUser(request).id, request.body);
      return reply.code(201).send({ ...toApi(row), message: 'Appointment added successfully!' });
    },
  );

  // Editing takes the same body and the same rules as adding; another user's id is the same 404
  // as a missing one (DESIGN §4).
  r.put(
    '/api/user/appointments/:appointment_id',
    {
      schema: {
        params: z.object({ appointment_id: z.string().max(64) }),
        body: appointmentInputSchema,
        response: { 200: appointmentSchema.extend({ message: z.string() }) },
      },
    },
    async (request) => {
      const row = await repo.update(currentUser(request).id, request.params.appointment_id, request.body);
      if (!row) throw notFound('Appointment not found');
      return { ...toApi(row), message: 'Appointment updated successfully!' };
    },
  );

  r.delete(
    '/api/user/appointments/:appointment_id',
    { schema: { params: z.object({ appointment_id: z.string().max(64) }), response: { 200: messageSchema } } },
    async (request) => {
      if (!(await repo.delete(currentUser(request).id, request.params.appointment_id))) throw notFound('Appointment not found');
      return { message: 'Appointment deleted successfully' };
    },
  );

  // Wall-clock times are placed in the caller's time zone (the web app sends it) and written in UTC.
  r.get(
    '/api/user/appointments.ics',
    { schema: { querystring: z.object({ tz: z.string().max(64).optional() }) } },
    async (request, reply) => {
      const tz = request.query.tz ?? 'UTC';
      if (!isValidTimeZone(tz)) throw badRequest('tz must be an IANA time zone such as Europe/London');
      const rows = await repo.list(currentUser(request).id);
      const ics = buildCalendar(
        rows.map((a) => {
          const span = appointmentSpan(a);
          return {
            uid: a.uid,
            start: toInstant(span.start, tz),
            end: toInstant(span.end, tz),
            summary: appointmentTitle(a),
            location: a.location,
            description: a.reason_for_visit,
          };
        }),
      );
      return reply
        .header('Content-Type', 'text/calendar; charset=utf-8')
        .header('Content-Disposition', 'attachment; filename="kinchart-appointments.ics"')
        .send(ics);
    },
  );
}
