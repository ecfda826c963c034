import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { appointmentInputSchema, appointmentResponseSchema, appointmentSchema } from '@kinchart/shared/appointments';
import { messageSchema } from '@kinchart/shared/common';
import { currentUser } from '../../plugins/session';
import type { AppointmentService } from './appointment.service';

const idParams = z.object({ appointment_id: z.string().max(64) });

// SPEC §7 Appointments, and their iCalendar file.
export async function appointmentRoutes(app: FastifyInstance, opts: { appointments: AppointmentService; requireUser: (r: FastifyRequest) => Promise<void> }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { appointments } = opts;
  app.addHook('onRequest', opts.requireUser);

  r.get('/api/user/appointments', { schema: { response: { 200: z.array(appointmentSchema) } } }, async (request) =>
    appointments.list(currentUser(request).id),
  );

  r.post(
    '/api/user/appointments',
    { schema: { body: appointmentInputSchema, response: { 201: appointmentResponseSchema } } },
    async (request, reply) => {
      const created = await appointments.create(currentUser(request).id, request.body);
      return reply.code(201).send({ ...created, message: 'Appointment added successfully!' });
    },
  );

  r.put(
    '/api/user/appointments/:appointment_id',
    { schema: { params: idParams, body: appointmentInputSchema, response: { 200: appointmentResponseSchema } } },
    async (request) => {
      const updated = await appointments.update(currentUser(request).id, request.params.appointment_id, request.body);
      return { ...updated, message: 'Appointment updated successfully!' };
    },
  );

  r.delete('/api/user/appointments/:appointment_id', { schema: { params: idParams, response: { 200: messageSchema } } }, async (request) => {
    await appointments.remove(currentUser(request).id, request.params.appointment_id);
    return { message: 'Appointment deleted successfully' };
  });

  r.get('/api/user/appointments.ics', { schema: { querystring: z.object({ tz: z.string().max(64).optional() }) } }, async (request, reply) => {
    const ics = await appointments.calendar(currentUser(request).id, request.query.tz);
    return reply
      .header('Content-Type', 'text/calendar; charset=utf-8')
      .header('Content-Disposition', 'attachment; filename="kinchart-appointments.ics"')
      .send(ics);
  });
}
