import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { dosesSchema, type Dose } from '@kinchart/shared/care';
import { api } from '../../../lib/api-client';

/** Every dose list of one person, whatever its dates. */
export const dosesQueryPrefix = (personId: string) => ['doses', personId] as const;
export const dosesQueryKey = (personId: string, from: string, to: string) => [...dosesQueryPrefix(personId), from, to] as const;

/** A person's doses path; with `doseId`, one dose's. */
export function dosesPath(personId: string, doseId?: string): string {
  const base = `/api/user/people/${encodeURIComponent(personId)}/doses`;
  return doseId === undefined ? base : `${base}/${encodeURIComponent(doseId)}`;
}

/**
 * GET /api/user/people/{personId}/doses?from&to (dates of the person's zone, at most 92 days) →
 * the scheduled and logged doses in time order, each with its time and the person's UTC offset.
 */
export async function getDoses(personId: string, from: string, to: string): Promise<Dose[]> {
  return dosesSchema.parse(await api.get(dosesPath(personId), { query: { from, to } })).doses;
}

/** A dose's status moves with the clock (upcoming → due → missed): read again each minute. */
const REFRESH_MS = 60_000;

export const dosesQueryOptions = (personId: string, from: string, to: string) =>
  queryOptions({ queryKey: dosesQueryKey(personId, from, to), queryFn: () => getDoses(personId, from, to), refetchInterval: REFRESH_MS });

export function useDoses(personId: string | null, from: string, to: string) {
  return useQuery({ ...dosesQueryOptions(personId ?? '', from, to), enabled: personId !== null });
}

/** The same dates for several people (the dashboard's Today). */
export function usePeopleDoses(personIds: readonly string[], from: string, to: string) {
  return useQueries({ queries: personIds.map((id) => dosesQueryOptions(id, from, to)) });
}
