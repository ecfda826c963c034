import { queryOptions, useQuery } from '@tanstack/react-query';
import { appointmentSchema, type Appointment } from '@kinchart/shared/appointments';
import { api } from '../../../lib/api-client';

/** The prefix of every appointments query (everyone's and each person's): invalidate it after a change. */
export const appointmentsQueryKey = ['appointments'] as const;

/** One person's appointments, or everyone's (`personId` undefined). */
export const appointmentsOfQueryKey = (personId?: string) =>
  personId ? ([...appointmentsQueryKey, { person: personId }] as const) : appointmentsQueryKey;

/** GET /api/user/appointments, or GET /api/user/appointments?person={id} for one person's (DESIGN §11). */
export async function getAppointments(personId?: string): Promise<Appointment[]> {
  const path = personId ? `/api/user/appointments?${new URLSearchParams({ person: personId }).toString()}` : '/api/user/appointments';
  return appointmentSchema.array().parse(await api.get(path));
}

export const appointmentsQueryOptions = (personId?: string) =>
  queryOptions({
    queryKey: appointmentsOfQueryKey(personId),
    queryFn: async () => {
      try {
        return await getAppointments(personId);
      } catch (error) {
        // SPEC §8: a failed load is only logged; the calendar simply shows no appointments.
        console.error('Error fetching appointments:', error);
        throw error;
      }
    },
  });

/** Everyone's appointments, or one person's. */
export function useAppointments(personId?: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...appointmentsQueryOptions(personId), enabled });
}
