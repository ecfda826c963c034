import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangeEmailInput } from '@kinchart/shared/auth';
import { messageSchema, type MessageResponse } from '@kinchart/shared/common';
import { api } from '../../../lib/api-client';
import { authQueryKey } from '../../auth/api/check-auth';
import { emailVerificationQueryKey } from './email-verification';

/** PUT /api/auth/change-email — the answer's message is shown (SPEC §7). */
export async function changeEmail(input: ChangeEmailInput): Promise<MessageResponse> {
  return messageSchema.parse(await api.put('/api/auth/change-email', input));
}

export function useChangeEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeEmail,
    // The signed-in user's email is part of the authentication state; a new one is unproven (docs/decisions/0030).
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: authQueryKey }),
        queryClient.invalidateQueries({ queryKey: emailVerificationQueryKey }),
      ]),
  });
}
