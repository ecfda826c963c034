import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { passkeySummarySchema, recoveryCodesResponseSchema } from '@kinchart/shared/auth';
import { messageSchema, type MessageResponse } from '@kinchart/shared/common';
import { api } from '../../../lib/api-client';
import { createPasskey } from '../../../lib/passkeys';
import { mfaQueryKey } from '../../auth/api/get-mfa-status';

const passkeyAddedSchema = z.object({
  message: z.string(),
  passkey: passkeySummarySchema,
  recovery_codes: recoveryCodesResponseSchema.shape.recovery_codes.optional(),
});
export type PasskeyAdded = z.infer<typeof passkeyAddedSchema>;

/**
 * Adds a passkey (docs/decisions/0027): the browser makes one for the server's challenge, then
 * POST /api/auth/mfa/passkeys keeps it under `name`. The first second factor of the account comes
 * back with its recovery codes.
 */
export async function addPasskey(name: string): Promise<PasskeyAdded> {
  const response = await createPasskey();
  return passkeyAddedSchema.parse(await api.post('/api/auth/mfa/passkeys', { name, response }));
}

export async function renamePasskey({ id, name }: { id: string; name: string }): Promise<MessageResponse> {
  return messageSchema.parse(await api.put(`/api/auth/mfa/passkeys/${encodeURIComponent(id)}`, { name }));
}

export async function removePasskey(id: string): Promise<MessageResponse> {
  return messageSchema.parse(await api.delete(`/api/auth/mfa/passkeys/${encodeURIComponent(id)}`));
}

function useMfaMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: mfaQueryKey }) });
}

export const useAddPasskey = () => useMfaMutation(addPasskey);
export const useRenamePasskey = () => useMfaMutation(renamePasskey);
export const useRemovePasskey = () => useMfaMutation(removePasskey);
