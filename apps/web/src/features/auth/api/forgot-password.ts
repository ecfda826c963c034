import { useMutation } from '@tanstack/react-query';
import { messageSchema, type MessageResponse } from '@kinchart/shared/common';
import type { ForgotPasswordInput } from '@kinchart/shared/auth';
import { api } from '../../../lib/api-client';

/** POST /api/auth/forgot-password → 202 { message }, the same whether or not an account has the email. */
export async function forgotPassword(input: ForgotPasswordInput): Promise<MessageResponse> {
  return messageSchema.parse(await api.post('/api/auth/forgot-password', input));
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}
