import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { preferencesSchema, type Preferences, type PreferencesInput } from '@kinchart/shared/care';
import { api } from '../../../lib/api-client';

export const preferencesQueryKey = ['preferences'] as const;

/** GET /api/user/preferences: the account's time zone and reminder channels (issue 32). */
export async function getPreferences(): Promise<Preferences> {
  return preferencesSchema.parse(await api.get('/api/user/preferences'));
}

const preferencesQueryOptions = queryOptions({ queryKey: preferencesQueryKey, queryFn: getPreferences });

export function usePreferences() {
  return useQuery(preferencesQueryOptions);
}

/** PUT /api/user/preferences: the fields given change, the others stay. */
export async function updatePreferences(input: PreferencesInput): Promise<Preferences> {
  return preferencesSchema.parse(await api.put('/api/user/preferences', input));
}

export function useUpdatePreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePreferences,
    onSuccess: (saved) => queryClient.setQueryData(preferencesQueryKey, saved),
  });
}
