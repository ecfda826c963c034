import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { messageSchema, type MessageResponse } from '@kinchart/shared/common';
import { resetLinkStatusSchema, type ResetLinkStatus, type ResetPasswordInput } from '@kinchart/shared/auth';
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

/**
 * GET /api/auth/reset-password?token=… → 200 while the link works; 400 (used or expired) or 404
 * (never made) with words saying which. Asked as the page opens, before a password is typed.
 */
export async function checkResetLink(token: string, signal?: AbortSignal): Promise<ResetLinkStatus> {
  return resetLinkStatusSchema.parse(await api.get('/api/auth/reset-password', { query: { token }, signal }));
}

/** `asking` false once the reset is under way: signing out then drops every query, and this one need not come back. */
export function useResetLinkStatus(token: string, asking: boolean) {
  return useQuery({
    queryKey: ['reset-link', token],
    queryFn: ({ signal }) => checkResetLink(token, signal),
    enabled: token !== '' && asking,
    retry: false,
    // A link's state changes only by using it here; asking again on focus would only repeat the answer.
    staleTime: Infinity,
  });
}
