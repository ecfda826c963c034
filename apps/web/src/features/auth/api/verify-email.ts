import { useMutation } from '@tanstack/react-query';
import { messageSchema, type MessageResponse } from '@kinchart/shared/common';
import type { VerifyEmailInput } from '@kinchart/shared/auth';
import { api } from '../../../lib/api-client';

/** POST /api/auth/verify-email → 200 { message }: the emailed link's token proves the address (docs/decisions/0030). */
export async function verifyEmail(input: VerifyEmailInput): Promise<MessageResponse> {
  return messageSchema.parse(await api.post('/api/auth/verify-email', input));
}

export function useVerifyEmail() {
  return useMutation({ mutationFn: verifyEmail });
}
