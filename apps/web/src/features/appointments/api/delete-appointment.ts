import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageSchema } from '@kinchart/shared/common';
import { api } from '../../../lib/api-client';
import { appointmentsQueryKey } from './get-appointments';

/** DELETE /api/user/appointments/{appointment_id}. */
export async function deleteAppointment(appointmentId: string): Promise<void> {
  messageSchema.parse(await api.delete(`/api/user/appointments/${encodeURIComponent(appointmentId)}`));
}

/** SPEC §4 Appointments: after a successful delete the list reloads. */
export function useDeleteAppointment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAppointment,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: appointmentsQueryKey }),
    // SPEC §8: failures are only logged.
    onError: (error) => console.error('Error deleting appointment:', error),
  });
}
