import { useMutation, useQueryClient } from '@tanstack/react-query';
import { reminderSettingsSchema, type ReminderSettings } from '@kinchart/shared/care';
import { api } from '../../../lib/api-client';
import { reminderSettingsPath, reminderSettingsQueryKey } from './get-reminder-settings';

/** PUT /api/user/people/{personId}/reminder-settings with the switches that changed → all three as stored. */
export async function updateReminderSettings(personId: string, change: Partial<ReminderSettings>): Promise<ReminderSettings> {
  return reminderSettingsSchema.parse(await api.put(reminderSettingsPath(personId), change));
}

export function useUpdateReminderSettings(personId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: Partial<ReminderSettings>) => updateReminderSettings(personId, change),
    onSuccess: (settings) => queryClient.setQueryData(reminderSettingsQueryKey(personId), settings),
  });
}
