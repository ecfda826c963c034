import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AppointmentInput } from '@kinchart/shared/appointments';
import { api } from '../../../lib/api-client';
import { appointmentsQueryKey } from './get-appointments';

/** The add body: the spec's fields and whose appointment it is (DESIGN §11; without it, yours). */
export type NewAppointmentInput = AppointmentInput & { person_id?: string | null };

/** POST /api/user/appointments. SPEC §7: the answer is not read. */
export async function addAppointment(input: NewAppointmentInput): Promise<void> {
  const { person_id, ...fields } = input;
  await api.post('/api/user/appointments', person_id ? { ...fields, person_id } : fields);
}

/** SPEC §4 Appointments: after a successful add the list reloads. */
export function useAddAppointment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addAppointment,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: appointmentsQueryKey }),
    // SPEC §8: failures are only logged.
    onError: (error) => console.error('Error adding appointment:', error),
  });
}
