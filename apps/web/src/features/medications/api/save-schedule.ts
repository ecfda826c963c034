import { useMutation, useQueryClient } from '@tanstack/react-query';
import { scheduleSchema, type Schedule, type ScheduleInput } from '@kinchart/shared/care';
import { api } from '../../../lib/api-client';
import { adherenceQueryPrefix } from './get-adherence';
import { dosesQueryPrefix } from './get-doses';
import { personSchedulesQueryKey, replaceCachedSchedule, schedulePath } from './get-schedule';

/** PUT /api/user/people/{personId}/medications/{medicationId}/schedule → the stored schedule (editor and up). */
export async function saveSchedule(personId: string, medicationId: string, input: ScheduleInput): Promise<Schedule> {
  return scheduleSchema.parse(await api.put(schedulePath(personId, medicationId), input));
}

/** Saving a schedule changes the person's doses and adherence: those are read again. */
export function useSaveSchedule(personId: string, medicationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ScheduleInput) => saveSchedule(personId, medicationId, input),
    onSuccess: (schedule) => {
      queryClient.setQueryData(personSchedulesQueryKey(personId), (list: Schedule[] | undefined) =>
        replaceCachedSchedule(list, medicationId, schedule),
      );
      void queryClient.invalidateQueries({ queryKey: dosesQueryPrefix(personId) });
      void queryClient.invalidateQueries({ queryKey: adherenceQueryPrefix(personId) });
    },
  });
}
