import { useMutation, useQueryClient } from '@tanstack/react-query';
import { appointmentResponseSchema, type AppointmentInput } from '@kinchart/shared/appointments';
import { api } from '../../../lib/api-client';
import { appointmentsQueryKey } from './get-appointments';

/**
 * POST /api/user/appointments. SPEC §7: the answer is not read — only checked against its schema.
 * `person_id` says whose appointment it is (DESIGN §11); without it, it is the user's own.
 */
export async function addAppointment(input: AppointmentInput): Promise<void> {
  appointmentResponseSchema.parse(await api.post('/api/user/appointments', input));
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
