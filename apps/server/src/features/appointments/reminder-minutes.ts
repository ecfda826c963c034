import { DEFAULT_REMINDER_MINUTES, reminderMinutesSchema } from '@kinchart/shared/care';

/**
 * An appointment's reminder lead times from its column (JSON text of minutes, migration 0022):
 * null, or anything that is not a valid list, is the default [1440, 120] (issue 32).
 */
export function reminderMinutesOf(column: string | null): number[] {
  if (column === null) return [...DEFAULT_REMINDER_MINUTES];
  try {
    const parsed = reminderMinutesSchema.safeParse(JSON.parse(column));
    return parsed.success ? parsed.data : [...DEFAULT_REMINDER_MINUTES];
  } catch {
    return [...DEFAULT_REMINDER_MINUTES];
  }
}
