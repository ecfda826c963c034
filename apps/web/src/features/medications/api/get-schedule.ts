import { queryOptions, useQuery } from '@tanstack/react-query';
import { schedulesSchema, type Schedule } from '@kinchart/shared/care';
import { api } from '../../../lib/api-client';

/*
 * Issue 32: the schedules of a person's medications (DESIGN §11, §13), read in one request per
 * person; a medication without a schedule is simply not in the list (null here).
 */

/** Every schedule of one person: invalidate it when a dose taken changes a quantity on hand. */
export const personSchedulesQueryKey = (personId: string) => ['schedules', personId] as const;

/** The path of a medication's schedule (PUT and DELETE). */
export function schedulePath(personId: string, medicationId: string): string {
  return `/api/user/people/${encodeURIComponent(personId)}/medications/${encodeURIComponent(medicationId)}/schedule`;
}

/** GET /api/user/people/{personId}/schedules → every schedule of the person's medications. */
async function getPersonSchedules(personId: string): Promise<Schedule[]> {
  return schedulesSchema.parse(await api.get(`/api/user/people/${encodeURIComponent(personId)}/schedules`)).schedules;
}

const personSchedulesQueryOptions = (personId: string) =>
  queryOptions({ queryKey: personSchedulesQueryKey(personId), queryFn: () => getPersonSchedules(personId) });

const scheduleOf = (schedules: Schedule[], medicationId: string): Schedule | null =>
  schedules.find((s) => s.medication_id === medicationId) ?? null;

/** One medication's schedule (null when it has none), from its person's list; idle until the person is known. */
export function useSchedule(personId: string | null, medicationId: string) {
  return useQuery({
    ...personSchedulesQueryOptions(personId ?? ''),
    enabled: personId !== null,
    select: (schedules) => scheduleOf(schedules, medicationId),
  });
}

/** Every schedule of one person (the dashboard's as-needed medications). */
export function usePersonSchedules(personId: string) {
  return useQuery(personSchedulesQueryOptions(personId));
}

/** Writes a stored (or removed) schedule into its person's cached list. */
export function replaceCachedSchedule(
  list: Schedule[] | undefined,
  medicationId: string,
  schedule: Schedule | null,
): Schedule[] | undefined {
  if (!list) return list;
  const others = list.filter((s) => s.medication_id !== medicationId);
  return schedule ? [...others, schedule] : others;
}
