import { queryOptions, useQuery } from '@tanstack/react-query';
import { personDetailSchema, type PersonDetail } from '@kinchart/shared/people';
import { api } from '../../../lib/api-client';
import { peopleQueryKey } from '../../../lib/queries/people';

/** Under the people list's key, so refreshing the list refreshes the person too. */
export const personQueryKey = (id: string) => [...peopleQueryKey, id] as const;

/**
 * GET /api/user/people/{personId} (DESIGN §11): a person shared with the user — their profile with
 * its lists, as a family member's answer, plus the user's role and who shares them.
 */
export async function getPerson(id: string): Promise<PersonDetail> {
  return personDetailSchema.parse(await api.get(`/api/user/people/${encodeURIComponent(id)}`));
}

/** One person; idle while `id` is undefined. */
export function usePerson(id: string | undefined) {
  return useQuery(
    queryOptions({ queryKey: personQueryKey(id ?? ''), queryFn: () => getPerson(id ?? ''), enabled: id !== undefined && id !== '' }),
  );
}
