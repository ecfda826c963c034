import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageSchema, type MessageResponse } from '@kinchart/shared/common';
import type { ProfileUpdateInput } from '@kinchart/shared/profile';
import { api, isNetworkError } from '../../../lib/api-client';
import { waitForConnection } from '../../../lib/connection';
import { patientProfileQueryKey } from '../../../lib/queries/patient-profile';

/**
 * PUT /api/user/updateProfile — the whole profile, height in cm and weight in kg (SPEC §7).
 * The editor leaves the nested lists out: its tabs save those one by one, and a list left out is kept.
 */
export async function updateProfile(input: ProfileUpdateInput): Promise<MessageResponse> {
  return messageSchema.parse(await api.put('/api/user/updateProfile', input));
}

export interface SaveProfileVariables {
  profile: ProfileUpdateInput;
  /** Called when the save found no connection and now waits for it (issue 30, item 22). */
  onWaiting?: () => void;
  /** Stops waiting (the editor was closed); the caller keeps the edit. */
  signal?: AbortSignal;
}

/**
 * The save, sent again each time the connection comes back after a request that got no answer
 * (a PUT of the whole profile: sending it twice changes nothing). Any answer from the server —
 * success or refusal — ends it.
 */
export async function saveProfileWhenOnline({ profile, onWaiting, signal }: SaveProfileVariables): Promise<MessageResponse> {
  for (;;) {
    try {
      return await updateProfile(profile);
    } catch (error) {
      if (!isNetworkError(error)) throw error;
      if (signal?.aborted) throw error;
      onWaiting?.();
      await waitForConnection(signal);
    }
  }
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveProfileWhenOnline,
    // The waiting is done above, where the editor hears of it; the query client must not pause it.
    networkMode: 'always',
    onSuccess: () => queryClient.invalidateQueries({ queryKey: patientProfileQueryKey }),
  });
}
