import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { scheduleSchema, type Schedule } from '@kinchart/shared/care';
import { ApiError, api } from '../../../lib/api-client';

/*
 * Issue 32: a medication's schedule, per person (DESIGN §11, §13). A medication without one answers
 * 404 "Schedule not found", which here is `null`: nothing scheduled, not a failure.
 */

/** Every schedule of one person: invalidate it when a dose taken changes a quantity on hand. */
export const personSchedulesQueryKey = (personId: string) => ['schedules', personId] as const;
export const scheduleQueryKey = (personId: string, medicationId: string) => [...personSchedulesQueryKey(personId), medicationId] as const;

/** The path of a medication's schedule. */
export function schedulePath(personId: string, medicationId: string): string {
  return `/api/user/people/${encodeURIComponent(personId)}/medications/${encodeURIComponent(medicationId)}/schedule`;
}

/** GET /api/user/people/{personId}/medications/{medicationId}/schedule → the schedule, or null when there is none. */
export async function getSchedule(personId: string, medicationId: string): Promise<Schedule | null> {
  try {
    return scheduleSchema.parse(await api.get(schedulePath(personId, medicationId)));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export const scheduleQueryOptions = (personId: string, medicationId: string) =>
  queryOptions({ queryKey: scheduleQueryKey(personId, medicationId), queryFn: () => getSchedule(personId, medicationId) });

/** One medication's schedule; idle until the person is known. */
export function useSchedule(personId: string | null, medicationId: string) {
  return useQuery({ ...scheduleQueryOptions(personId ?? '', medicationId), enabled: personId !== null });
}

/** The schedules of several medications of several people (the dashboard's as-needed medications). */
export function useSchedules(items: readonly { personId: string; medicationId: string }[]) {
  return useQueries({ queries: items.map(({ personId, medicationId }) => scheduleQueryOptions(personId, medicationId)) });
}
