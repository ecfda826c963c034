import { queryOptions, useQuery } from '@tanstack/react-query';
import { clientConfigSchema, type ClientConfig } from '@kinchart/shared/config';
import type { SignupMode } from '@kinchart/shared/auth';
import { api } from '../api-client';

export const clientConfigQueryKey = ['client-config'] as const;

/**
 * GET /api/config (public): the server's upload limit (MAX_UPLOAD_MB in bytes, configurable,
 * DESIGN §1) and its sign-up mode (SIGNUP_MODE, docs/decisions/0025).
 */
export async function getClientConfig(): Promise<ClientConfig> {
  return clientConfigSchema.parse(await api.get<unknown>('/api/config'));
}

export const clientConfigQueryOptions = queryOptions({
  queryKey: clientConfigQueryKey,
  queryFn: getClientConfig,
  // It changes only when the server restarts with other settings.
  staleTime: Infinity,
});

/** The largest file the server accepts, in bytes; undefined until known (the server still checks). */
export function useUploadLimit(): number | undefined {
  return useQuery(clientConfigQueryOptions).data?.max_upload_bytes;
}

/** Who may sign up here; undefined until known (or when it could not be asked: the server still decides). */
export function useSignupMode(): SignupMode | undefined {
  return useQuery(clientConfigQueryOptions).data?.signup_mode;
}
