import { queryOptions, useQuery } from '@tanstack/react-query';
import { allergyListSchema, type Allergy } from '@kinchart/shared/allergies';
import { api } from '../../../lib/api-client';
import { allergiesPath, allergiesQueryKey } from './allergy-paths';

/** GET /api/user/people/{personId}/allergies → the list, in the person's order (viewer and up). */
export async function getAllergies(personId: string): Promise<Allergy[]> {
  return allergyListSchema.parse(await api.get(allergiesPath(personId)));
}

export function useAllergies(personId: string) {
  return useQuery(queryOptions({ queryKey: allergiesQueryKey(personId), queryFn: () => getAllergies(personId) }));
}
