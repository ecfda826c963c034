import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { labTestsPath, labTestsSchema, type LabTests } from '@kinchart/shared/labs';

export type LabTest = LabTests['tests'][number];

/** The fewest characters worth a search of the table. */
export const LAB_TEST_QUERY_MIN = 2;

/** GET /api/user/lab-tests?q= (issue 34): up to 20 tests of the LOINC table matching a name, code or synonym. */
export async function searchLabTests(q: string, signal?: AbortSignal): Promise<LabTest[]> {
  return labTestsSchema.parse(await api.get(labTestsPath(q), { signal })).tests;
}

/** The table's tests for what is typed; nothing is asked below LAB_TEST_QUERY_MIN characters. */
export function useLabTests(q: string) {
  const term = q.trim();
  return useQuery({
    queryKey: ['lab-tests', term] as const,
    queryFn: ({ signal }) => searchLabTests(term, signal),
    enabled: term.length >= LAB_TEST_QUERY_MIN,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
}
