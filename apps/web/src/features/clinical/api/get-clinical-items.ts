import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ClinicalKind } from '@kinchart/shared/clinical';
import { api } from '../../../lib/api-client';
import { clinicalPath, clinicalQueryKey, itemSchemas, type ClinicalItem } from './clinical-paths';

/** GET /api/user/people/{personId}/{kind}: the person's items of one kind, newest first (viewer and up). */
export async function getClinicalItems<K extends ClinicalKind>(personId: string, kind: K): Promise<ClinicalItem<K>[]> {
  const schema = itemSchemas[kind];
  return schema.array().parse(await api.get(clinicalPath(personId, kind)));
}

export const clinicalItemsQueryOptions = <K extends ClinicalKind>(personId: string, kind: K) =>
  queryOptions({ queryKey: clinicalQueryKey(personId, kind), queryFn: () => getClinicalItems(personId, kind) });

export function useClinicalItems<K extends ClinicalKind>(personId: string, kind: K) {
  return useQuery(clinicalItemsQueryOptions(personId, kind));
}
