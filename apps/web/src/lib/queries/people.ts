import { t } from '@lingui/core/macro';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { peopleSchema, type Person } from '@kinchart/shared/people';
import { api } from '../api-client';

/** The prefix of every people query: invalidate it when a person, a share or an invitation changes. */
export const peopleQueryKey = ['people'] as const;

/**
 * GET /api/user/people — every person the signed-in user can see (DESIGN §11): their own profile
 * first, their family members, then the people shared with them ("Shared by {username}"). One
 * cache entry for the dashboard switcher, every person filter and every "For" choice.
 */
export async function getPeople(): Promise<Person[]> {
  return peopleSchema.parse(await api.get('/api/user/people'));
}

export const peopleQueryOptions = queryOptions({ queryKey: peopleQueryKey, queryFn: getPeople });

export function usePeople() {
  return useQuery(peopleQueryOptions);
}

/** A person's name as lists show it: the name, else "You" for your own profile, else "Unnamed". */
export function personLabel(person: Pick<Person, 'name' | 'is_self' | 'shared_by'>): string {
  if (person.name) return person.name;
  return person.is_self && person.shared_by === null ? t`You` : t`Unnamed`;
}
