import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Schedule } from '@kinchart/shared/care';
import { api } from '../../../lib/api-client';
import { adherenceQueryPrefix } from './get-adherence';
import { dosesQueryPrefix } from './get-doses';
import { personSchedulesQueryKey, replaceCachedSchedule, schedulePath } from './get-schedule';

/** DELETE /api/user/people/{personId}/medications/{medicationId}/schedule (editor and up). */
export async function deleteSchedule(personId: string, medicationId: string): Promise<void> {
  await api.delete(schedulePath(personId, medicationId));
}

export function useDeleteSchedule(personId: string, medicationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteSchedule(personId, medicationId),
    onSuccess: () => {
      queryClient.setQueryData(personSchedulesQueryKey(personId), (list: Schedule[] | undefined) =>
        replaceCachedSchedule(list, medicationId, null),
      );
      void queryClient.invalidateQueries({ queryKey: dosesQueryPrefix(personId) });
      void queryClient.invalidateQueries({ queryKey: adherenceQueryPrefix(personId) });
    },
  });
}
