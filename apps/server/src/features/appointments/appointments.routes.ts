import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { appointmentInputSchema, appointmentResponseSchema, appointmentSchema } from '@kinchart/shared/appointments';
import { messageSchema } from '@kinchart/shared/common';
import { personFilterSchema } from '@kinchart/shared/people';
import { actorOf, needOf } from '../../common/request-actor';
import type { AppointmentService } from './appointment.service';

const idParams = z.object({ appointment_id: z.string().max(64) });

// SPEC §7 Appointments, and their iCalendar file. Each appointment belongs to a person; the service
// asks the one access function about that person (DESIGN §11).
export async function appointmentRoutes(
  app: FastifyInstance,
  opts: { appointments: AppointmentService; requireUser: (r: FastifyRequest) => Promise<void> },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { appointments } = opts;
  app.addHook('onRequest', opts.requireUser);
  /** The route's name for the owner's access history (the service knows which role it needs). */
  const route = (request: FastifyRequest) => needOf(request, 'viewer').what;

  // Every visible person's appointments; `?person=` one person's.
  r.get(
    '/api/user/appointments',
    { schema: { querystring: personFilterSchema, response: { 200: z.array(appointmentSchema) } } },
    async (request) => appointments.list(actorOf(request), route(request), request.query.person),
  );

  r.post(
    '/api/user/appointments',
    { schema: { body: appointmentInputSchema, response: { 201: appointmentResponseSchema } } },
    async (request, reply) => {
      const created = await appointments.create(actorOf(request), route(request), request.body);
      return reply.code(201).send({ ...created, message: 'Appointment added successfully!' });
    },
  );

  r.put(
    '/api/user/appointments/:appointment_id',
    { schema: { params: idParams, body: appointmentInputSchema, response: { 200: appointmentResponseSchema } } },
    async (request) => {
      const updated = await appointments.update(actorOf(request), route(request), request.params.appointment_id, request.body);
      return { ...updated, message: 'Appointment updated successfully!' };
    },
  );

  r.delete(
    '/api/user/appointments/:appointment_id',
    { schema: { params: idParams, response: { 200: messageSchema } } },
    async (request) => {
      await appointments.remove(actorOf(request), route(request), request.params.appointment_id);
      return { message: 'Appointment deleted successfully' };
    },
  );

  r.get(
    '/api/user/appointments.ics',
    { schema: { querystring: z.object({ tz: z.string().max(64).optional() }) } },
    async (request, reply) => {
      const ics = await appointments.calendar(actorOf(request), route(request), request.query.tz);
      return reply
        .header('Content-Type', 'text/calendar; charset=utf-8')
        .header('Content-Disposition', 'attachment; filename="kinchart-appointments.ics"')
        .send(ics);
    },
  );
}
