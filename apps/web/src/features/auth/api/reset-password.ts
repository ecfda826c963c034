import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageSchema, type MessageResponse } from '@kinchart/shared/common';
import type { ResetPasswordInput } from '@kinchart/shared/auth';
import { api } from '../../../lib/api-client';
import { clearSession } from './check-auth';

/** POST /api/auth/reset-password → 200 { message }; every session of the account has ended. */
export async function resetPassword(input: ResetPasswordInput): Promise<MessageResponse> {
  return messageSchema.parse(await api.post('/api/auth/reset-password', input));
}

/** Resets the password; this browser is signed out afterwards (the server ended every session). */
export function useResetPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetPassword,
    onSuccess: () => clearSession(queryClient),
  });
}
