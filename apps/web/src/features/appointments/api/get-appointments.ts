import { queryOptions, useQuery } from '@tanstack/react-query';
import { appointmentSchema, type Appointment } from '@kinchart/shared/appointments';
import { api } from '../../../lib/api-client';

export const appointmentsQueryKey = ['appointments'] as const;

/** GET /api/user/appointments. */
export async function getAppointments(): Promise<Appointment[]> {
  return appointmentSchema.array().parse(await api.get('/api/user/appointments'));
}

export const appointmentsQueryOptions = queryOptions({
  queryKey: appointmentsQueryKey,
  queryFn: async () => {
    try {
      return await getAppointments();
    } catch (error) {
      // SPEC §8: a failed load is only logged; the calendar simply shows no appointments.
      console.error('Error fetching appointments:', error);
      throw error;
    }
  },
});

export function useAppointments() {
  return useQuery(appointmentsQueryOptions);
}
