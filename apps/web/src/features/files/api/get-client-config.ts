import { queryOptions, useQuery } from '@tanstack/react-query';
import { clientConfigSchema, type ClientConfig } from '@kinchart/shared/files';
import { api } from '../../../lib/api-client';

export const clientConfigQueryKey = ['client-config'] as const;

/** GET /api/config: the server's upload limit (MAX_UPLOAD_MB in bytes, configurable, DESIGN §1). */
export async function getClientConfig(): Promise<ClientConfig> {
  return clientConfigSchema.parse(await api.get<unknown>('/api/config'));
}

export const clientConfigQueryOptions = queryOptions({
  queryKey: clientConfigQueryKey,
  queryFn: getClientConfig,
  // It changes only when the server restarts with another MAX_UPLOAD_MB.
  staleTime: Infinity,
});

/** The largest file the server accepts, in bytes; undefined until known (the server still checks). */
export function useUploadLimit(): number | undefined {
  return useQuery(clientConfigQueryOptions).data?.max_upload_bytes;
}
