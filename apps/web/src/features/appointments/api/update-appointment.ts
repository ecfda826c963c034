import { useMutation, useQueryClient } from '@tanstack/react-query';
import { appointmentResponseSchema, type AppointmentInput } from '@kinchart/shared/appointments';
import { api } from '../../../lib/api-client';
import { appointmentsQueryKey } from './get-appointments';

/** PUT /api/user/appointments/{appointment_id}: the same body as adding, every field replaced. */
export async function updateAppointment({ appointmentId, input }: { appointmentId: string; input: AppointmentInput }): Promise<void> {
  appointmentResponseSchema.parse(await api.put(`/api/user/appointments/${encodeURIComponent(appointmentId)}`, input));
}

/** After a successful edit the list reloads, as after an add (SPEC §4 Appointments). */
export function useUpdateAppointment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAppointment,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: appointmentsQueryKey }),
    onError: (error) => console.error('Error updating appointment:', error),
  });
}
