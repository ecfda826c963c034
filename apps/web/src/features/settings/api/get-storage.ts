import { queryOptions, useQuery } from '@tanstack/react-query';
import { storageUsageSchema, type StorageUsage } from '@kinchart/shared/files';
import { STORAGE_PATH } from '@kinchart/shared/files';
import { api } from '../../../lib/api-client';

export const storageQueryKey = ['storage'] as const;

/** GET /api/user/storage: the space the account's files take and its quota (DESIGN §5, STORAGE_QUOTA_MB). */
export async function getStorage(): Promise<StorageUsage> {
  return storageUsageSchema.parse(await api.get(STORAGE_PATH));
}

export const storageQueryOptions = queryOptions({ queryKey: storageQueryKey, queryFn: getStorage });

export function useStorage() {
  return useQuery(storageQueryOptions);
}
