import { queryOptions, useQuery } from '@tanstack/react-query';
import { reminderSettingsSchema, type ReminderSettings } from '@kinchart/shared/care';
import { api } from '../../../lib/api-client';

export const reminderSettingsQueryKey = (personId: string) => ['reminder-settings', personId] as const;

export const reminderSettingsPath = (personId: string) => `/api/user/people/${encodeURIComponent(personId)}/reminder-settings`;

/**
 * GET /api/user/people/{personId}/reminder-settings (issue 32): what this user is told about this
 * person — dose reminders, missed-dose alerts, appointment reminders. Any role may read its own.
 */
export async function getReminderSettings(personId: string): Promise<ReminderSettings> {
  return reminderSettingsSchema.parse(await api.get(reminderSettingsPath(personId)));
}

/** Idle while there is no person. */
export function useReminderSettings(personId: string | null) {
  return useQuery({
    ...queryOptions({ queryKey: reminderSettingsQueryKey(personId ?? ''), queryFn: () => getReminderSettings(personId ?? '') }),
    enabled: personId !== null,
  });
}
